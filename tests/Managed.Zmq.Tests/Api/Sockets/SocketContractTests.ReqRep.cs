namespace Managed.Zmq.Tests.Api.Sockets;

/// <summary>REQ/REP, DEALER/ROUTER and ROUTER/ROUTER (RFC 28): envelopes, routing ids, the REQ/REP state machine.</summary>
public abstract partial class SocketContractTests
{
    [Theory]
    [InlineData(true)]
    [InlineData(false)]
    public void ReqRep_RequestReply_RoundTrips(bool repBinds)
    {
        var (rep, req) = repBinds ? Pair(SocketType.Rep, SocketType.Req) : Swap(Pair(SocketType.Req, SocketType.Rep));

        for (int i = 0; i < 3; i++)
        {
            req.Send($"request {i}");
            Assert.Equal($"request {i}", rep.RecvString());
            Assert.False(rep.HasMore);
            rep.Send($"reply {i}");
            Assert.Equal($"reply {i}", req.RecvString());
            Assert.False(req.HasMore);
        }
    }

    /// <summary>
    /// Replies sent while the requester reads nothing: over tcp and ipc each reply follows a receive,
    /// so it is written from the replier's thread while the write loop is parked, until the kernel's
    /// buffers fill and a reply goes out only in part; the write loop must then send its rest and
    /// everything after it, in order and intact.
    /// </summary>
    [Fact]
    public void Rep_RepliesWhileRequesterStalled_EveryReplyArrivesIntact()
    {
        const int Requests = 2000;
        const int ReplySize = 16_000;
        var rep = Create(SocketType.Rep);
        var dealer = Create(SocketType.Dealer);
        dealer.SetOption(SocketOption.Rcvhwm, 1);
        dealer.Connect(Bind(rep));

        for (int i = 0; i < Requests; i++)
        {
            dealer.Send([], SendFlags.SendMore);
            dealer.Send(BitConverter.GetBytes(i));
        }

        var reply = new byte[ReplySize];
        var request = new byte[4];
        for (int i = 0; i < Requests; i++)
        {
            Assert.Equal(4, rep.Recv(request));
            int index = BitConverter.ToInt32(request);
            Assert.Equal(i, index);
            reply.AsSpan().Fill((byte)index);
            BitConverter.TryWriteBytes(reply, index);
            rep.Send(reply);
        }

        var delimiter = new byte[1];
        var received = new byte[ReplySize + 1];
        for (int i = 0; i < Requests; i++)
        {
            Assert.Equal(0, dealer.Recv(delimiter));
            Assert.Equal(ReplySize, dealer.Recv(received));
            Assert.Equal(i, BitConverter.ToInt32(received));
            Assert.True(received.AsSpan(4, ReplySize - 4).IndexOfAnyExcept((byte)i) < 0, $"reply {i} is corrupt");
        }
    }

    [Fact]
    public void Req_SecondSendWithoutRecv_Efsm()
    {
        var (_, req) = Pair(SocketType.Rep, SocketType.Req);
        req.Send("first");

        AssertZmqError(ZmqConstants.EFSM, () => req.Send("second"));
    }

    [Fact]
    public void Req_RecvBeforeSend_Efsm()
    {
        var (_, req) = Pair(SocketType.Rep, SocketType.Req);

        AssertZmqError(ZmqConstants.EFSM, () => req.RecvString());
    }

    [Fact]
    public void Rep_SendBeforeRecv_Efsm()
    {
        var (rep, _) = Pair(SocketType.Rep, SocketType.Req);

        AssertZmqError(ZmqConstants.EFSM, () => rep.Send("unasked"));
    }

    [Fact]
    public void ReqRep_MultipartRequest_EnvelopeHiddenFromBothSides()
    {
        var (rep, req) = Pair(SocketType.Rep, SocketType.Req);

        SendMessage(req, "a", "", "c");
        Assert.Equal(["a", "", "c"], RecvMessage(rep));
        SendMessage(rep, "x", "y");

        Assert.Equal(["x", "y"], RecvMessage(req));
    }

    [Fact]
    public void ReqRouter_RouterSeesDelimiterAndRepliesThroughIt()
    {
        var router = Create(SocketType.Router);
        var req2 = Create(SocketType.Req);
        req2.SetOption(SocketOption.Routing_Id, "req-2");
        req2.Connect(Bind(router));

        req2.Send("question");

        Assert.Equal(["req-2", "", "question"], RecvMessage(router));
        SendMessage(router, "req-2", "", "answer");
        Assert.Equal("answer", req2.RecvString());
    }

    [Theory]
    [InlineData(true)]
    [InlineData(false)]
    public void DealerRouter_DealerRoutingId_RouterSeesItAndRepliesById(bool routerBinds)
    {
        Socket router;
        Socket dealer;
        if (routerBinds)
        {
            router = Create(SocketType.Router);
            dealer = Create(SocketType.Dealer);
            dealer.SetOption(SocketOption.Routing_Id, "dealer-1");
            dealer.Connect(Bind(router));
        }
        else
        {
            dealer = Create(SocketType.Dealer);
            dealer.SetOption(SocketOption.Routing_Id, "dealer-1");
            string endpoint = Bind(dealer);
            router = Create(SocketType.Router);
            router.Connect(endpoint);
        }

        SendMessage(dealer, "hi", "there");

        Assert.Equal(["dealer-1", "hi", "there"], RecvMessage(router));
        SendMessage(router, "dealer-1", "reply");
        Assert.Equal(["reply"], RecvMessage(dealer));
    }

    [Fact]
    public void Router_AnonymousPeers_GeneratedIdsAreFiveBytesStartingWithZero()
    {
        var router = Create(SocketType.Router);
        string endpoint = Bind(router);
        var dealers = Enumerable.Range(0, 2).Select(_ => Create(SocketType.Dealer)).ToArray();
        foreach (var dealer in dealers)
        {
            dealer.Connect(endpoint);
            dealer.Send("ping");
        }

        var ids = new List<byte[]>();
        for (int i = 0; i < dealers.Length; i++)
        {
            byte[] id = router.RecvBytes();
            Assert.True(router.HasMore);
            Assert.Equal("ping", router.RecvString());
            Assert.Equal(5, id.Length);
            Assert.Equal(0, id[0]);
            ids.Add(id);
        }

        Assert.NotEqual(ids[0], ids[1]);

        // Replying by each generated id reaches exactly the dealer that sent it.
        router.Send(ids[0], SendFlags.SendMore);
        router.Send("to-0");
        router.Send(ids[1], SendFlags.SendMore);
        router.Send("to-1");
        string[] replies = dealers.Select(d => d.RecvString()).Order(StringComparer.Ordinal).ToArray();
        Assert.Equal(["to-0", "to-1"], replies);
    }

    [Fact]
    public void RouterRouter_ExplicitIdsBothSides_ConnectorSendsFirstThenBothWays()
    {
        var bound = Create(SocketType.Router);
        bound.SetOption(SocketOption.Routing_Id, "server");
        string endpoint = Bind(bound);
        var connector = Create(SocketType.Router);
        connector.SetOption(SocketOption.Routing_Id, "client");
        connector.SetOption(SocketOption.Router_Mandatory, 1);
        connector.Connect(endpoint);

        // With Router_Mandatory the connector learns when "server" is routable: EHOSTUNREACH until then.
        Support.Eventually.True(
            () =>
            {
                try
                {
                    return connector.Send("server", SendFlags.SendMore | SendFlags.DontWait) && connector.Send("hello");
                }
                catch (ZmqException ex) when (ex.ErrorNumber == ZmqConstants.EHOSTUNREACH)
                {
                    return false;
                }
            },
            "the connecting ROUTER can route to the bound ROUTER's id");

        Assert.Equal(["client", "hello"], RecvMessage(bound));
        SendMessage(bound, "client", "welcome");
        Assert.Equal(["server", "welcome"], RecvMessage(connector));
    }

    [Fact]
    public void Router_SameIdRepeatedOrAlternatedThenPeerReplaced_EachMessageReachesTheCurrentOwner()
    {
        // ROUTER remembers the peer it routed to last; that must never outlive the peer.
        var router = Create(SocketType.Router);
        router.SetOption(SocketOption.Router_Mandatory, 1);
        string endpoint = Bind(router);
        var a = Create(SocketType.Dealer);
        a.SetOption(SocketOption.Routing_Id, "a");
        a.Connect(endpoint);
        var b = Create(SocketType.Dealer);
        b.SetOption(SocketOption.Routing_Id, "b");
        b.Connect(endpoint);
        a.Send("up");
        b.Send("up");
        RecvMessage(router);
        RecvMessage(router);

        foreach (string to in new[] { "a", "a", "b", "a", "b", "b" })
        {
            SendMessage(router, to, "to-" + to);
        }

        Assert.Equal(["to-a", "to-a", "to-a"], Enumerable.Range(0, 3).Select(_ => a.RecvString()).ToArray());
        Assert.Equal(["to-b", "to-b", "to-b"], Enumerable.Range(0, 3).Select(_ => b.RecvString()).ToArray());

        // "a" goes away: routing to it fails once the ROUTER has seen it go, then a new "a" takes its place.
        a.Dispose();
        Support.Eventually.True(
            () =>
            {
                try
                {
                    router.Send("a", SendFlags.SendMore);
                    router.Send("lost");
                    return false;
                }
                catch (ZmqException ex) when (ex.ErrorNumber == ZmqConstants.EHOSTUNREACH)
                {
                    return true;
                }
            },
            "the ROUTER notices that peer a is gone");
        var newA = Create(SocketType.Dealer);
        newA.SetOption(SocketOption.Routing_Id, "a");
        newA.Connect(endpoint);
        newA.Send("up again");
        Assert.Equal(["a", "up again"], RecvMessage(router));

        SendMessage(router, "a", "to-new-a");

        Assert.Equal("to-new-a", newA.RecvString());
    }

    [Fact]
    public void Router_MandatoryUnknownId_Ehostunreach()
    {
        var router = Create(SocketType.Router);
        router.SetOption(SocketOption.Router_Mandatory, 1);
        Bind(router);

        AssertZmqError(ZmqConstants.EHOSTUNREACH, () => router.Send("nobody", SendFlags.SendMore));
    }

    [Fact]
    public void Router_UnknownIdWithoutMandatory_DroppedSilently()
    {
        var router = Create(SocketType.Router);
        var known = Create(SocketType.Dealer);
        known.SetOption(SocketOption.Routing_Id, "known");
        known.Connect(Bind(router));
        known.Send("up");
        Assert.Equal(["known", "up"], RecvMessage(router));

        Assert.True(router.Send("nobody", SendFlags.SendMore));
        Assert.True(router.Send("lost"));
        SendMessage(router, "known", "kept");

        Assert.Equal("kept", known.RecvString());
    }
}
