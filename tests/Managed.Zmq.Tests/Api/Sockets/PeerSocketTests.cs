using Managed.Zmq.Tests.Support;

namespace Managed.Zmq.Tests.Api.Sockets;

/// <summary>
/// PEER (RFC 51, libzmq's draft ZMQ_PEER): SERVER's routing on a socket that connects too, with
/// <see cref="Socket.ConnectPeer"/> handing back the new peer's routing id at once, as libzmq's zmq_connect_peer does.
/// Every transport: the id exists before the connection, so it does not depend on how the connection is made.
/// </summary>
public sealed class PeerSocketTests : IDisposable
{
    /// <summary>Send and receive timeout of the test sockets: reached only when a test fails.</summary>
    private const int Timeout = 10_000;

    private readonly Context _context = new();
    private readonly List<Socket> _sockets = [];

    [Theory]
    [TransportCases(Transport.Tcp, Transport.Ipc, Transport.Inproc, Transport.Ws)]
    public void ConnectPeer_ReturnedId_CarriedByEveryMessageFromThatPeer(Transport transport)
    {
        var bound = Create(SocketType.Peer);
        string endpoint = TestEndpoint.Bind(bound, transport, "peer");
        var connecting = Create(SocketType.Peer);

        uint boundId = connecting.ConnectPeer(endpoint);
        Assert.NotEqual(0u, boundId);

        // The bound side learns the connecting side's id from its first message, as a SERVER does.
        Send(connecting, boundId, "hello");
        using var received = new Message();
        bound.Recv(received);
        Assert.Equal("hello", received.ToString());
        uint connectingId = received.RoutingId;
        Assert.NotEqual(0u, connectingId);

        for (int i = 0; i < 3; i++)
        {
            Send(bound, connectingId, $"reply {i}");
            connecting.Recv(received);
            Assert.Equal($"reply {i}", received.ToString());
            Assert.Equal(boundId, received.RoutingId);
            Assert.False(received.More);
        }
    }

    [Theory]
    [TransportCases(Transport.Tcp, Transport.Ipc, Transport.Inproc, Transport.Ws)]
    public void Send_ToConnectPeerIdBeforeThePeerExists_QueuedThenDelivered(Transport transport)
    {
        var connecting = Create(SocketType.Peer);
        string endpoint = TestEndpoint.Unbound(transport, "peer-early");

        uint id = connecting.ConnectPeer(endpoint);
        using (var early = new Message("early"))
        {
            // libzmq: the connect's pipe exists at once (Immediate 0), so the send is queued, not EHOSTUNREACH or EAGAIN.
            early.RoutingId = id;
            connecting.Send(early, SendFlags.DontWait);
        }

        var bound = Create(SocketType.Peer);
        bound.Bind(endpoint);
        using var received = new Message();
        bound.Recv(received);

        Assert.Equal("early", received.ToString());
        Send(bound, received.RoutingId, "late");
        connecting.Recv(received);
        Assert.Equal("late", received.ToString());
        Assert.Equal(id, received.RoutingId);
    }

    [Theory]
    [TransportCases(Transport.Tcp, Transport.Ipc, Transport.Inproc, Transport.Ws)]
    public void ConnectPeer_TwoPeersEachConnectingToTheOther_BothWaysByReturnedIds(Transport transport)
    {
        var first = Create(SocketType.Peer);
        var second = Create(SocketType.Peer);
        string firstEndpoint = TestEndpoint.Bind(first, transport, "peer-a");
        string secondEndpoint = TestEndpoint.Bind(second, transport, "peer-b");

        uint secondFromFirst = first.ConnectPeer(secondEndpoint);
        uint firstFromSecond = second.ConnectPeer(firstEndpoint);
        Assert.NotEqual(0u, secondFromFirst);
        Assert.NotEqual(0u, firstFromSecond);

        using var received = new Message();
        for (int i = 0; i < 3; i++)
        {
            Send(first, secondFromFirst, $"a->b {i}");
            Send(second, firstFromSecond, $"b->a {i}");

            second.Recv(received);
            Assert.Equal($"a->b {i}", received.ToString());
            uint firstAccepted = received.RoutingId;
            first.Recv(received);
            Assert.Equal($"b->a {i}", received.ToString());
            uint secondAccepted = received.RoutingId;

            // Each message came in over the connection the other side made, so it carries the id of the accepted
            // pipe; answering that id reaches the sender too.
            Send(second, firstAccepted, $"ack b {i}");
            Send(first, secondAccepted, $"ack a {i}");
            first.Recv(received);
            Assert.Equal($"ack b {i}", received.ToString());
            Assert.Equal(secondFromFirst, received.RoutingId);
            second.Recv(received);
            Assert.Equal($"ack a {i}", received.ToString());
            Assert.Equal(firstFromSecond, received.RoutingId);
        }
    }

    [Theory]
    [TransportCases]
    public void ConnectPeer_SeveralConnects_DistinctNonZeroIds(Transport transport)
    {
        var a = Create(SocketType.Peer);
        var b = Create(SocketType.Peer);
        var connecting = Create(SocketType.Peer);
        uint toA = connecting.ConnectPeer(TestEndpoint.Bind(a, transport, "peer-multi"));
        uint toB = connecting.ConnectPeer(TestEndpoint.Bind(b, transport, "peer-multi"));

        Assert.NotEqual(0u, toA);
        Assert.NotEqual(0u, toB);
        Assert.NotEqual(toA, toB);
        Send(connecting, toB, "for b");
        Send(connecting, toA, "for a");
        Assert.Equal("for a", a.RecvString());
        Assert.Equal("for b", b.RecvString());
    }

    [Theory]
    [TransportCases]
    public void Send_UnknownRoutingId_ThrowsEhostunreach(Transport transport)
    {
        var bound = Create(SocketType.Peer);
        var connecting = Create(SocketType.Peer);
        uint id = connecting.ConnectPeer(TestEndpoint.Bind(bound, transport, "peer-unknown"));

        using var lost = new Message("lost");
        lost.RoutingId = id + 1;

        AssertZmqError(ZmqConstants.EHOSTUNREACH, () => connecting.Send(lost));

        // A span carries no routing id (0), which libzmq's PEER fails the same way.
        AssertZmqError(ZmqConstants.EHOSTUNREACH, () => connecting.Send("nobody"u8));
    }

    [Theory]
    [TransportCases]
    public void Send_SendMore_ThrowsEinvalAndNextSingleArrives(Transport transport)
    {
        var bound = Create(SocketType.Peer);
        var connecting = Create(SocketType.Peer);
        uint id = connecting.ConnectPeer(TestEndpoint.Bind(bound, transport, "peer-more"));

        using (var part = new Message("part"))
        {
            part.RoutingId = id;
            AssertZmqError(ZmqConstants.EINVAL, () => connecting.Send(part, SendFlags.SendMore));
        }

        Send(connecting, id, "whole");
        Assert.Equal("whole", bound.RecvString());
        Assert.False(bound.HasMore);
    }

    [Theory]
    [TransportCases]
    public void Disconnect_AfterConnectPeer_IdNoLongerRoutable(Transport transport)
    {
        var bound = Create(SocketType.Peer);
        var connecting = Create(SocketType.Peer);
        string endpoint = TestEndpoint.Bind(bound, transport, "peer-disconnect");
        uint id = connecting.ConnectPeer(endpoint);
        Send(connecting, id, "before");
        Assert.Equal("before", bound.RecvString());

        connecting.Disconnect(endpoint);

        using var after = new Message("after");
        after.RoutingId = id;
        AssertZmqError(ZmqConstants.EHOSTUNREACH, () => connecting.Send(after));
    }

    [Theory]
    [InlineData(SocketType.Server)]
    [InlineData(SocketType.Client)]
    [InlineData(SocketType.Dealer)]
    [InlineData(SocketType.Router)]
    [InlineData(SocketType.Pair)]
    public void ConnectPeer_NotAPeerSocket_ThrowsEnotsupAndConnectsNothing(SocketType type)
    {
        var socket = Create(type);
        string endpoint = TestEndpoint.Inproc("peer-enotsup");

        AssertZmqError(ZmqConstants.ENOTSUP, () => socket.ConnectPeer(endpoint));

        // libzmq checks the type before connecting: nothing was connected, so there is nothing to disconnect.
        AssertZmqError(ZmqConstants.ENOENT, () => socket.Disconnect(endpoint));
    }

    [Fact]
    public void ConnectPeer_ImmediateOn_ThrowsEfault()
    {
        var socket = Create(SocketType.Peer);
        socket.SetOption(SocketOption.Immediate, 1);
        string endpoint = TestEndpoint.Inproc("peer-efault");

        AssertZmqError(ZmqConstants.EFAULT, () => socket.ConnectPeer(endpoint));
        AssertZmqError(ZmqConstants.ENOENT, () => socket.Disconnect(endpoint));
    }

    [Fact]
    public void ConnectPeer_BadEndpoint_ThrowsConnectsErrors()
    {
        var socket = Create(SocketType.Peer);

        AssertZmqError(ZmqConstants.EPROTONOSUPPORT, () => socket.ConnectPeer("pgm://127.0.0.1:5555"));
        AssertZmqError(ZmqConstants.EINVAL, () => socket.ConnectPeer("tcp://127.0.0.1"));
        Assert.Throws<ArgumentNullException>(() => socket.ConnectPeer(null!));
    }

    [Fact]
    public void ConnectPeer_Disposed_ThrowsObjectDisposed()
    {
        var socket = Create(SocketType.Peer);
        socket.Dispose();

        Assert.Throws<ObjectDisposedException>(() => socket.ConnectPeer(TestEndpoint.Inproc("peer-disposed")));
    }

    [Fact]
    public void SocketType_Peer_HasLibzmqNumberAndIsThreadSafe()
    {
        // zmq.h's draft section: ZMQ_PEER 19.
        Assert.Equal(19, (int)SocketType.Peer);
        var socket = Create(SocketType.Peer);
        Assert.Equal(1, socket.GetOption<int>(SocketOption.Thread_Safe));
        Assert.Equal(19, socket.GetOption<int>(SocketOption.Type));
    }

    [Theory]
    [InlineData(SocketType.Server)]
    [InlineData(SocketType.Client)]
    [InlineData(SocketType.Dealer)]
    [InlineData(SocketType.Router)]
    [InlineData(SocketType.Pub)]
    public void Connect_PeerToIncompatibleBinder_ClosedAndIdIsDropped(SocketType bound)
    {
        var binder = Create(bound);
        binder.Bind("tcp://127.0.0.1:*");
        var peer = Create(SocketType.Peer);
        using var monitor = MonitorProbe.Attach(_context, peer);

        uint id = peer.ConnectPeer(binder.GetOptionString(SocketOption.Last_Endpoint));

        monitor.AssertClosedWithoutHandshakeEvent();

        // libzmq ends a connect refused for a protocol error with its pipe (no retry), so the id goes with it.
        Eventually.True(() => !TrySend(peer, id, "refused", out int error) && error == ZmqConstants.EHOSTUNREACH, "the refused peer's id is dropped");
    }

    [Theory]
    [InlineData("tcp://127.0.0.1:*", SocketType.Server)]
    [InlineData("tcp://127.0.0.1:*", SocketType.Client)]
    [InlineData("tcp://127.0.0.1:*", SocketType.Dealer)]
    [InlineData("ipc://*", SocketType.Client)]
    [InlineData("ipc://*", SocketType.Router)]
    public void Bind_PeerRefusesIncompatibleConnecter_ClosedWithoutHandshakeEvent(string endpoint, SocketType connecting)
    {
        var peer = Create(SocketType.Peer);
        using var monitor = MonitorProbe.Attach(_context, peer);
        peer.Bind(endpoint);
        var other = Create(connecting);

        other.Connect(peer.GetOptionString(SocketOption.Last_Endpoint));

        monitor.AssertClosedWithoutHandshakeEvent();
    }

    [Theory]
    [InlineData("tcp://127.0.0.1:*")]
    [InlineData("ipc://*")]
    public void Connect_PeerToPeer_HandshakeSucceeds(string endpoint)
    {
        var bound = Create(SocketType.Peer);
        using var monitor = MonitorProbe.Attach(_context, bound);
        bound.Bind(endpoint);
        var connecting = Create(SocketType.Peer);

        connecting.ConnectPeer(bound.GetOptionString(SocketOption.Last_Endpoint));

        Assert.Equal(MonitorProbe.HandshakeSucceeded, (int)monitor.WaitFor(MonitorProbe.HandshakeSucceeded).Event);
    }

    private static void Send(Socket socket, uint routingId, string text)
    {
        using var message = new Message(text);
        message.RoutingId = routingId;
        socket.Send(message);
    }

    private static bool TrySend(Socket socket, uint routingId, string text, out int error)
    {
        using var message = new Message(text);
        message.RoutingId = routingId;
        try
        {
            socket.Send(message, SendFlags.DontWait);
            error = 0;
            return true;
        }
        catch (ZmqException ex)
        {
            error = ex.ErrorNumber;
            return false;
        }
    }

    private static void AssertZmqError(int expected, Action action)
    {
        var ex = Assert.Throws<ZmqException>(action);
        Assert.Equal(expected, ex.ErrorNumber);
    }

    private Socket Create(SocketType type)
    {
        var socket = new Socket(_context, type);
        _sockets.Add(socket);
        socket.SetOption(SocketOption.Linger, 0);
        socket.SetOption(SocketOption.Rcvtimeo, Timeout);
        socket.SetOption(SocketOption.Sndtimeo, Timeout);
        return socket;
    }

    public void Dispose()
    {
        foreach (var socket in _sockets)
        {
            socket.Dispose();
        }

        _context.Dispose();
    }
}
