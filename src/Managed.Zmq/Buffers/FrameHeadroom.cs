using System.Runtime.InteropServices;
using Managed.Zmq.Internal;

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

    /// <summary>Alignment of pool buffers' content.</summary>
    private const nuint PoolAlignment = 64;

    /// <summary>A buffer for a Message's own content, <paramref name="size"/> bytes after the headroom.</summary>
    public static byte* AllocateOwned(int size) => (byte*)NativeMemory.Alloc((nuint)size + Size) + Size;

    /// <summary>Frees a buffer from <see cref="AllocateOwned"/>.</summary>
    public static void FreeOwned(byte* content) => NativeMemory.Free(content - Size);

    /// <summary>
    /// Room kept behind a pool buffer from the large-frame size up: a stream's receive of a large frame's last bytes
    /// may run on into it and so take the next frame's header in the same system call.
    /// </summary>
    public const int Tailroom = Tuning.Engine.ReadAfterLargeFrame;

    /// <summary>The room behind a pool buffer of <paramref name="capacity"/> bytes: <see cref="Tailroom"/> for a large frame's, else none.</summary>
    public static int TailroomFor(int capacity) => capacity >= Tuning.Frames.LargeFrame ? Tailroom : 0;

    /// <summary>A pool buffer of <paramref name="capacity"/> bytes after the headroom, 64-byte aligned, with its <see cref="TailroomFor"/> behind.</summary>
    public static nint AllocatePooled(int capacity) =>
        (nint)((byte*)NativeMemory.AlignedAlloc((nuint)capacity + Size + (nuint)TailroomFor(capacity), PoolAlignment) + Size);

    /// <summary>Frees a buffer from <see cref="AllocatePooled"/>.</summary>
    public static void FreePooled(nint content) => NativeMemory.AlignedFree((byte*)content - Size);
}
