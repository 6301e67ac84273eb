using System.Net;
using System.Net.Sockets;
using Managed.Zmq.Tests.Support;

namespace Managed.Zmq.Tests.Api.Options;

/// <summary>
/// What each pattern option does, seen through the public API, not only through get and set.
/// Ordering on one pipe is the synchronisation: a message that should have been filtered out is sent
/// before one that should arrive, so the first one received tells which happened.
/// </summary>
public sealed class OptionBehaviourTests : TransportSockets
{
    [Fact]
    public void Conflate_ThreeQueued_OnlyNewestDelivered()
    {
        string endpoint = TestEndpoint.Inproc("conflate");
        var pull = Create(SocketType.Pull);
        pull.SetOption(SocketOption.Conflate, 1);
        pull.Bind(endpoint);
        var push = Create(SocketType.Push);
        push.Connect(endpoint);

        // inproc queues a message in the peer's pipe before Send returns.
        push.Send("1");
        push.Send("2");
        push.Send("3");

        Assert.Equal("3", pull.RecvString());
        Assert.Empty(DrainNow(pull));
    }

    [Fact]
    public void Conflate_XSub_EveryMessageDelivered()
    {
        // libzmq conflates a SUB, never an XSUB: a proxy's XSUB forwards every message.
        string endpoint = TestEndpoint.Inproc("conflate-xsub");
        var xpub = Create(SocketType.XPub);
        xpub.Bind(endpoint);
        var xsub = Create(SocketType.XSub);
        xsub.SetOption(SocketOption.Conflate, 1);
        xsub.Connect(endpoint);
        xsub.Send(new byte[] { 1 });
        Assert.Equal(new byte[] { 1 }, xpub.RecvBytes());

        xpub.Send("1");
        xpub.Send("2");
        xpub.Send("3");

        Assert.Equal(["1", "2", "3"], new[] { xsub.RecvString(), xsub.RecvString(), xsub.RecvString() });
    }

    [Fact]
    public void XpubManual_NoManualSubscribe_NothingSentUntilXpubSubscribes()
    {
        var xpub = Create(SocketType.XPub);
        xpub.SetOption(SocketOption.Xpub_Manual, 1);
        xpub.Bind("tcp://127.0.0.1:*");
        var sub = Create(SocketType.Sub);
        sub.Connect(xpub.GetOptionString(SocketOption.Last_Endpoint));
        sub.Subscribe("A");

        Assert.Equal("\u0001A", xpub.RecvString());
        xpub.Send("A-before");
        xpub.Subscribe("A");
        xpub.Send("A-after");

        Assert.Equal("A-after", sub.RecvString());
    }

    [Fact]
    public void XpubWelcomeMsg_Set_NewSubscriberReceivesItFirst()
    {
        var xpub = Create(SocketType.XPub);
        xpub.SetOption(SocketOption.Xpub_Welcome_Msg, "WELCOME"u8.ToArray());
        xpub.Bind("tcp://127.0.0.1:*");
        var sub = Create(SocketType.Sub);
        sub.Subscribe("WELCOME");
        sub.Connect(xpub.GetOptionString(SocketOption.Last_Endpoint));

        // As libzmq's own test: the XPUB meets the new subscriber (and sends the welcome) when its user calls it.
        Assert.Equal("\u0001WELCOME", xpub.RecvString());
        Assert.Equal("WELCOME", sub.RecvString());
    }

    [Fact]
    public void XpubNodrop_SubscriberNotReading_SendRefusedInsteadOfDropped()
    {
        string endpoint = TestEndpoint.Inproc("nodrop");
        var xpub = Create(SocketType.XPub);
        xpub.SetOption(SocketOption.Xpub_Nodrop, 1);
        xpub.SetOption(SocketOption.Sndhwm, 2);
        xpub.Bind(endpoint);
        var sub = Create(SocketType.Sub);
        sub.SetOption(SocketOption.Rcvhwm, 2);
        sub.Connect(endpoint);
        sub.Subscribe("m");
        Assert.Equal("\u0001m", xpub.RecvString());

        int taken = SendUntilRefused(xpub, limit: 10_000);

        Assert.InRange(taken, 1, 9_999);
    }

    [Fact]
    public void XpubNodrop_OnPub_SendRefusedInsteadOfDropped()
    {
        // libzmq's PUB is an XPUB underneath and takes ZMQ_XPUB_NODROP the same way.
        string endpoint = TestEndpoint.Inproc("pub-nodrop");
        var pub = Create(SocketType.Pub);
        pub.SetOption(SocketOption.Xpub_Nodrop, 1);
        pub.SetOption(SocketOption.Sndhwm, 2);
        pub.Bind(endpoint);
        var sub = Create(SocketType.Sub);
        sub.SetOption(SocketOption.Rcvhwm, 2);
        sub.Connect(endpoint);
        sub.Subscribe("m");

        // A PUB cannot read the subscription: it is in place once a message gets through.
        Eventually.True(() => pub.Send("m", SendFlags.DontWait) && sub.TryRecvString(out _), "the subscription reached the PUB");
        int taken = SendUntilRefused(pub, limit: 10_000);

        Assert.InRange(taken, 0, 9_999);
    }

    [Fact]
    public void XpubNodropOff_SubscriberNotReading_SendsNeverRefused()
    {
        string endpoint = TestEndpoint.Inproc("drop");
        var xpub = Create(SocketType.XPub);
        xpub.SetOption(SocketOption.Sndhwm, 2);
        xpub.Bind(endpoint);
        var sub = Create(SocketType.Sub);
        sub.SetOption(SocketOption.Rcvhwm, 2);
        sub.Connect(endpoint);
        sub.Subscribe("m");
        Assert.Equal("\u0001m", xpub.RecvString());

        Assert.Equal(1_000, SendUntilRefused(xpub, limit: 1_000));
    }

    [Fact]
    public void ReqCorrelate_ReplyWithWrongRequestId_IgnoredRightOneDelivered()
    {
        var router = Create(SocketType.Router);
        router.Bind("tcp://127.0.0.1:*");
        var req = Create(SocketType.Req);
        req.SetOption(SocketOption.Req_Correlate, 1);
        req.Connect(router.GetOptionString(SocketOption.Last_Endpoint));

        req.Send("question");
        using var request = router.RecvMultipart();

        // [peer id, request id (4 octets), delimiter, body] (libzmq's REQ with ZMQ_REQ_CORRELATE).
        Assert.Equal(4, request.Count);
        Assert.Equal(4, request[1].Size);
        Assert.Equal(0, request[2].Size);
        Assert.Equal("question", request[3].ToString());
        byte[] wrongId = request[1].ToArray();
        wrongId[0] ^= 0xFF;
        router.Send(request[0].ToArray(), SendFlags.SendMore);
        router.Send(wrongId, SendFlags.SendMore);
        router.Send([], SendFlags.SendMore);
        router.Send("stale");
        router.Send(request[0].ToArray(), SendFlags.SendMore);
        router.Send(request[1].ToArray(), SendFlags.SendMore);
        router.Send([], SendFlags.SendMore);
        router.Send("answer");

        Assert.Equal("answer", req.RecvString());
    }

    [Fact]
    public void ReqRelaxed_SecondSendWithoutReply_AllowedAndOnlyLatestReplyDelivered()
    {
        var router = Create(SocketType.Router);
        router.Bind("tcp://127.0.0.1:*");
        var req = Create(SocketType.Req);
        req.SetOption(SocketOption.Req_Relaxed, 1);
        req.SetOption(SocketOption.Req_Correlate, 1);
        req.Connect(router.GetOptionString(SocketOption.Last_Endpoint));

        req.Send("first");
        using var first = router.RecvMultipart();
        req.Send("second");
        using var second = router.RecvMultipart();
        Reply(router, first, "to-first");
        Reply(router, second, "to-second");

        Assert.Equal("second", second[3].ToString());
        Assert.Equal("to-second", req.RecvString());
    }

    [Fact]
    public void ReqStrict_SecondSendWithoutReply_Efsm()
    {
        var router = Create(SocketType.Router);
        router.Bind("tcp://127.0.0.1:*");
        var req = Create(SocketType.Req);
        req.Connect(router.GetOptionString(SocketOption.Last_Endpoint));

        req.Send("first");

        AssertZmqError(ZmqConstants.EFSM, () => req.Send("second"));
    }

    [Fact]
    public void RouterHandover_SecondPeerSameId_TakesOverTheRoute()
    {
        var router = Create(SocketType.Router);
        router.SetOption(SocketOption.Router_Handover, 1);
        router.Bind("tcp://127.0.0.1:*");
        string endpoint = router.GetOptionString(SocketOption.Last_Endpoint);
        var oldPeer = Create(SocketType.Dealer);
        oldPeer.SetOption(SocketOption.Routing_Id, "same"u8.ToArray());
        oldPeer.Connect(endpoint);
        oldPeer.Send("from-old");
        using (var fromOld = router.RecvMultipart())
        {
            Assert.Equal("same", fromOld[0].ToString());
        }

        var newPeer = Create(SocketType.Dealer);
        newPeer.SetOption(SocketOption.Routing_Id, "same"u8.ToArray());
        newPeer.Connect(endpoint);
        newPeer.Send("from-new");
        using (var fromNew = router.RecvMultipart())
        {
            Assert.Equal("same", fromNew[0].ToString());
            Assert.Equal("from-new", fromNew[1].ToString());
        }

        router.Send("same", SendFlags.SendMore);
        router.Send("routed");

        Assert.Equal("routed", newPeer.RecvString());
    }

    [Fact]
    public void InvertMatching_XpubAndSub_DeliversWhatDoesNotMatch()
    {
        var xpub = Create(SocketType.XPub);
        xpub.SetOption(SocketOption.Invert_Matching, 1);
        xpub.Bind("tcp://127.0.0.1:*");
        var sub = Create(SocketType.Sub);
        sub.SetOption(SocketOption.Invert_Matching, 1);
        sub.Connect(xpub.GetOptionString(SocketOption.Last_Endpoint));
        sub.Subscribe("A");
        Assert.Equal("\u0001A", xpub.RecvString());

        xpub.Send("A-excluded");
        xpub.Send("B-included");

        Assert.Equal("B-included", sub.RecvString());
    }

    [Fact]
    public void StreamNotify_Default_ConnectNotifiedWithEmptyFrame()
    {
        var stream = Create(SocketType.Stream);
        stream.Bind("tcp://127.0.0.1:*");
        using var client = ConnectRaw(stream);

        using var notification = stream.RecvMultipart();

        Assert.Equal(2, notification.Count);
        Assert.Equal(0, notification[1].Size);
    }

    [Fact]
    public void StreamNotifyOff_Connect_FirstMessageIsData()
    {
        var stream = Create(SocketType.Stream);
        stream.SetOption(SocketOption.Stream_Notify, 0);
        stream.Bind("tcp://127.0.0.1:*");
        using var client = ConnectRaw(stream);

        client.Send("raw"u8);
        using var first = stream.RecvMultipart();

        Assert.Equal("raw", first[1].ToString());
    }

    [Fact]
    public void RouterRaw_Set_TalksRawTcpAsLibzmqRawRouter()
    {
        // libzmq 4.3.4 (checked through pyzmq): [id, ""] on connect, then [id, bytes]; what is sent goes out raw.
        var router = Create(SocketType.Router);
        router.SetOption(SocketOption.Router_Raw, 1);
        router.Bind("tcp://127.0.0.1:*");
        using var client = ConnectRaw(router);

        client.Send("hi"u8);
        using var notification = router.RecvMultipart();
        using var data = router.RecvMultipart();
        router.Send(data[0].ToArray(), SendFlags.SendMore);
        router.Send("yo");
        var reply = new byte[2];
        client.ReceiveTimeout = Timeout;
        int read = 0;
        while (read < reply.Length)
        {
            // Zero is the end of the stream: the router closed the connection instead of answering, and another
            // Receive would return zero again at once, for ever.
            int got = client.Receive(reply.AsSpan(read));
            Assert.True(got > 0, $"the connection ended after {read} of {reply.Length} reply bytes");
            read += got;
        }

        Assert.Equal(0, notification[1].Size);
        Assert.Equal(notification[0].ToArray(), data[0].ToArray());
        Assert.Equal("hi", data[1].ToString());
        Assert.Equal("yo"u8.ToArray(), reply);
    }

    [Fact]
    public void RouterRaw_SetAfterPeersAttached_Einval()
    {
        string endpoint = TestEndpoint.Inproc("raw-late");
        var router = Create(SocketType.Router);
        router.Bind(endpoint);
        var dealer = Create(SocketType.Dealer);
        dealer.Connect(endpoint);
        dealer.Send("x");
        using (router.RecvMultipart())
        {
        }

        AssertZmqError(ZmqConstants.EINVAL, () => router.SetOption(SocketOption.Router_Raw, 1));
    }

    private static void Reply(Socket router, MultipartMessage request, string body)
    {
        router.Send(request[0].ToArray(), SendFlags.SendMore);
        router.Send(request[1].ToArray(), SendFlags.SendMore);
        router.Send([], SendFlags.SendMore);
        router.Send(body);
    }

    private static System.Net.Sockets.Socket ConnectRaw(Socket stream)
    {
        string endpoint = stream.GetOptionString(SocketOption.Last_Endpoint);
        int port = int.Parse(endpoint[(endpoint.LastIndexOf(':') + 1)..], System.Globalization.CultureInfo.InvariantCulture);
        var client = new System.Net.Sockets.Socket(AddressFamily.InterNetwork, System.Net.Sockets.SocketType.Stream, ProtocolType.Tcp);
        client.Connect(new IPEndPoint(IPAddress.Loopback, port));
        return client;
    }
}
