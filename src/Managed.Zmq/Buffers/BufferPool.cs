using System.Numerics;
using System.Runtime.CompilerServices;
using Managed.Zmq.Internal;

namespace Managed.Zmq.Buffers;

/// <summary>
/// The engine of a message pool: native buffers in size classes, a lock-free level-1 cache per thread and a
/// shared level-2 stack per bucket, and the counters. The public <c>MessagePool</c> is a facade over one;
/// messages, payloads and the engine's large-frame receives hold this, so the layers below the API never
/// name a public type to pool a buffer.
/// </summary>
internal sealed class BufferPool
{
    /// <summary>Number of size classes.</summary>
    public const int BucketCount = 19;

    /// <summary>Capacity of the smallest bucket.</summary>
    public const int MinBucketSize = Tuning.Pools.MinBucketSize;

    /// <summary>Capacity of the largest bucket; larger rents are not pooled.</summary>
    public const int MaxBucketSize = Tuning.Pools.MaxBucketSize;

    /// <summary>Guards <see cref="s_nextId"/>, <see cref="s_nextSerial"/> and <see cref="s_liveSerials"/>.</summary>
    private static readonly Lock s_idLock = new();

    /// <summary>The highest id given out so far.</summary>
    private static int s_nextId = -1;

    private static long s_nextSerial;

    /// <summary>
    /// The serial of the pool that holds each id now, 0 for an id that is free: a gone pool's id is given out again, so
    /// that a process that makes and drops pools keeps its threads' <see cref="ThreadCaches.Pools"/> as long as its most
    /// pools alive at once, not one slot per pool ever made.
    /// </summary>
    private static long[] s_liveSerials = [];

    /// <summary>Index of this pool in every thread's <see cref="ThreadCaches.Pools"/>; another pool's once this one is gone.</summary>
    private readonly int _id;

    /// <summary>The highest id given to a pool so far in the process. Tests.</summary>
    public static int HighestId
    {
        get
        {
            lock (s_idLock)
            {
                return s_nextId;
            }
        }
    }

    /// <summary>This pool's index in the threads' caches. Tests.</summary>
    public int Id => _id;

    /// <summary>Never given to another pool: tells this pool's thread caches from those of a pool that had its id before.</summary>
    private readonly long _serial;

    /// <summary>Level 2, one bucket per size class.</summary>
    private readonly MessagePoolBucket[] _buckets;

    /// <summary>Every thread cache of this pool, so statistics can add up their counters; guarded by itself.</summary>
    private readonly List<MessagePoolThreadCache> _threadCaches = [];

    // Every rent is a hit or a miss, so hits are counted as rents minus misses: one interlocked add less per rent.
    // Pooled rents and returns are counted by the thread caches (see MessagePoolThreadCache.Rents); these hold the
    // rest: oversize rents and their returns, and the counts of thread caches whose threads have ended.
    private long _rents;
    private long _returns;
    private long _misses;
    private long _rejects;

    /// <summary>An empty pool with the default caps and its own statistics.</summary>
    public BufferPool()
    {
        lock (s_idLock)
        {
            // A scan, not a list of free ids: pools are made rarely, and the serials already say which ids are free.
            int free = Array.IndexOf(s_liveSerials, 0L, 0, s_nextId + 1);
            _id = free >= 0 ? free : ++s_nextId;
            _serial = ++s_nextSerial;
            if (_id >= s_liveSerials.Length)
            {
                Array.Resize(ref s_liveSerials, Math.Max(_id + 1, s_liveSerials.Length * 2));
            }

            s_liveSerials[_id] = _serial;
        }

        _buckets = new MessagePoolBucket[BucketCount];
        for (int i = 0; i < BucketCount; i++)
        {
            _buckets[i] = new MessagePoolBucket(DefaultMaxBuffers(i));
        }
    }

    /// <summary>Frees the level-2 buffers of a pool nobody references any more.</summary>
    /// <remarks>
    /// Rented messages and payloads keep their pool reachable, so this only runs once none is left. Level-1 buffers stay
    /// with their threads: a thread that has ended lets its cache go, whose finalizer frees them; a live thread frees
    /// them the next time it starts using any pool (<see cref="CreateThreadCache"/>).
    /// </remarks>
    ~BufferPool()
    {
        foreach (MessagePoolBucket bucket in _buckets)
        {
            bucket.FreeAll();
        }

        // A live thread's cache of this pool stays in its slot until the thread next takes a cache of any pool (which
        // frees the caches of gone pools there, on their own thread) or ends (the cache's finalizer frees it).
        lock (s_idLock)
        {
            s_liveSerials[_id] = 0;
        }
    }

    /// <summary>Reads the counters for <c>MessagePool.GetStatistics</c>, in the order that keeps them consistent.</summary>
    public void ReadStatistics(out long rents, out long returns, out long misses, out long rejects)
    {
        // Returns and misses are read before rents: a buffer is always counted as rented before it is counted as
        // returned or missed, so this order can never show a negative outstanding or hit count (a rent still in
        // progress may count as a hit for the moment).
        lock (_threadCaches)
        {
            // Under the lock no thread cache is folded into the pool's own counters meanwhile (see PruneEndedThreads).
            returns = Interlocked.Read(ref _returns);
            foreach (MessagePoolThreadCache cache in _threadCaches)
            {
                returns += Volatile.Read(ref cache.Returns);
            }

            rejects = Interlocked.Read(ref _rejects);
            misses = Interlocked.Read(ref _misses);
            rents = Interlocked.Read(ref _rents);
            foreach (MessagePoolThreadCache cache in _threadCaches)
            {
                rents += Volatile.Read(ref cache.Rents);
            }
        }
    }

    /// <summary>Buffers in level 2 of bucket <paramref name="index"/>.</summary>
    public int LevelTwoCount(int index) => _buckets[index].Count;

    /// <summary>The level-2 cap of bucket <paramref name="index"/>.</summary>
    public int GetMaxBuffers(int index) => _buckets[index].MaxBuffers;

    /// <summary>Sets the level-2 cap of bucket <paramref name="index"/>; nothing is evicted.</summary>
    public void SetMaxBuffers(int index, int maxBuffers) => _buckets[index].MaxBuffers = maxBuffers;

    /// <summary>Allocates up to <paramref name="count"/> buffers into level 2 of bucket <paramref name="index"/>, up to its cap (not rents).</summary>
    public void Prewarm(int index, int count)
    {
        MessagePoolBucket bucket = _buckets[index];
        for (int i = 0; i < count && bucket.Count < bucket.MaxBuffers; i++)
        {
            nint buffer = AllocateBuffer(index);
            if (!bucket.TryPush(buffer))
            {
                // Another thread filled the bucket meanwhile.
                FreeBuffer(buffer);
                break;
            }
        }
    }

    /// <summary>Frees every buffer in level 2 and in the calling thread's level 1.</summary>
    public void Clear()
    {
        foreach (MessagePoolBucket bucket in _buckets)
        {
            bucket.FreeAll();
        }

        TryGetThreadCache()?.FreeAll();
    }

    /// <summary>Counts an oversize (unpooled) rent: a rent and a miss.</summary>
    public void CountUnpooledRent()
    {
        Interlocked.Increment(ref _rents);
        Interlocked.Increment(ref _misses);
    }

    /// <summary>Gets the bucket index for a request of <paramref name="size"/> bytes (at most 4 MiB).</summary>
    public static int GetBucketIndex(int size) => SizeClassIndex(size, MinBucketSize);

    /// <summary>
    /// The index of the smallest power of two from <paramref name="smallest"/> up that holds <paramref name="size"/>:
    /// 0 for <paramref name="smallest"/>, 1 for twice that, and so on (MessagePool's buckets, SegmentPool's sizes).
    /// </summary>
    public static int SizeClassIndex(int size, int smallest) =>
        size <= smallest ? 0 : BitOperations.Log2((uint)(size - 1)) + 1 - BitOperations.Log2((uint)smallest);

    /// <summary>Gets the capacity in bytes of bucket <paramref name="index"/>.</summary>
    public static int GetBucketCapacity(int index) => MinBucketSize << index;

    /// <summary>Frees a pool buffer for good.</summary>
    public static void FreeBuffer(nint buffer) => FrameHeadroom.FreePooled(buffer);

    /// <summary>Tests: when set, every pooled rent is recorded until its buffer comes back (see <see cref="PoolLeakTracker"/>).</summary>
    public PoolLeakTracker? LeakTracker { get; set; }

    /// <summary>Takes back a buffer of bucket <paramref name="index"/> from a message that is done with it.</summary>
    public void ReturnBuffer(int index, nint buffer) => ReturnBuffer(index, buffer, ThreadCaches.Current);

    /// <summary>Takes back a buffer of bucket <paramref name="index"/>; <paramref name="caches"/> are the calling thread's.</summary>
    public void ReturnBuffer(int index, nint buffer, ThreadCaches caches)
    {
        LeakTracker?.Returned(buffer);
        MessagePoolThreadCache cache = GetOrCreateThreadCache(caches);

        // A release store: a reader that sees this return also sees the rent counted before it on any thread.
        Volatile.Write(ref cache.Returns, cache.Returns + 1);
        if (cache.TryPush(index, buffer) || _buckets[index].TryPush(buffer))
        {
            return;
        }

        Reject(buffer);
    }

    /// <summary>
    /// A returned buffer neither level has room for. Out of line, as is <see cref="AllocateBuffer"/>: a P/Invoke
    /// (NativeMemory) inlined into <see cref="ReturnBuffer(int, nint, ThreadCaches)"/> would set up a P/Invoke frame
    /// on every return, rejected or not.
    /// </summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    private void Reject(nint buffer)
    {
        Interlocked.Increment(ref _rejects);
        FreeBuffer(buffer);
    }

    /// <summary>Counts the release of an oversize (unpooled) rent as a return.</summary>
    public void CountUnpooledReturn() => Interlocked.Increment(ref _returns);

    private static int DefaultMaxBuffers(int index) => GetBucketCapacity(index) switch
    {
        <= 512 => Tuning.Pools.SharedBuffersUpTo512B,
        <= 4 * 1024 => Tuning.Pools.SharedBuffersUpTo4KiB,
        <= 64 * 1024 => Tuning.Pools.SharedBuffersUpTo64KiB,
        <= 512 * 1024 => Tuning.Pools.SharedBuffersUpTo512KiB,
        _ => Tuning.Pools.SharedBuffersLarger,
    };

    /// <summary>A new buffer for bucket <paramref name="index"/>: cache-line aligned, so buffers never share a line with unrelated data, with headroom for a frame header in front.</summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    private static nint AllocateBuffer(int index) => FrameHeadroom.AllocatePooled(GetBucketCapacity(index));

    /// <summary>
    /// A pooled buffer of at least <paramref name="size"/> bytes (at most 4 MiB) without a Message
    /// around it, for the socket's own copies of large span sends and a Message's own buffers (<see cref="OwnedBuffers"/>); returned through <see cref="ReturnBuffer(int, nint)"/>.
    /// </summary>
    public nint RentBuffer(int size, out int bucket) => RentBuffer(size, out bucket, ThreadCaches.Current);

    /// <summary><see cref="RentBuffer(int, out int)"/> with the calling thread's <paramref name="caches"/>, read once by the caller.</summary>
    public nint RentBuffer(int size, out int bucket, ThreadCaches caches)
    {
        bucket = GetBucketIndex(size);
        return TakeBuffer(bucket, caches);
    }

    /// <summary>A buffer of bucket <paramref name="index"/>: from the thread's cache, else level 2, else a new one (a miss).</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public nint TakeBuffer(int index, ThreadCaches caches)
    {
        // Counted before a miss can be, as GetStatistics expects.
        MessagePoolThreadCache cache = GetOrCreateThreadCache(caches);
        Volatile.Write(ref cache.Rents, cache.Rents + 1);
        if (!cache.TryPop(index, out nint buffer) && !_buckets[index].TryPop(out buffer))
        {
            Interlocked.Increment(ref _misses);
            buffer = AllocateBuffer(index);
        }

        LeakTracker?.Rented(buffer);
        return buffer;
    }

    private MessagePoolThreadCache? TryGetThreadCache() =>
        ThreadCaches.CurrentIfCreated is { } caches ? CachedIn(caches.Pools) : null;

    /// <summary>This pool's cache in a thread's slots, or null: none yet, or a gone pool's that had this id.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private MessagePoolThreadCache? CachedIn(MessagePoolThreadCache?[] pools) =>
        (uint)_id < (uint)pools.Length && pools[_id] is { } cache && cache.PoolSerial == _serial ? cache : null;

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private MessagePoolThreadCache GetOrCreateThreadCache(ThreadCaches caches)
        => CachedIn(caches.Pools) ?? CreateThreadCache(caches);

    [MethodImpl(MethodImplOptions.NoInlining)]
    private MessagePoolThreadCache CreateThreadCache(ThreadCaches caches)
    {
        MessagePoolThreadCache?[] pools = caches.Pools;
        if (pools.Length <= _id)
        {
            Array.Resize(ref pools, Math.Max(_id + 1, pools.Length * 2));
            caches.Pools = pools;
        }

        // A cache in the slot is the one of a pool that had this id and is gone; so may others be. This thread owns
        // them all, so frees them here: a thread that uses pools made and dropped keeps none of their buffers past
        // its next new cache. Rare (a thread's first use of a pool), so a walk of its slots costs nothing that counts.
        FreeGonePoolsCaches(pools);
        var cache = new MessagePoolThreadCache(_serial);
        lock (_threadCaches)
        {
            PruneEndedThreads();
            _threadCaches.Add(cache);
        }

        pools[_id] = cache;
        return cache;
    }

    /// <summary>Frees and forgets the calling thread's caches of pools that are gone (their slot's pool has another serial or none).</summary>
    private static void FreeGonePoolsCaches(MessagePoolThreadCache?[] pools)
    {
        List<MessagePoolThreadCache>? gone = null;
        lock (s_idLock)
        {
            for (int id = 0; id < pools.Length; id++)
            {
                // A slot holds a cache only for an id some pool was given, which s_liveSerials covers.
                if (pools[id] is { } cache && cache.PoolSerial != s_liveSerials[id])
                {
                    (gone ??= []).Add(cache);
                    pools[id] = null;
                }
            }
        }

        // Freed outside the lock, which pool constructors and finalizers take: a serial never becomes live again.
        gone?.ForEach(static cache => cache.FreeAll());
    }

    /// <summary>
    /// Under the lock of <see cref="_threadCaches"/>: folds the counters of caches whose threads have ended into the
    /// pool's own and frees their buffers (nothing can touch those caches any more), so the list does not grow with
    /// thread churn. Done whenever a thread first uses this pool.
    /// </summary>
    private void PruneEndedThreads()
    {
        for (int i = _threadCaches.Count - 1; i >= 0; i--)
        {
            MessagePoolThreadCache cache = _threadCaches[i];
            if (cache.Owner.IsAlive)
            {
                continue;
            }

            Interlocked.Add(ref _rents, Volatile.Read(ref cache.Rents));
            Interlocked.Add(ref _returns, Volatile.Read(ref cache.Returns));
            cache.FreeAll();
            _threadCaches.RemoveAt(i);
        }
    }
}
