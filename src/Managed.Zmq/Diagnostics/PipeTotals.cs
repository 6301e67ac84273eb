
using Managed.Zmq.Inproc;
using Managed.Zmq.Buffers;
using Managed.Zmq.Options;
using Managed.Zmq.Pipes;
using Managed.Zmq.Security.Zap;

namespace Managed.Zmq.Diagnostics;

/// <summary>
/// What went through pipes, summed: read from the counters each queue already keeps (see
/// <see cref="Pipes.FrameQueue"/>, <see cref="Inproc.InprocChannel"/>), racily, so a sum is approximate while traffic flows.
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

    /// <summary>Adds <paramref name="pipe"/>'s counts since it was made; with <paramref name="depths"/>, its queue depths too.</summary>
    public void Add(Pipe pipe, bool depths)
    {
        MessagesDropped += Volatile.Read(ref pipe.MessagesDroppedAtHwm);
        if (pipe is InprocPipe inproc)
        {
            var outbound = inproc.InprocOutbound;
            var inbound = inproc.InprocInbound;
            long sent = outbound.CommittedMessages;
            long received = inbound.CommittedMessages;
            MessagesSent += sent;
            BytesSent += outbound.WrittenBytes;
            MessagesReceived += received;
            BytesReceived += inbound.WrittenBytes;
            if (depths)
            {
                InboundMessages += Math.Max(0, received - inbound.ConsumedMessages);
                InboundBytes += Math.Max(0, inbound.WrittenBytes - inbound.ConsumedBytes);
                OutboundMessages += Math.Max(0, sent - outbound.ConsumedMessages);
                OutboundBytes += Math.Max(0, outbound.WrittenBytes - outbound.ConsumedBytes);
            }

            return;
        }

        var stream = (StreamPipe)pipe;
        var queueIn = stream.Inbound;
        var queueOut = stream.Outbound;
        MessagesSent += queueOut.ConsumedMessages;
        BytesSent += queueOut.ConsumedBytes;
        MessagesReceived += queueIn.CommittedMessages;
        BytesReceived += queueIn.CommittedBytes;
        if (depths)
        {
            InboundMessages += Math.Max(0, queueIn.QueuedMessages);
            InboundBytes += queueIn.QueuedBytes;
            OutboundMessages += Math.Max(0, queueOut.QueuedMessages);
            OutboundBytes += queueOut.QueuedBytes;
        }
    }

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
