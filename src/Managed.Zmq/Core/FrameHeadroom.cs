using System.Runtime.InteropServices;

namespace Managed.Zmq.Core;

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
    /// Zero-copy caller memory has no headroom, so a frame sent from it by reference costs the write loop a second
    /// system call (and a segment of its own) for the header. Below this size copying the body into a pooled buffer
    /// with headroom, once per tcp or ipc connection, costs less than that call; the copy is made inside Send, so the
    /// free callback is due as soon as Send returns. From this size the frame goes out from the caller's memory, and
    /// over inproc it always travels by reference (no header, nothing to save). Break-even measured with the
    /// BufferStrategy benchmark (MessageZeroCopy against Message, see BENCHMARKS.md); at most
    /// <see cref="MessagePool.MaxBucketSize"/>, the largest pooled buffer.
    /// </summary>
    public const int CopyCallerMemoryBelow = 256 * 1024;

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
