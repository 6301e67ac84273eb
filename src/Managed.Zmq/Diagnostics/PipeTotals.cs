using Managed.Zmq.Buffers;
using Managed.Zmq.Options;
using Managed.Zmq.Pipes;
using Managed.Zmq.Security.Zap;

namespace Managed.Zmq.Diagnostics;

/// <summary>
/// What went through pipes, summed: read from the counters each queue already keeps (by the socket
/// layer's <c>PipeCounting</c>), racily, so a sum is approximate while traffic flows.
/// </summary>
internal struct PipeTotals
{
    public long MessagesSent;
    public long MessagesReceived;
    public long BytesSent;
    public long BytesReceived;
    public long MessagesDropped;
    public long InboundMessages;
    public long InboundBytes;
    public long OutboundMessages;
    public long OutboundBytes;

    /// <summary>Adds the cumulative counts of <paramref name="other"/> (not its depths, which end with their pipes).</summary>
    public void AddCounts(in PipeTotals other)
    {
        MessagesSent += other.MessagesSent;
        MessagesReceived += other.MessagesReceived;
        BytesSent += other.BytesSent;
        BytesReceived += other.BytesReceived;
        MessagesDropped += other.MessagesDropped;
    }
}
