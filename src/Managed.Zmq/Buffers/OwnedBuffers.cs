using System.Runtime.CompilerServices;
using Managed.Zmq.Internal;

namespace Managed.Zmq.Buffers;

/// <summary>
/// Where the native buffer a Message owns comes from (its own content, as opposed to a rented or lent buffer or caller
/// memory): one a pool can hold (up to <see cref="Tuning.Frames.PooledOwnedUpTo"/>) from a pool of the library's own,
/// through the calling thread's cache, a larger one from the native allocator. Both have the frame headroom in front
/// (<see cref="FrameHeadroom"/>).
/// </summary>
/// <remarks>
/// <para>A Message created per send (<c>new Message(size)</c>, from a span or a string) used to cost a native
/// allocation and a free, each a P/Invoke, on top of the copy into the queue; it now takes a buffer from a thread
/// cache and gives it back the same way (docs/ARCHITECTURE.md section 4). A large buffer, sent by reference and
/// released on an I/O thread, goes back to the shared level of the pool, where the sending thread's next rent finds
/// it; from the allocator, such buffers cost page faults in some processes. The pool keeps at most its level-2 caps
/// of each size, as the engine's other private pools do.</para>
/// <para>The pool is private: <see cref="MessagePool.Shared"/>'s statistics do not see these buffers. Which way a
/// buffer came is read back from its capacity, which the owner keeps: a pooled buffer's capacity is its bucket's,
/// never above <see cref="Tuning.Frames.PooledOwnedUpTo"/>; an allocated one's is the size asked, always above.</para>
/// </remarks>
internal static unsafe class OwnedBuffers
{
    private static readonly BufferPool s_pool = CreatePool();

    /// <summary>A pool with the default caps, lowered to <see cref="Tuning.Frames.OwnedPoolBytesPerSize"/> per size.</summary>
    private static BufferPool CreatePool()
    {
        var pool = new BufferPool();
        for (int index = 0; index < BufferPool.BucketCount; index++)
        {
            int budget = Math.Max(2, Tuning.Frames.OwnedPoolBytesPerSize / BufferPool.GetBucketCapacity(index));
            pool.SetMaxBuffers(index, Math.Min(pool.GetMaxBuffers(index), budget));
        }

        return pool;
    }

    /// <summary>
    /// A buffer of at least <paramref name="size"/> (positive) bytes, and its <paramref name="capacity"/>.
    /// <paramref name="caches"/> are the calling thread's when the caller has read them already (null: read here), so
    /// a message's constructor pays one thread-static read, not two.
    /// </summary>
    public static byte* Allocate(int size, out int capacity, ThreadCaches? caches = null)
    {
        if (size <= Tuning.Frames.PooledOwnedUpTo)
        {
            nint buffer = s_pool.RentBuffer(size, out int bucket, caches ?? ThreadCaches.Current);
            capacity = BufferPool.GetBucketCapacity(bucket);
            return (byte*)buffer;
        }

        capacity = size;
        return AllocateNative(size);
    }

    /// <summary>Releases a buffer from <see cref="Allocate"/>, given the capacity it came with; <paramref name="caches"/> as there.</summary>
    public static void Free(byte* buffer, int capacity, ThreadCaches? caches = null)
    {
        if (capacity <= Tuning.Frames.PooledOwnedUpTo)
        {
            s_pool.ReturnBuffer(BufferPool.GetBucketIndex(capacity), (nint)buffer, caches ?? ThreadCaches.Current);
            return;
        }

        FreeNative(buffer);
    }

    /// <summary>The cap on idle buffers of bucket <paramref name="index"/> in the pool's shared level.</summary>
    internal static int GetMaxIdle(int index) => s_pool.GetMaxBuffers(index);

    /// <summary>Idle buffers of bucket <paramref name="index"/> in the pool's shared level now.</summary>
    internal static int IdleCount(int index) => s_pool.LevelTwoCount(index);

    /// <summary>
    /// Out of line, as is <see cref="FreeNative"/>: a P/Invoke (NativeMemory) inlined into a method makes its prologue
    /// set up a P/Invoke frame on every call, whichever path it takes.
    /// </summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    private static byte* AllocateNative(int size) => FrameHeadroom.AllocateOwned(size);

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static void FreeNative(byte* buffer) => FrameHeadroom.FreeOwned(buffer);
}
