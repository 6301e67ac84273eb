using Managed.Zmq.Inproc;
using Managed.Zmq.Diagnostics;
using Managed.Zmq.Pipes;
using Managed.Zmq.Sockets;

namespace Managed.Zmq;

/// <summary>
/// Builds a <see cref="PeerInfo"/> from a pipe without stopping its traffic: every counter it reads is a
/// plain field written by one thread (see <see cref="Pipes.FrameQueue"/> and <see cref="Inproc.InprocChannel"/>), read
/// here racily, so the figures are approximate while messages flow. Socket (user) thread.
/// </summary>
internal static class PeerSnapshot
{
    /// <summary>The pipe's peer now, or null when no connection serves the pipe (a connect waiting to reconnect).</summary>
    /// <param name="pipe">The pipe.</param>
    /// <param name="routingIds">ROUTER and STREAM: the pipe's routing id bytes go in <see cref="PeerInfo.RoutingId"/>.</param>
    /// <param name="messageRoutingId">SERVER and PEER: the id the pattern gave the pipe (0 for other types).</param>
    public static PeerInfo? Take(Pipe pipe, bool routingIds, uint messageRoutingId)
    {
        if (pipe.IsTerminated || pipe.PeerGone || pipe.Connection is not { Dropped: false } connection)
        {
            return null;
        }

        if (pipe is InprocPipe inproc ? inproc.Peer is null
            : pipe.Engine is not { } engine || !ReferenceEquals(engine.Connection, connection))
        {
            return null;
        }

        // The pipe's totals since it was made, less what earlier connections of a reconnecting pipe
        // carried (an inproc connection's starting counts are all 0).
        var totals = default(PipeTotals);
        PipeCounting.Add(ref totals, pipe, depths: true);
        return new PeerInfo(pipe, connection)
        {
            RoutingId = routingIds ? pipe.RoutingId : [],
            MessageRoutingId = messageRoutingId,
            MessagesReceived = Math.Max(0, totals.MessagesReceived - connection.MessagesReceivedBefore),
            BytesReceived = Math.Max(0, totals.BytesReceived - connection.BytesReceivedBefore),
            MessagesSent = Math.Max(0, totals.MessagesSent - connection.MessagesSentBefore),
            BytesSent = Math.Max(0, totals.BytesSent - connection.BytesSentBefore),
            InboundQueuedMessages = totals.InboundMessages,
            InboundQueuedBytes = totals.InboundBytes,
            OutboundQueuedMessages = totals.OutboundMessages,
            OutboundQueuedBytes = totals.OutboundBytes,
            MessagesDropped = Math.Max(0, totals.MessagesDropped - connection.MessagesDroppedBefore),
            SendHwm = pipe.SendHwm,
            ReceiveHwm = pipe.ReceiveHwm,
        };
    }
}
