using System.Runtime.InteropServices;

namespace Managed.Zmq.Buffers;

/// <summary>
/// Room kept in front of every native buffer the library allocates for frame content (pool
/// buffers, a Message's own buffer): a large frame is sent from its own memory, and with its
/// header written just before the body, header and body leave in one system call instead of two
/// (RFC 23 §Framing: the header immediately precedes the body on the wire).
/// </summary>
internal static unsafe class FrameHeadroom
{
    /// <summary>Bytes before the content: a long frame header (9) with room to spare, and a multiple of the pool's 64-byte alignment.</summary>
    public const int Size = 64;

    /// <summary>
    /// The large-frame threshold, one value for both directions: from this size a Message is sent from its own memory
    /// rather than copied into the queue, and a received frame goes to a pooled buffer of its own.
    /// </summary>
    public const int LargeFrame = 32 * 1024;

    /// <summary>
    /// Zero-copy caller memory has no headroom, so a frame sent from it by reference costs the write loop a second
    /// system call for the header. Below this size each tcp or ipc pipe copies the body into a pooled buffer with
    /// headroom instead (one send), made inside Send, so the free callback is due as soon as Send returns; from it
    /// the frame goes out from the caller's memory. Over inproc a large frame always travels by reference (no header).
    /// Set at the large-frame threshold (<see cref="LargeFrame"/>, below which every frame is copied into the queue anyway), so nothing
    /// more is copied: measured with StrategyLoop (BENCHMARKS.md, the strategy table of the zero-copy leftovers), the copy cost more process CPU per
    /// message than the second send at every size measured above it. At most <see cref="MessagePool.MaxBucketSize"/>.
    /// </summary>
    public const int CopyCallerMemoryBelow = LargeFrame;

    /// <summary>Alignment of pool buffers' content.</summary>
    private const nuint PoolAlignment = 64;

    /// <summary>A buffer for a Message's own content, <paramref name="size"/> bytes after the headroom.</summary>
    public static byte* AllocateOwned(int size) => (byte*)NativeMemory.Alloc((nuint)size + Size) + Size;

    /// <summary>Frees a buffer from <see cref="AllocateOwned"/>.</summary>
    public static void FreeOwned(byte* content) => NativeMemory.Free(content - Size);

    /// <summary>A pool buffer of <paramref name="capacity"/> bytes after the headroom, 64-byte aligned.</summary>
    public static nint AllocatePooled(int capacity) => (nint)((byte*)NativeMemory.AlignedAlloc((nuint)capacity + Size, PoolAlignment) + Size);

    /// <summary>Frees a buffer from <see cref="AllocatePooled"/>.</summary>
    public static void FreePooled(nint content) => NativeMemory.AlignedFree((byte*)content - Size);
}
