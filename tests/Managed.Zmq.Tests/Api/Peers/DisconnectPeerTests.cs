using System.Text;
using Managed.Zmq.Tests.Support;

namespace Managed.Zmq.Tests.Api.Peers;

/// <summary>
/// <see cref="Socket.DisconnectPeer(PeerInfo)"/> and its routing-id form: one connection ends as a network
/// fault would end it (DISCONNECTED on the monitor, the connecting side reconnects), the others go on; bad
/// arguments get libzmq-style errnos.
/// </summary>
public sealed class DisconnectPeerTests : TransportSockets
{
    private (Socket Router, Socket Dealer, string Endpoint) Connected(string bindEndpoint, string id = "cid")
    {
        var router = Create(SocketType.Router);
        router.Bind(bindEndpoint);
        string endpoint = router.GetOptionString(SocketOption.Last_Endpoint);
        var dealer = Create(SocketType.Dealer);
        dealer.SetOption(SocketOption.Routing_Id, id);
        dealer.Connect(endpoint);
        dealer.Send("hello");
        Assert.Equal([id, "hello"], RecvMessage(router));
        return (router, dealer, endpoint);
    }

    [Fact]
    public void DisconnectPeer_RouterDropsTcpDealer_DisconnectedThenDealerReconnects()
    {
        var (router, dealer, _) = Connected("tcp://127.0.0.1:*");
        using var routerEvents = MonitorProbe.Attach(Context, router);
        using var dealerEvents = MonitorProbe.Attach(Context, dealer);
        var peer = Assert.Single(router.GetPeers());

        router.DisconnectPeer(peer);

        routerEvents.WaitFor(SocketMonitorEvent.Disconnected);
        dealerEvents.WaitFor(SocketMonitorEvent.Disconnected);
        dealerEvents.WaitFor(SocketMonitorEvent.Connected);
        dealer.Send("again");
        Assert.Equal(["cid", "again"], RecvMessage(router));
        var reconnected = Assert.Single(router.GetPeers());
        Assert.NotEqual(peer.RemoteEndpoint, reconnected.RemoteEndpoint);
        Assert.Equal(1, reconnected.MessagesReceived);
    }

    [Fact]
    public void DisconnectPeer_ByRoutingId_DropsOnlyThatPeer()
    {
        var (router, dealer, endpoint) = Connected("tcp://127.0.0.1:*");
        var other = Create(SocketType.Dealer);
        other.SetOption(SocketOption.Routing_Id, "other");
        other.Connect(endpoint);
        other.Send("hi");
        Assert.Equal(["other", "hi"], RecvMessage(router));
        using var otherEvents = MonitorProbe.Attach(Context, other);
        using var dealerEvents = MonitorProbe.Attach(Context, dealer);
        var before = router.GetPeers();
        string cidRemote = before.Single(p => p.RoutingId.Span.SequenceEqual("cid"u8)).RemoteEndpoint;
        string otherRemote = before.Single(p => p.RoutingId.Span.SequenceEqual("other"u8)).RemoteEndpoint;

        router.DisconnectPeer("cid"u8);

        var after = Assert.Single(router.GetPeers());
        Assert.Equal(otherRemote, after.RemoteEndpoint);
        dealerEvents.WaitFor(SocketMonitorEvent.Disconnected);
        dealerEvents.WaitFor(SocketMonitorEvent.Connected);
        dealer.Send("back");
        Assert.Equal(["cid", "back"], RecvMessage(router));
        Assert.DoesNotContain(router.GetPeers(), p => p.RemoteEndpoint == cidRemote);
        other.Send("still");
        Assert.Equal(["other", "still"], RecvMessage(router));
        Assert.Equal(0, otherEvents.Count(SocketMonitorEvent.Disconnected));
    }

    [Fact]
    public void DisconnectPeer_DealerDropsItsConnection_ReconnectsAndQueueSurvives()
    {
        var (router, dealer, _) = Connected("tcp://127.0.0.1:*");
        using var dealerEvents = MonitorProbe.Attach(Context, dealer);

        dealer.DisconnectPeer(Assert.Single(dealer.GetPeers()));

        dealerEvents.WaitFor(SocketMonitorEvent.Disconnected);
        dealerEvents.WaitFor(SocketMonitorEvent.Connected);
        dealer.Send("after");
        Assert.Equal(["cid", "after"], RecvMessage(router));
    }

    [Fact]
    public void DisconnectPeer_Inproc_Unlinks()
    {
        var (router, dealer, _) = Connected(TestEndpoint.Inproc("drop"));

        router.DisconnectPeer(Assert.Single(router.GetPeers()));

        Assert.Empty(router.GetPeers());
        Eventually.True(() => dealer.GetPeers().Count == 0, "the dealer saw the router's side go");
    }

    [Fact]
    public void DisconnectPeer_StaleSnapshot_Ehostunreach()
    {
        var (router, _, _) = Connected("tcp://127.0.0.1:*");
        var peer = Assert.Single(router.GetPeers());
        router.DisconnectPeer(peer);

        AssertZmqError(ZmqConstants.EHOSTUNREACH, () => router.DisconnectPeer(peer));
    }

    [Fact]
    public void DisconnectPeer_AnotherSocketsPeer_Einval()
    {
        var (router, dealer, _) = Connected("tcp://127.0.0.1:*");
        var dealerSide = Assert.Single(dealer.GetPeers());

        AssertZmqError(ZmqConstants.EINVAL, () => router.DisconnectPeer(dealerSide));
    }

    [Fact]
    public void DisconnectPeer_UnknownRoutingId_Ehostunreach()
    {
        var (router, _, _) = Connected("tcp://127.0.0.1:*");

        AssertZmqError(ZmqConstants.EHOSTUNREACH, () => router.DisconnectPeer("nobody"u8));
        Assert.Single(router.GetPeers());
    }

    [Fact]
    public void DisconnectPeer_RoutingIdOnDealer_Enotsup()
    {
        var (_, dealer, _) = Connected("tcp://127.0.0.1:*");

        AssertZmqError(ZmqConstants.ENOTSUP, () => dealer.DisconnectPeer(Encoding.ASCII.GetBytes("cid")));
    }

    [Fact]
    public void DisconnectPeer_StreamByRoutingId_ClosesTheRawConnection()
    {
        var stream = Create(SocketType.Stream);
        stream.Bind("tcp://127.0.0.1:*");
        string endpoint = stream.GetOptionString(SocketOption.Last_Endpoint);
        using var client = new System.Net.Sockets.TcpClient();
        client.Connect(System.Net.IPAddress.Loopback, RawPeer.PortOf(endpoint));
        using var connect = new Message();
        stream.Recv(connect);
        byte[] id = connect.ToArray();
        Assert.Empty(stream.RecvBytes());

        stream.DisconnectPeer(id);

        client.ReceiveTimeout = Timeout;
        Assert.Equal(0, client.GetStream().Read(new byte[16]));
    }
}
