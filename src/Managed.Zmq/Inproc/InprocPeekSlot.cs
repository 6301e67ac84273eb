using System.Runtime.InteropServices;

namespace Managed.Zmq.Inproc;

/// <summary>
/// The receiving side of an <see cref="InprocChannel"/>: the frame peeked and not yet consumed, where
/// the next frame's header starts, whether the receiver has gone, and the sender's committed count as
/// last read. Written for every frame by the receiver only, so it
/// is padded to cache lines of its own, away from what the sender writes.
/// </summary>
[StructLayout(LayoutKind.Explicit, Size = 176)]
internal sealed class InprocPeekSlot
{
    [FieldOffset(64)]
    public InprocFrame Frame;

    [FieldOffset(88)]
    public bool HasFrame;

    /// <summary>The sender's committed units as last read.</summary>
    [FieldOffset(96)]
    public long KnownCommitted;

    /// <summary>Where the next frame's header starts in the chunk being read.</summary>
    [FieldOffset(104)]
    public int ReadAt;

    /// <summary>Set by DiscardAll: the receiver is gone and reads nothing more.</summary>
    [FieldOffset(108)]
    public bool Discarded;

    /// <summary>Octets consumed so far (statistics: a plain store by the receiver, read racily by GetPeers).</summary>
    [FieldOffset(112)]
    public long Bytes;
}
