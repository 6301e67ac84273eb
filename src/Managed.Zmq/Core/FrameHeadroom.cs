using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;

namespace Managed.Zmq.Core;

/// <summary>
/// Room kept in front of every native buffer the library allocates for frame content (pool
/// buffers, a Message's own buffer): a large frame is sent from its own memory, and with its
/// header written just before the body, header and body leave in one system call instead of two
/// (RFC 23 §Framing: the header immediately precedes the body on the wire).
/// </summary>
/// <remarks>
/// Every member is kept out of line. NativeMemory's calls are P/Invokes, and a P/Invoke inlined into
/// a method makes that method set up a P/Invoke frame in its prologue on every call, taken path or
/// not: <c>Message.ReleaseContent</c>, whose usual path frees nothing, paid it on every send and
/// receive (7 % of the sender's samples at 1 KiB over ipc; <c>DOTNET_JitDisasm</c> shows
/// <c>CORINFO_HELP_INIT_PINVOKE_FRAME</c>). One call more on the path that does allocate or free
/// costs nothing next to malloc.
/// </remarks>
internal static unsafe class FrameHeadroom
{
    /// <summary>Bytes before the content: a long frame header (9) with room to spare, and a multiple of the pool's 64-byte alignment.</summary>
    public const int Size = 64;

    /// <summary>Alignment of pool buffers' content.</summary>
    private const nuint PoolAlignment = 64;

    /// <summary>A buffer for a Message's own content, <paramref name="size"/> bytes after the headroom.</summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    public static byte* AllocateOwned(int size) => (byte*)NativeMemory.Alloc((nuint)size + Size) + Size;

    /// <summary>Frees a buffer from <see cref="AllocateOwned"/>.</summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    public static void FreeOwned(byte* content) => NativeMemory.Free(content - Size);

    /// <summary>A pool buffer of <paramref name="capacity"/> bytes after the headroom, 64-byte aligned.</summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    public static nint AllocatePooled(int capacity) => (nint)((byte*)NativeMemory.AlignedAlloc((nuint)capacity + Size, PoolAlignment) + Size);

    /// <summary>Frees a buffer from <see cref="AllocatePooled"/>.</summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    public static void FreePooled(nint content) => NativeMemory.AlignedFree((byte*)content - Size);
}
