using System.Runtime.InteropServices;

namespace Managed.Zmq.Inproc;

/// <summary>
/// Two counters written by one thread and read by another, padded to a cache line of their own so
/// that their writer's stores do not evict the lines the other thread is writing (false sharing).
/// </summary>
[StructLayout(LayoutKind.Explicit, Size = 128)]
internal sealed class PaddedCounters
{
    [FieldOffset(64)]
    public long Units;

    [FieldOffset(72)]
    public long Messages;

    /// <summary>A flag the other side sets once and the owner reads often, kept on the owner's line.</summary>
    [FieldOffset(80)]
    public int Flag;
}
