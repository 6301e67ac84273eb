using Managed.Zmq.Tests.Engine.Support;
using Managed.Zmq.Tests.Support;

namespace Managed.Zmq.Tests.Engine;

/// <summary>
/// Our sockets against a scripted ZMTP 1.0 peer (a 0MQ 2.x node: RFC 13's bytes exactly, on a real TCP
/// connection), in both roles: it connects to our bound socket, or our socket connects to it. Each side opens
/// with its identity frame; ours is the 10-octet signature plus the routing id, as libzmq sends it (docs/libzmq-behaviour.md L25).
/// </summary>
public sealed class Zmtp10PeerTests : ResilienceFixture
{
    private static readonly byte[] Anonymous = Rfc13.Frame(string.Empty);

    /// <summary>A scripted 1.0 peer connected to <paramref name="socket"/>, identities exchanged.</summary>
    private static RawPeer ConnectPeer(Socket socket, string identity = "")
    {
        var peer = RawPeer.Connect(RawPeer.PortOf(BindTcp(socket)));
        peer.Send(Rfc13.Frame(identity));
        Assert.Equal(Convert.ToHexString(Rfc13.Signature()), Convert.ToHexString(peer.ReadExactly(10)));
        return peer;
    }

    /// <summary>Our <paramref name="socket"/> connected to a scripted 1.0 peer that binds, identities exchanged.</summary>
    private RawPeer AcceptPeer(Socket socket, string routingId = "")
    {
        var listener = Own(new RawListener());
        socket.Connect(listener.Endpoint);
        var peer = Own(listener.Accept());
        peer.Send(Anonymous);
        byte[] expected = [.. Rfc13.Signature(routingId.Length), .. System.Text.Encoding.ASCII.GetBytes(routingId)];
        Assert.Equal(Convert.ToHexString(expected), Convert.ToHexString(peer.ReadExactly(expected.Length)));
        return peer;
    }

    /// <summary>Until the socket lists the peer: its pipe is attached, and whatever the handshake queued is in it.</summary>
    private static void WaitForPeer(Socket socket) => Eventually.True(() => socket.GetPeers().Count == 1, "the 1.0 peer is attached");

    // ------------------------------------------------------------------ ROUTER and DEALER, with identities

    [Fact]
    public void OurRouterBinds_Zmtp10DealerConnects_ItsIdentityRoutesBothWays()
    {
        var router = Create(SocketType.Router);
        using var peer = ConnectPeer(router, identity: "peer");

        peer.Send(Rfc13.Message(string.Empty, "hello"));

        Assert.Equal(new[] { "peer", string.Empty, "hello" }, Rfc13.Receive(router));
        Assert.Equal(new Version(1, 0), router.GetPeers().Single().ZmtpVersion);
        router.SendMultipart("peer", string.Empty, "world");
        Assert.Equal(Convert.ToHexString(Rfc13.Message(string.Empty, "world")), Convert.ToHexString(peer.ReadExactly(9)));
    }

    [Fact]
    public void Zmtp10RouterBinds_OurDealerConnects_RoutingIdSentAndLongFramesBothWays()
    {
        var dealer = Create(SocketType.Dealer);
        dealer.SetOption(SocketOption.Routing_Id, "abc");
        var peer = AcceptPeer(dealer, routingId: "abc");
        byte[] longBody = [.. Enumerable.Range(0, 300).Select(i => (byte)('a' + (i % 26)))];
        string longText = System.Text.Encoding.ASCII.GetString(longBody);

        dealer.SendMultipart("a", longText);

        // 300 octets + flags = 301: the 0xFF form with an 8-octet length.
        byte[] expected = [.. WireHex("02 01 61 FF 00 00 00 00 00 00 01 2D 00"), .. longBody];
        Assert.Equal(Convert.ToHexString(expected), Convert.ToHexString(peer.ReadExactly(expected.Length)));
        peer.Send([.. Rfc13.Frame("x", more: true), .. Rfc13.Frame(longBody)]);
        Assert.Equal(new[] { "x", longText }, Rfc13.Receive(dealer));
    }

    [Fact]
    public void OurRouterBinds_VersionedZmtp10Peer_GreetingThenRfc13Frames()
    {
        // Revision 00: 12 octets of greeting each way, then RFC 13 frames, identities first (docs/libzmq-behaviour.md L2, docs/libzmq-behaviour.md L25).
        var router = Create(SocketType.Router);
        using var peer = RawPeer.Connect(RawPeer.PortOf(BindTcp(router)));

        peer.Send([.. WireHex("FF 00 00 00 00 00 00 00 01 7F 00 05"), .. Rfc13.Frame("peer")]);
        Assert.Equal("FF00000000000000017F0306" + "0100", Convert.ToHexString(peer.ReadExactly(14)));
        peer.Send(Rfc13.Message(string.Empty, "hello"));

        Assert.Equal(new[] { "peer", string.Empty, "hello" }, Rfc13.Receive(router));
        router.SendMultipart("peer", string.Empty, "hi");
        Assert.Equal(new[] { string.Empty, "hi" }, Rfc13.ReadMessage(peer));
    }

    // ------------------------------------------------------------------ REQ and REP

    [Fact]
    public void OurRepBinds_Zmtp10ReqConnects_RequestAndReplyCross()
    {
        var rep = Create(SocketType.Rep);
        using var peer = ConnectPeer(rep);

        peer.Send(Rfc13.Message(string.Empty, "ping"));

        Assert.Equal("ping", rep.RecvString());
        rep.Send("pong");
        Assert.Equal(new[] { string.Empty, "pong" }, Rfc13.ReadMessage(peer));
    }

    [Fact]
    public void Zmtp10RepBinds_OurReqConnects_RequestAndReplyCross()
    {
        var req = Create(SocketType.Req);
        var peer = AcceptPeer(req);

        req.Send("ping");

        Assert.Equal(new[] { string.Empty, "ping" }, Rfc13.ReadMessage(peer));
        peer.Send(Rfc13.Message(string.Empty, "pong"));
        Assert.Equal("pong", req.RecvString());
    }

    // ------------------------------------------------------------------ PUSH and PULL

    [Fact]
    public void OurPullBinds_Zmtp10PushConnects_MessagesArriveWhole()
    {
        var pull = Create(SocketType.Pull);
        using var peer = ConnectPeer(pull);

        peer.Send([.. Rfc13.Message("one"), .. Rfc13.Message("two", "parts", string.Empty), .. Rfc13.Message("three")]);

        Assert.Equal(new[] { "one" }, Rfc13.Receive(pull));
        Assert.Equal(new[] { "two", "parts", string.Empty }, Rfc13.Receive(pull));
        Assert.Equal(new[] { "three" }, Rfc13.Receive(pull));
    }

    [Fact]
    public void Zmtp10PullBinds_OurPushConnects_ExactFramesSent()
    {
        var push = Create(SocketType.Push);
        var peer = AcceptPeer(push);

        push.SendMultipart("m", string.Empty, "end");

        Assert.Equal(Convert.ToHexString(Rfc13.Message("m", string.Empty, "end")), Convert.ToHexString(peer.ReadExactly(10)));
    }

    // ------------------------------------------------------------------ PUB and SUB

    [Fact]
    public void OurXPubBinds_Zmtp10SubConnects_SubscribedToAllAsLibzmqDoes()
    {
        // A 0MQ 2.x subscriber never subscribes: libzmq's XPUB hands the application a phantom "subscribe all" (docs/libzmq-behaviour.md L2).
        var xpub = Create(SocketType.XPub);
        using var peer = ConnectPeer(xpub);

        Assert.Equal(new byte[] { 0x01 }, xpub.RecvBytes());
        xpub.Send("any topic");
        Assert.Equal(new[] { "any topic" }, Rfc13.ReadMessage(peer));
    }

    [Fact]
    public void OurPubBinds_Zmtp10SubConnects_EverythingDelivered()
    {
        var pub = Create(SocketType.Pub);
        using var peer = ConnectPeer(pub);
        WaitForPeer(pub);

        pub.SendMultipart("weather", "sunny");

        Assert.Equal(new[] { "weather", "sunny" }, Rfc13.ReadMessage(peer));
    }

    [Fact]
    public void Zmtp10PubBinds_OurSubConnects_SubscriptionSentAsMessageAndFilteredHere()
    {
        var sub = Create(SocketType.Sub);
        sub.Subscribe("A");
        var peer = AcceptPeer(sub);

        // libzmq's 1.0 encoder: the subscription is an ordinary frame, 0x01 then the topic (docs/libzmq-behaviour.md L12, docs/libzmq-behaviour.md L25).
        Assert.Equal("03000141", Convert.ToHexString(peer.ReadExactly(4)));
        peer.Send([.. Rfc13.Message("B-skipped"), .. Rfc13.Message("A-kept")]);

        Assert.Equal("A-kept", sub.RecvString());
    }

    [Fact]
    public void OurSubBinds_Zmtp10PubConnects_UnsubscribeSentToo()
    {
        var sub = Create(SocketType.Sub);
        sub.Subscribe("news");
        using var peer = ConnectPeer(sub);

        // As in libzmq, a bound socket attaches a new peer (and sends it the subscriptions) when the application calls it.
        WaitForPeer(sub);
        Assert.Equal("016E657773", Convert.ToHexString(Rfc13.ReadFrame(peer).Body));
        peer.Send(Rfc13.Message("news: up"));
        Assert.Equal("news: up", sub.RecvString());
        sub.Unsubscribe("news");
        Assert.Equal("06 00 00 'news'", WireText(peer.ReadExactly(7)));
    }

    [Fact]
    public void Zmtp10SubBinds_OurPubConnects_EverythingDelivered()
    {
        var pub = Create(SocketType.Pub);
        var peer = AcceptPeer(pub);
        WaitForPeer(pub);

        pub.Send("bulletin");

        Assert.Equal(new[] { "bulletin" }, Rfc13.ReadMessage(peer));
    }

    private static byte[] WireHex(string hex) => Convert.FromHexString(hex.Replace(" ", string.Empty, StringComparison.Ordinal));

    private static string WireText(byte[] bytes) => $"{bytes[0]:X2} {bytes[1]:X2} {bytes[2]:X2} '{System.Text.Encoding.ASCII.GetString(bytes, 3, bytes.Length - 3)}'";
}
