using System.Buffers;
using System.Numerics;
using Managed.Zmq.Internal;

namespace Managed.Zmq.Buffers;

/// <summary>
/// The process-wide reserve of queue memory: the byte arrays that frame queues (Pipes/FrameQueue) and
/// inproc channels (Inproc/InprocChannel) write frames into, in power-of-two sizes.
/// </summary>
/// <remarks>
/// <para>Each queue keeps a few drained arrays of its own and comes here for the rest. A stream of mid-size frames
/// (a few KiB to 32 KiB) fills a queue with up to HWM of them, more than a queue's own spares hold; when it drains,
/// the surplus must wait somewhere for the next fill, or every fill allocates it anew. <see cref="ArrayPool{T}.Shared"/>
/// keeps only a few arrays of one size per core, so this pool keeps up to <see cref="Budget"/> bytes over all
/// sizes instead (<see cref="Shared"/>; tests make their own).</para>
/// <para>What a burst leaves behind is not kept for good: at each gen-2 collection, a size that nobody rented for
/// <see cref="Tuning.Pools.SegmentPoolIdleTrimMilliseconds"/> gives its arrays back to the GC, and under high memory
/// load every size does (as ArrayPool trims itself). A size in use is never trimmed, however often the application
/// forces collections.</para>
/// <para>The budget is shared by all sizes, but not first come, first served: an array returned to a full pool
/// pushes out arrays of sizes rented less recently than its own, so a size a past burst filled the pool with cannot
/// keep a size in use out of it.</para>
/// <para>The pool is touched once per segment (up to 64 KiB of frames), not once per message: a lock per size and
/// an interlocked add or two is what a segment change costs.</para>
/// </remarks>
internal sealed class SegmentPool
{
    /// <summary>The smallest array handed out; smaller requests get this size.</summary>
    public const int MinSize = Tuning.Pools.MinSegmentSize;

    /// <summary>The largest pooled size; larger requests go to <see cref="ArrayPool{T}.Shared"/>.</summary>
    public const int MaxSize = Tuning.Pools.MaxPooledSegmentSize;

    private readonly SizeClass[] _classes;

    /// <summary>Rents so far: each size remembers the number of its last, which orders the sizes by how recently they were used.</summary>
    private long _rents;

    /// <summary>A pool that holds up to <paramref name="budget"/> bytes; only <see cref="Shared"/> trims itself.</summary>
    internal SegmentPool(long budget)
    {
        Budget = budget;
        _classes = CreateClasses(budget);
    }

    /// <summary>The pool every queue uses.</summary>
    public static SegmentPool Shared { get; } = CreateShared();

    /// <summary>Bytes the pool may hold over all sizes.</summary>
    public long Budget { get; }

    /// <summary>
    /// Bytes the pool holds now, summed over the sizes without their locks: exact while nobody rents or returns,
    /// and otherwise off by the arrays moving meanwhile, which is all the budget check needs.
    /// </summary>
    public long PooledBytes
    {
        get
        {
            long bytes = 0;
            foreach (SizeClass sizeClass in _classes)
            {
                bytes += (long)sizeClass.Count * sizeClass.Size;
            }

            return bytes;
        }
    }

    /// <summary>An array of at least <paramref name="size"/> bytes (a power of two), with unspecified content.</summary>
    public byte[] Rent(int size)
    {
        if (size > MaxSize)
        {
            return ArrayPool<byte>.Shared.Rent(size);
        }

        SizeClass sizeClass = _classes[BufferPool.SizeClassIndex(size, MinSize)];
        if (sizeClass.TryPop(Interlocked.Increment(ref _rents), out byte[]? array))
        {
            return array;
        }

        return GC.AllocateUninitializedArray<byte>(sizeClass.Size);
    }

    /// <summary>
    /// Takes back an array from <see cref="Rent"/>. It is kept while the pool is under its budget; over it, room is
    /// made by dropping arrays of sizes rented less recently than this one (so a size a past burst filled the pool
    /// with cannot keep a size in use out of it), and the array is dropped if there are none.
    /// </summary>
    public void Return(byte[] array)
    {
        int length = array.Length;
        if (length > MaxSize)
        {
            ArrayPool<byte>.Shared.Return(array);
            return;
        }

        if (length < MinSize || !BitOperations.IsPow2(length))
        {
            // Not one of ours (nothing hands such arrays here): left to the GC.
            return;
        }

        SizeClass sizeClass = _classes[BufferPool.SizeClassIndex(length, MinSize)];
        long over = PooledBytes + length - Budget;
        if (over <= 0 || MakeRoom(sizeClass, over))
        {
            sizeClass.Push(array);
        }
    }

    /// <summary>
    /// Drops arrays of sizes last rented before <paramref name="keeper"/>'s, stalest first, until
    /// <paramref name="over"/> bytes are gone; false when not enough could be.
    /// </summary>
    private bool MakeRoom(SizeClass keeper, long over)
    {
        long keeperRent = keeper.LastRentSequence;
        while (over > 0)
        {
            SizeClass? stalest = null;
            foreach (SizeClass candidate in _classes)
            {
                if (candidate.Count > 0 && candidate.LastRentSequence < keeperRent
                    && (stalest is null || candidate.LastRentSequence < stalest.LastRentSequence))
                {
                    stalest = candidate;
                }
            }

            if (stalest is null)
            {
                return false;
            }

            over -= stalest.DropUpTo(over);
        }

        return true;
    }

    /// <summary>
    /// Gives back to the GC the arrays of every size not rented since <paramref name="idleSince"/> (a
    /// <see cref="Environment.TickCount64"/> value); with <see cref="long.MaxValue"/>, of every size.
    /// </summary>
    internal void Trim(long idleSince)
    {
        foreach (SizeClass sizeClass in _classes)
        {
            sizeClass.TrimIfIdleSince(idleSince);
        }
    }

    /// <summary>The gen-2 trim: idle sizes, or every size when memory is short.</summary>
    private void TrimAfterFullCollection()
    {
        GCMemoryInfo memory = GC.GetGCMemoryInfo();
        bool memoryShort = memory.MemoryLoadBytes >= memory.HighMemoryLoadThresholdBytes;
        Trim(memoryShort ? long.MaxValue : Environment.TickCount64 - Tuning.Pools.SegmentPoolIdleTrimMilliseconds);
    }

    private static SegmentPool CreateShared()
    {
        var pool = new SegmentPool(Tuning.Pools.SegmentPoolBudget);
        TrimOnFullCollection.Start(pool);
        return pool;
    }

    private static SizeClass[] CreateClasses(long budget)
    {
        var classes = new SizeClass[BitOperations.Log2(MaxSize) - BitOperations.Log2(MinSize) + 1];
        for (int i = 0; i < classes.Length; i++)
        {
            int size = MinSize << i;
            classes[i] = new SizeClass(size, (int)Math.Clamp(budget / size, 1, int.MaxValue));
        }

        return classes;
    }

    /// <summary>The arrays of one size: a stack under a lock, never more than the whole budget's worth.</summary>
    private sealed class SizeClass(int size, int capacity)
    {
        private byte[]?[] _stack = new byte[]?[Math.Min(capacity, Tuning.Pools.SegmentPoolInitialSlots)];

        private int _count;

        /// <summary>When this size was last rented (<see cref="Environment.TickCount64"/>).</summary>
        private long _lastRent = Environment.TickCount64;

        /// <summary>The pool's number of this size's last rent (see <see cref="_rents"/>).</summary>
        private long _lastRentSequence;

        public int Size { get; } = size;

        /// <summary>Arrays held (read without the lock: a hint for <see cref="MakeRoom"/>).</summary>
        public int Count => Volatile.Read(ref _count);

        /// <summary>The pool's rent number of this size's last rent (read without the lock, as <see cref="Count"/>).</summary>
        public long LastRentSequence => Volatile.Read(ref _lastRentSequence);

        public bool TryPop(long rentSequence, out byte[] array)
        {
            long now = Environment.TickCount64;
            lock (this)
            {
                _lastRent = now;
                _lastRentSequence = rentSequence;
                if (_count == 0)
                {
                    array = null!;
                    return false;
                }

                _count--;
                array = _stack[_count]!;
                _stack[_count] = null;
                return true;
            }
        }

        /// <summary>Keeps <paramref name="array"/>, unless this size already holds the whole budget's worth.</summary>
        public void Push(byte[] array)
        {
            lock (this)
            {
                if (_count == _stack.Length)
                {
                    if (_count >= capacity)
                    {
                        return;
                    }

                    Array.Resize(ref _stack, (int)Math.Min(_count * 2L, capacity));
                }

                _stack[_count++] = array;
            }
        }

        /// <summary>Drops arrays until at least <paramref name="bytes"/> are gone or none is left; the bytes dropped.</summary>
        public long DropUpTo(long bytes)
        {
            lock (this)
            {
                long dropped = 0;
                while (_count > 0 && dropped < bytes)
                {
                    _stack[--_count] = null;
                    dropped += Size;
                }

                return dropped;
            }
        }

        /// <summary>Drops every array if the size was last rented before <paramref name="idleSince"/>.</summary>
        public void TrimIfIdleSince(long idleSince)
        {
            lock (this)
            {
                if (_lastRent < idleSince)
                {
                    Array.Clear(_stack, 0, _count);
                    _count = 0;
                }
            }
        }
    }

    /// <summary>
    /// An object that is never referenced and brings itself back from finalization each time: its finalizer runs
    /// after every collection of the generation it lives in, which is gen 2 once it has survived two.
    /// </summary>
    private sealed class TrimOnFullCollection(SegmentPool pool)
    {
        public static void Start(SegmentPool pool) => _ = new TrimOnFullCollection(pool);

        ~TrimOnFullCollection()
        {
            if (Environment.HasShutdownStarted)
            {
                return;
            }

            pool.TrimAfterFullCollection();
            GC.ReRegisterForFinalize(this);
        }
    }
}
