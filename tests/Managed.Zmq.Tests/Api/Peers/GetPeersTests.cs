using System.Text;
using Managed.Zmq.Tests.Support;

namespace Managed.Zmq.Tests.Api.Peers;

/// <summary>
/// <see cref="Socket.GetPeers"/>: one snapshot per connected peer, on tcp, ipc and inproc, with what the
/// handshake agreed, the traffic so far and the depth of both queues; peers leave it when they go.
/// </summary>
public sealed class GetPeersTests : TransportSockets
{
    private (Socket Router, Socket Dealer, string Endpoint) Connected(string bindEndpoint)
    {
        var router = Create(SocketType.Router);
        router.Bind(bindEndpoint);
        string endpoint = router.GetOptionString(SocketOption.Last_Endpoint);
        var dealer = Create(SocketType.Dealer);
        dealer.SetOption(SocketOption.Routing_Id, "cid");
        dealer.Connect(endpoint);
        dealer.Send("hello");
        Assert.Equal(["cid", "hello"], RecvMessage(router));
        return (router, dealer, endpoint);
    }

    [Fact]
    public void GetPeers_TcpRouter_DescribesTheDealer()
    {
        var before = DateTimeOffset.UtcNow;
        var (router, _, endpoint) = Connected("tcp://127.0.0.1:*");

        var peer = Assert.Single(router.GetPeers());

        Assert.Equal("cid", Encoding.ASCII.GetString(peer.RoutingId.Span));
        Assert.Equal(SocketType.Dealer, peer.PeerSocketType);
        Assert.Equal(new Version(3, 1), peer.ZmtpVersion);
        Assert.Equal("NULL", peer.Mechanism);
        Assert.Equal(string.Empty, peer.UserId);
        Assert.Equal(endpoint, peer.LocalEndpoint);
        Assert.StartsWith("tcp://127.0.0.1:", peer.RemoteEndpoint, StringComparison.Ordinal);
        Assert.NotEqual(endpoint, peer.RemoteEndpoint);
        Assert.InRange(peer.ConnectedAt, before, DateTimeOffset.UtcNow);
        Assert.Equal(1, peer.MessagesReceived);

        // "hello" as ZMTP: one short frame, a 2-octet header and 5 octets of body.
        Assert.Equal(7, peer.BytesReceived);
        Assert.Equal(0, peer.InboundQueuedMessages);
        Assert.Equal(0, peer.InboundQueuedBytes);
        Assert.Equal(1000, peer.SendHwm);
        Assert.Equal(1000, peer.ReceiveHwm);
    }

    [Fact]
    public void GetPeers_TcpDealer_DescribesTheRouterAndCountsWhatWentOut()
    {
        var (router, dealer, endpoint) = Connected("tcp://127.0.0.1:*");
        var routerSide = Assert.Single(router.GetPeers());

        Eventually.True(() => dealer.GetPeers() is [{ MessagesSent: 1 }], "the dealer's write loop counted the message it sent");
        var peer = Assert.Single(dealer.GetPeers());

        Assert.True(peer.RoutingId.IsEmpty, "a DEALER has no routing ids");
        Assert.Equal(SocketType.Router, peer.PeerSocketType);
        Assert.Equal(endpoint, peer.RemoteEndpoint);
        Assert.Equal(routerSide.RemoteEndpoint, peer.LocalEndpoint);
        Assert.Equal(7, peer.BytesSent);
        Assert.Equal(0, peer.OutboundQueuedMessages);
        Assert.Equal(0, peer.MessagesReceived);
    }

    [Fact]
    public void GetPeers_Ipc_EndpointsArePaths()
    {
        string path = TestEndpoint.IpcPath("peers");
        var (router, dealer, _) = Connected("ipc://" + path);

        var peer = Assert.Single(router.GetPeers());
        Assert.Equal("ipc://" + path, peer.LocalEndpoint);
        Assert.Equal(SocketType.Dealer, peer.PeerSocketType);
        Assert.Equal(1, peer.MessagesReceived);

        var dealerSide = Assert.Single(dealer.GetPeers());
        Assert.Equal("ipc://" + path, dealerSide.RemoteEndpoint);
    }

    [Fact]
    public void GetPeers_Inproc_BothSidesWithCounts()
    {
        string name = TestEndpoint.Inproc("peers");
        var (router, dealer, _) = Connected(name);

        var peer = Assert.Single(router.GetPeers());
        Assert.Equal(name, peer.LocalEndpoint);
        Assert.Equal(name, peer.RemoteEndpoint);
        Assert.Equal(SocketType.Dealer, peer.PeerSocketType);
        Assert.Null(peer.ZmtpVersion);
        Assert.Equal(string.Empty, peer.Mechanism);
        Assert.Equal("cid", Encoding.ASCII.GetString(peer.RoutingId.Span));
        Assert.Equal(1, peer.MessagesReceived);
        Assert.Equal(5, peer.BytesReceived);
        Assert.Equal(0, peer.InboundQueuedMessages);

        var dealerSide = Assert.Single(dealer.GetPeers());
        Assert.Equal(SocketType.Router, dealerSide.PeerSocketType);
        Assert.Equal(1, dealerSide.MessagesSent);
        Assert.Equal(5, dealerSide.BytesSent);
    }

    [Theory]
    [TransportCases]
    public void GetPeers_StalledReceiver_QueuesReachTheirHwm(Transport transport)
    {
        const int hwm = 10;
        var pull = Create(SocketType.Pull);
        pull.SetOption(SocketOption.Rcvhwm, hwm);
        string endpoint = TestEndpoint.Bind(pull, transport, "stall");
        var push = Create(SocketType.Push);
        push.SetOption(SocketOption.Sndhwm, hwm);
        push.Connect(endpoint);
        var payload = new byte[1000];
        Assert.True(push.Send(payload));
        Assert.Equal(payload.Length, pull.RecvBytes().Length);

        // Nobody reads: the PULL's queue fills, then the kernel buffers, then the PUSH's queue. A refused send
        // says the queue passed its resume level (libzmq's low-water mark) since it last drained there.
        Eventually.True(() =>
        {
            SendUntilRefused(push, payload);

            // Until the kernel buffers are full the write loop may still drain it: one snapshot says both.
            return push.GetPeers() is [{ OutboundQueuedMessages: > hwm / 2, OutboundQueuedBytes: > 0 }];
        }, "the PUSH's outbound queue shows above its low-water mark");
        Eventually.True(() => pull.GetPeers() is [{ InboundQueuedMessages: >= hwm }], "the pull's inbound queue reached RCVHWM");
        var pullSide = Assert.Single(pull.GetPeers());
        Assert.True(pullSide.InboundQueuedBytes >= pullSide.InboundQueuedMessages * payload.Length, pullSide.ToString());

        // Reading drains the inbound queue the snapshot shows.
        long queued = pullSide.InboundQueuedMessages;
        for (int i = 0; i < queued; i++)
        {
            Assert.Equal(payload.Length, pull.RecvBytes().Length);
        }

        Assert.True(Assert.Single(pull.GetPeers()).MessagesReceived >= queued);
    }

    private static void SendUntilRefused(Socket socket, byte[] payload)
    {
        while (socket.Send(payload, SendFlags.DontWait))
        {
        }
    }

    [Fact]
    public void GetPeers_PeerLeaves_NoLongerListed()
    {
        var (router, dealer, _) = Connected("tcp://127.0.0.1:*");
        Assert.Single(router.GetPeers());

        dealer.Dispose();

        Eventually.True(() => router.GetPeers().Count == 0, "the router saw the dealer leave");
    }

    [Fact]
    public void GetPeers_ConnectWithoutPeer_Empty()
    {
        var dealer = Create(SocketType.Dealer);
        var unused = Create(SocketType.Router);
        unused.Bind("tcp://127.0.0.1:*");
        string endpoint = unused.GetOptionString(SocketOption.Last_Endpoint);
        unused.Unbind(endpoint);

        dealer.Connect(endpoint);

        Assert.Empty(dealer.GetPeers());
    }

    [Fact]
    public void GetPeers_TwoDealers_TwoPeers()
    {
        var (router, _, endpoint) = Connected("tcp://127.0.0.1:*");
        var second = Create(SocketType.Dealer);
        second.SetOption(SocketOption.Routing_Id, "two");
        second.Connect(endpoint);
        second.Send("hi");
        Assert.Equal(["two", "hi"], RecvMessage(router));

        var ids = router.GetPeers().Select(p => Encoding.ASCII.GetString(p.RoutingId.Span)).Order().ToArray();

        Assert.Equal(["cid", "two"], ids);
    }
}
