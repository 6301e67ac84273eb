using System.Runtime.InteropServices;

namespace Managed.Zmq.Inproc;

/// <summary>
/// The sending side of an <see cref="InprocChannel"/>: how much of the current chunk is used, where
/// the unit being written began and whether one is open, and the receiver's consumed count as last read. Written for every frame by the sender only, so it
/// is padded to cache lines of its own, away from what the receiver writes.
/// </summary>
[StructLayout(LayoutKind.Explicit, Size = 144)]
internal sealed class InprocSendSlot
{
    /// <summary>Bytes used in the sender's current chunk.</summary>
    [FieldOffset(64)]
    public int ChunkUsed;

    /// <summary>The receiver's consumed message count as the sender last read it.</summary>
    [FieldOffset(72)]
    public long KnownConsumed;

    /// <summary>Where in its chunk the unit being written began (valid while <see cref="UnitOpen"/>).</summary>
    [FieldOffset(80)]
    public int UnitStart;

    /// <summary>Whether a unit has frames written and is not yet committed.</summary>
    [FieldOffset(84)]
    public bool UnitOpen;

    /// <summary>Octets written so far (statistics: a plain store by the sender, read racily by GetPeers).</summary>
    [FieldOffset(88)]
    public long Bytes;
}
