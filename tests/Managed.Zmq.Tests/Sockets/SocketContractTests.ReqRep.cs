namespace Managed.Zmq.Tests.Sockets;

/// <summary>REQ/REP, DEALER/ROUTER and ROUTER/ROUTER (RFC 28, API §8.4): envelopes, routing ids, the REQ/REP state machine.</summary>
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
