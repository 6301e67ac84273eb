namespace Managed.Zmq.Core;

/// <summary>
/// Builds a <see cref="PeerInfo"/> from a pipe without stopping its traffic: every counter it reads is a
/// plain field written by one thread (see <see cref="FrameQueue"/> and <see cref="InprocChannel"/>), read
/// here racily, so the figures are approximate while messages flow. Socket (user) thread.
/// </summary>
internal static class PeerSnapshot
{
    /// <summary>The pipe's peer now, or null when no connection serves the pipe (a connect waiting to reconnect).</summary>
    public static PeerInfo? Take(Pipe pipe, bool routingIds)
    {
        if (pipe.IsTerminated || pipe.PeerGone || pipe.Connection is not { Dropped: false } connection)
        {
            return null;
        }

        var routingId = routingIds ? pipe.RoutingId : [];
        if (pipe.InprocOutbound is { } outbound)
        {
            if (pipe.Peer is null)
            {
                return null;
            }

            var inbound = pipe.InprocInbound!;
            long committedIn = inbound.CommittedMessages;
            long writtenOut = outbound.CommittedMessages;
            return new PeerInfo(pipe, connection)
            {
                RoutingId = routingId,
                MessagesReceived = committedIn,
                BytesReceived = inbound.WrittenBytes,
                MessagesSent = writtenOut,
                BytesSent = outbound.WrittenBytes,
                InboundQueuedMessages = Math.Max(0, committedIn - inbound.ConsumedMessages),
                InboundQueuedBytes = Math.Max(0, inbound.WrittenBytes - inbound.ConsumedBytes),
                OutboundQueuedMessages = Math.Max(0, writtenOut - outbound.ConsumedMessages),
                OutboundQueuedBytes = Math.Max(0, outbound.WrittenBytes - outbound.ConsumedBytes),
                MessagesDropped = pipe.MessagesDroppedAtHwm,
                SendHwm = pipe.SendHwm,
                ReceiveHwm = pipe.ReceiveHwm,
            };
        }

        if (pipe.Engine is not { } engine || !ReferenceEquals(engine.Connection, connection))
        {
            return null;
        }

        var queueIn = pipe.Inbound;
        var queueOut = pipe.Outbound;
        return new PeerInfo(pipe, connection)
        {
            RoutingId = routingId,
            MessagesReceived = Math.Max(0, queueIn.CommittedMessages - connection.MessagesReceivedBefore),
            BytesReceived = Math.Max(0, queueIn.CommittedBytes - connection.BytesReceivedBefore),
            MessagesSent = Math.Max(0, queueOut.ConsumedMessages - connection.MessagesSentBefore),
            BytesSent = Math.Max(0, queueOut.ConsumedBytes - connection.BytesSentBefore),
            InboundQueuedMessages = Math.Max(0, queueIn.QueuedMessages),
            InboundQueuedBytes = queueIn.QueuedBytes,
            OutboundQueuedMessages = Math.Max(0, queueOut.QueuedMessages),
            OutboundQueuedBytes = queueOut.QueuedBytes,
            MessagesDropped = Math.Max(0, pipe.MessagesDroppedAtHwm - connection.MessagesDroppedBefore),
            SendHwm = pipe.SendHwm,
            ReceiveHwm = pipe.ReceiveHwm,
        };
    }
}
