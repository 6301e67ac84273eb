using System.Runtime.CompilerServices;
using Managed.Zmq.Internal;

namespace Managed.Zmq.Buffers;

/// <summary>
/// Where the native buffer a Message owns comes from (its own content, as opposed to a rented or lent buffer or caller
/// memory): a small one from a pool of the library's own, through the calling thread's cache, a larger one from the
/// native allocator. Both have the frame headroom in front (<see cref="FrameHeadroom"/>).
/// </summary>
/// <remarks>
/// <para>A Message created per send (<c>new Message(size)</c>, from a span or a string) used to cost a native
/// allocation and a free, each a P/Invoke, on top of the copy into the queue; a small frame now takes a buffer from
/// a thread cache and gives it back the same way (docs/ARCHITECTURE.md section 4). Larger buffers gained nothing
/// from the pool when measured, and would hold more memory in it, so they stay with the allocator.</para>
/// <para>The pool is private: <see cref="MessagePool.Shared"/>'s statistics do not see these buffers. Which way a
/// buffer came is read back from its capacity, which the owner keeps: a pooled buffer's capacity is its bucket's,
/// never above <see cref="Tuning.Frames.PooledOwnedUpTo"/>; an allocated one's is the size asked, always above.</para>
/// </remarks>
internal static unsafe class OwnedBuffers
{
    private static readonly BufferPool s_pool = new();

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

    /// <summary>
    /// Out of line, as is <see cref="FreeNative"/>: a P/Invoke (NativeMemory) inlined into a method makes its prologue
    /// set up a P/Invoke frame on every call, whichever path it takes.
    /// </summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    private static byte* AllocateNative(int size) => FrameHeadroom.AllocateOwned(size);

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static void FreeNative(byte* buffer) => FrameHeadroom.FreeOwned(buffer);
}
