using Managed.Zmq.Diagnostics;
using Managed.Zmq.Inproc;
using Managed.Zmq.Pipes;

namespace Managed.Zmq.Sockets;

/// <summary>
/// Reads a pipe's counters into <see cref="PipeTotals"/>: from the counters each queue already keeps
/// (<see cref="FrameQueue"/>, <see cref="Inproc.InprocChannel"/>), racily, so a sum is approximate
/// while traffic flows. Here, above the pipes, so that Diagnostics needs no pipe type.
/// </summary>
internal static class PipeCounting
{
    /// <summary>Adds <paramref name="pipe"/>'s counts since it was made; with <paramref name="depths"/>, its queue depths too.</summary>
    public static void Add(ref PipeTotals totals, Pipe pipe, bool depths)
    {
        totals.MessagesDropped += Volatile.Read(ref pipe.MessagesDroppedAtHwm);
        if (pipe is InprocPipe inproc)
        {
            var outbound = inproc.InprocOutbound;
            var inbound = inproc.InprocInbound;
            long sent = outbound.CommittedMessages;
            long received = inbound.CommittedMessages;
            totals.MessagesSent += sent;
            totals.BytesSent += outbound.WrittenBytes;
            totals.MessagesReceived += received;
            totals.BytesReceived += inbound.WrittenBytes;
            if (depths)
            {
                totals.InboundMessages += Math.Max(0, received - inbound.ConsumedMessages);
                totals.InboundBytes += Math.Max(0, inbound.WrittenBytes - inbound.ConsumedBytes);
                totals.OutboundMessages += Math.Max(0, sent - outbound.ConsumedMessages);
                totals.OutboundBytes += Math.Max(0, outbound.WrittenBytes - outbound.ConsumedBytes);
            }

            return;
        }

        var stream = (StreamPipe)pipe;
        var queueIn = stream.Inbound;
        var queueOut = stream.Outbound;
        totals.MessagesSent += queueOut.ConsumedMessages;
        totals.BytesSent += queueOut.ConsumedBytes;
        totals.MessagesReceived += queueIn.CommittedMessages;
        totals.BytesReceived += queueIn.CommittedBytes;
        if (depths)
        {
            totals.InboundMessages += Math.Max(0, queueIn.QueuedMessages);
            totals.InboundBytes += queueIn.QueuedBytes;
            totals.OutboundMessages += Math.Max(0, queueOut.QueuedMessages);
            totals.OutboundBytes += queueOut.QueuedBytes;
        }
    }
}
