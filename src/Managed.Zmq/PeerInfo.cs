using Managed.Zmq.Pipes;

namespace Managed.Zmq;

/// <summary>
/// One connected peer of a socket as <see cref="Socket.GetPeers"/> saw it: who it is, how it connected,
/// how much went each way and how full its queues were. An immutable snapshot; pass it to
/// <see cref="Socket.DisconnectPeer(PeerInfo)"/> to drop that connection.
/// </summary>
/// <remarks>
/// <para>The counters are read while traffic flows, without stopping it: each is written by one thread
/// and read here without a lock, so a value may be up to one batch of messages old and two values of one
/// snapshot may be from slightly different moments. They are never torn (64-bit stores are atomic on
/// every platform .NET 10 runs on). Messages count whole messages; commands the pattern queues with them
/// (XPUB/XSUB subscriptions) may be counted among them.</para>
/// <para>Bytes count what the queues hold: over tcp and ipc the ZMTP encoding (frame headers included,
/// before any CURVE encryption); over inproc the frame bodies.</para>
/// </remarks>
public sealed class PeerInfo
{
    internal PeerInfo(Pipes.Pipe pipe, PeerConnection connection)
    {
        Pipe = pipe;
        Connection = connection;
    }

    internal Pipes.Pipe Pipe { get; }

    internal PeerConnection Connection { get; }

    /// <summary>Our end of the connection: <c>tcp://address:port</c>, <c>ipc://path</c> or <c>inproc://name</c> (empty when the OS names none, e.g. a connecting ipc socket).</summary>
    public string LocalEndpoint => Connection.LocalEndpoint;

    /// <summary>The peer's end of the connection, in the same form (empty when the OS names none, e.g. an accepted ipc connection).</summary>
    public string RemoteEndpoint => Connection.RemoteEndpoint;

    /// <summary>The routing id this socket knows the peer by (ROUTER, STREAM: announced or generated); empty for other patterns.</summary>
    public ReadOnlyMemory<byte> RoutingId { get; internal init; }

    /// <summary>
    /// SERVER and PEER: the routing id the socket gave this peer, the <see cref="Message.RoutingId"/> its messages
    /// arrive with and a message to it is sent with (for a connected PEER, what <see cref="Socket.ConnectPeer"/>
    /// returned); 0 for the other socket types.
    /// </summary>
    public uint MessageRoutingId { get; internal init; }

    /// <summary>The socket type the peer announced in its handshake; null when it announced none (a raw STREAM peer, an unversioned ZMTP 1.0 peer).</summary>
    public SocketType? PeerSocketType => Connection.PeerSocketType;

    /// <summary>The ZMTP version the peer greeted with (3.1, 3.0, 2.0, 1.0); null for inproc and raw STREAM connections.</summary>
    public Version? ZmtpVersion => Connection.ZmtpVersion;

    /// <summary>The security mechanism: <c>NULL</c>, <c>PLAIN</c> or <c>CURVE</c>; empty for inproc and raw STREAM connections and for ZMTP 1.0 and 2.0 peers, whose protocols have none.</summary>
    public string Mechanism => Connection.Mechanism;

    /// <summary>The user id the ZAP handler returned for this peer (the <c>User-Id</c> message property), or empty.</summary>
    public string UserId => Connection.UserId;

    /// <summary>When the connection completed its handshake (inproc: when the two sockets were linked).</summary>
    public DateTimeOffset ConnectedAt => Connection.ConnectedAt;

    /// <summary>Messages received from the peer over this connection (arrived in the inbound queue, read or not).</summary>
    public long MessagesReceived { get; internal init; }

    /// <summary>Bytes received from the peer over this connection (see remarks).</summary>
    public long BytesReceived { get; internal init; }

    /// <summary>Messages sent: handed to the OS over tcp and ipc, put in the peer's queue over inproc.</summary>
    public long MessagesSent { get; internal init; }

    /// <summary>Bytes sent (see remarks).</summary>
    public long BytesSent { get; internal init; }

    /// <summary>
    /// Messages the socket dropped because this peer's outbound queue was at <see cref="SendHwm"/> (PUB, XPUB, ROUTER
    /// without Router_Mandatory), over this connection. Always 0 for patterns that block instead.
    /// </summary>
    public long MessagesDropped { get; internal init; }

    /// <summary>Messages received and not yet read by the application.</summary>
    public long InboundQueuedMessages { get; internal init; }

    /// <summary>Bytes received and not yet read by the application.</summary>
    public long InboundQueuedBytes { get; internal init; }

    /// <summary>Messages queued to the peer and not yet sent. Sends to this peer block or drop (by pattern) when it reaches <see cref="SendHwm"/>.</summary>
    public long OutboundQueuedMessages { get; internal init; }

    /// <summary>Bytes queued to the peer and not yet sent.</summary>
    public long OutboundQueuedBytes { get; internal init; }

    /// <summary>The outbound queue's limit in messages (0: none). For inproc, the sender's SNDHWM plus the receiver's RCVHWM, as libzmq sums them.</summary>
    public int SendHwm { get; internal init; }

    /// <summary>The inbound queue's limit in messages (0: none).</summary>
    public int ReceiveHwm { get; internal init; }

    /// <inheritdoc/>
    public override string ToString() =>
        $"{RemoteEndpoint} {PeerSocketType} in {MessagesReceived} (queued {InboundQueuedMessages}/{ReceiveHwm}) out {MessagesSent} (queued {OutboundQueuedMessages}/{SendHwm})";
}
