namespace Managed.Zmq.Tests.Inproc;

/// <summary>
/// inproc:// specifics (libzmq 4.3 zmq_inproc): names scoped to the context, bind and
/// connect in either order, EADDRINUSE, unbind and rebind, the summed high-water mark, routing ids
/// and delivery of what a closed peer queued. Every count is exact: inproc has no kernel buffer.
/// </summary>
public sealed class InprocTransportTests : TransportSockets
{
    [Fact]
    public void Connect_BeforeBind_QueuedMessagesDeliveredOnceBound()
    {
        string name = TestEndpoint.Inproc("early");
        var push = Create(SocketType.Push);
        push.Connect(name);
        SendMessage(push, "a", "b");
        push.Send("c");
        var pull = Create(SocketType.Pull);

        pull.Bind(name);

        Assert.Equal(["a", "b"], RecvMessage(pull));
        Assert.Equal(["c"], RecvMessage(pull));
    }

    [Fact]
    public void Bind_NameAlreadyBoundInContext_Eaddrinuse()
    {
        string name = TestEndpoint.Inproc("taken");
        var first = Create(SocketType.Pull);
        first.Bind(name);
        var second = Create(SocketType.Pull);

        AssertZmqError(ZmqConstants.EADDRINUSE, () => second.Bind(name));
        AssertZmqError(ZmqConstants.EADDRINUSE, () => first.Bind(name));
    }

    [Fact]
    public void Bind_SecondBindRefused_FirstBinderStillServesTheName()
    {
        string name = TestEndpoint.Inproc("kept");
        var first = Create(SocketType.Pull);
        first.Bind(name);
        var second = Create(SocketType.Pull);
        AssertZmqError(ZmqConstants.EADDRINUSE, () => second.Bind(name));
        var push = Create(SocketType.Push);

        push.Connect(name);
        push.Send("to-first");

        Assert.Equal("to-first", first.RecvString());
        Assert.Null(TryRecvString(second, 0));
    }

    [Fact]
    public void Unbind_ThenAnotherSocketBindsTheName_NewConnectsReachIt()
    {
        string name = TestEndpoint.Inproc("moved");
        var first = Create(SocketType.Pull);
        first.Bind(name);
        first.Unbind(name);
        var second = Create(SocketType.Pull);

        second.Bind(name);
        var push = Create(SocketType.Push);
        push.Connect(name);
        push.Send("to-second");

        Assert.Equal("to-second", second.RecvString());
    }

    [Fact]
    public void Unbind_ThenRebindBySameSocket_NewConnectsReachIt()
    {
        string name = TestEndpoint.Inproc("rebind");
        var pull = Create(SocketType.Pull);
        pull.Bind(name);
        pull.Unbind(name);

        pull.Bind(name);
        var push = Create(SocketType.Push);
        push.Connect(name);
        push.Send("again");

        Assert.Equal("again", pull.RecvString());
        AssertZmqError(ZmqConstants.EADDRINUSE, () => Create(SocketType.Pull).Bind(name));
    }

    [Fact]
    public void Dispose_BinderClosed_NameFreeForAnotherBind()
    {
        string name = TestEndpoint.Inproc("freed");
        var first = Create(SocketType.Pull);
        first.Bind(name);

        first.Dispose();
        var second = Create(SocketType.Pull);
        second.Bind(name);

        var push = Create(SocketType.Push);
        push.Connect(name);
        push.Send("after-close");
        Assert.Equal("after-close", second.RecvString());
    }

    [Fact]
    public void Bind_SameNameInTwoContexts_EachContextIndependent()
    {
        string name = TestEndpoint.Inproc("scoped");
        var other = NewContext();
        var pullHere = Create(SocketType.Pull);
        var pullThere = Create(SocketType.Pull, other);
        pullHere.Bind(name);
        pullThere.Bind(name);
        var pushHere = Create(SocketType.Push);
        var pushThere = Create(SocketType.Push, other);
        pushHere.Connect(name);
        pushThere.Connect(name);

        pushHere.Send("here");
        pushThere.Send("there");

        Assert.Equal("here", pullHere.RecvString());
        Assert.Equal("there", pullThere.RecvString());
        Assert.Null(TryRecvString(pullHere, 0));
        Assert.Null(TryRecvString(pullThere, 0));
    }

    [Fact]
    public void Connect_NameBoundOnlyInAnotherContext_WaitsForABindInItsOwn()
    {
        string name = TestEndpoint.Inproc("elsewhere");
        var other = NewContext();
        var foreign = Create(SocketType.Pull, other);
        foreign.Bind(name);
        var push = Create(SocketType.Push);

        push.Connect(name);
        push.Send("mine");

        Assert.Null(TryRecvString(foreign, 100));
        var own = Create(SocketType.Pull);
        own.Bind(name);
        Assert.Equal("mine", own.RecvString());
    }

    [Theory]
    [InlineData(1, 1)]
    [InlineData(3, 5)]
    [InlineData(10, 1)]
    [InlineData(1000, 1000)]
    public void Send_PushToIdlePuller_TakesExactlySndhwmPlusRcvhwm(int sndhwm, int rcvhwm)
    {
        var (push, pull) = HwmPair(SocketType.Push, SocketType.Pull, sndhwm, rcvhwm);

        Assert.Equal(sndhwm + rcvhwm, SendUntilRefused(push));

        push.SetOption(SocketOption.Sndtimeo, 0);
        AssertZmqError(ZmqConstants.EAGAIN, () => push.Send("refused"));
        push.SetOption(SocketOption.Sndtimeo, 50);
        AssertZmqError(ZmqConstants.EAGAIN, () => push.Send("refused"));
        var received = DrainNow(pull);
        Assert.Equal(Enumerable.Range(0, sndhwm + rcvhwm).Select(i => $"m{i}"), received);
    }

    [Fact]
    public void Send_PushAtHwmOneMessageRead_ExactlyOneMoreAccepted()
    {
        var (push, pull) = HwmPair(SocketType.Push, SocketType.Pull, 2, 3);
        Assert.Equal(5, SendUntilRefused(push));

        Assert.Equal("m0", pull.RecvString());

        Assert.True(push.Send("next", SendFlags.DontWait));
        Assert.False(push.Send("over", SendFlags.DontWait));
    }

    [Fact]
    public void Send_PushMultipartAtHwm_CountsMessagesNotFrames()
    {
        var (push, pull) = HwmPair(SocketType.Push, SocketType.Pull, 1, 1);

        for (int i = 0; i < 2; i++)
        {
            Assert.True(push.Send($"{i}-a", SendFlags.SendMore | SendFlags.DontWait));
            Assert.True(push.Send($"{i}-b", SendFlags.SendMore));
            Assert.True(push.Send($"{i}-c"));
        }

        Assert.False(push.Send("over", SendFlags.DontWait));
        Assert.Equal(["0-a", "0-b", "0-c"], RecvMessage(pull));
        Assert.Equal(["1-a", "1-b", "1-c"], RecvMessage(pull));
    }

    [Fact]
    public async Task Send_PushBlockedAtHwm_ReturnsWhenPullerReads()
    {
        var (push, pull) = HwmPair(SocketType.Push, SocketType.Pull, 1, 1);
        Assert.Equal(2, SendUntilRefused(push));
        push.SetOption(SocketOption.Sndtimeo, -1);
        using var started = new ManualResetEventSlim();
        var blocked = Task.Run(() =>
        {
            started.Set();
            return push.Send("blocked");
        });
        Assert.True(started.Wait(TimeSpan.FromSeconds(10)));

        Assert.Equal("m0", pull.RecvString());

        Assert.True(await CompletesAsync(blocked, "Send blocked at the HWM was not released when the puller read"));
        Assert.Equal(["m1", "blocked"], new[] { pull.RecvString(), pull.RecvString() });
    }

    [Theory]
    [InlineData(3, 5)]
    [InlineData(1, 1000)]
    public void Send_ConnectBeforeBind_SndhwmUntilBoundThenSummed(int sndhwm, int rcvhwm)
    {
        string name = TestEndpoint.Inproc("hwm-early");
        var push = Create(SocketType.Push);
        push.SetOption(SocketOption.Sndhwm, sndhwm);
        push.Connect(name);

        // Exactly Sndhwm fit while nobody is bound (no refused send: that would park the writer, as in libzmq).
        for (int i = 0; i < sndhwm; i++)
        {
            Assert.True(push.Send($"m{i}", SendFlags.DontWait));
        }

        var pull = Create(SocketType.Pull);
        pull.SetOption(SocketOption.Rcvhwm, rcvhwm);
        pull.Bind(name);

        int more = 0;
        while (push.Send($"m{sndhwm + more}", SendFlags.DontWait))
        {
            more++;
        }

        Assert.Equal(rcvhwm, more);
        Assert.Equal(Enumerable.Range(0, sndhwm + rcvhwm).Select(i => $"m{i}"), DrainNow(pull));
    }

    [Theory]
    [InlineData(0, 5)]
    [InlineData(5, 0)]
    [InlineData(0, 0)]
    public void Send_EitherHwmZero_Unbounded(int sndhwm, int rcvhwm)
    {
        const int Messages = 20_000;
        var (push, pull) = HwmPair(SocketType.Push, SocketType.Pull, sndhwm, rcvhwm);

        Assert.Equal(Messages, SendUntilRefused(push, Messages));

        var received = DrainNow(pull);
        Assert.Equal(Messages, received.Count);
        Assert.Equal("m0", received[0]);
        Assert.Equal($"m{Messages - 1}", received[^1]);
    }

    [Theory]
    [InlineData(1, 1)]
    [InlineData(3, 5)]
    [InlineData(100, 28)]
    public void Send_PubToIdleSubscriber_DeliversExactlySndhwmPlusRcvhwmAndDropsTheRest(int sndhwm, int rcvhwm)
    {
        const int Published = 1000;
        var pub = Create(SocketType.Pub);
        var sub = Create(SocketType.Sub);
        pub.SetOption(SocketOption.Sndhwm, sndhwm);
        sub.SetOption(SocketOption.Rcvhwm, rcvhwm);
        pub.SetOption(SocketOption.Sndtimeo, -1);

        // Subscribed before the connect: the subscription is the first thing on the pipe, as in libzmq.
        sub.SubscribeAll();
        string name = TestEndpoint.Inproc("pub-hwm");
        pub.Bind(name);
        sub.Connect(name);

        for (int i = 0; i < Published; i++)
        {
            Assert.True(pub.Send($"m{i}", SendFlags.DontWait));
        }

        Assert.Equal(Enumerable.Range(0, sndhwm + rcvhwm).Select(i => $"m{i}"), DrainNow(sub));
    }

    [Fact]
    public void Send_PubHwmZero_DeliversEverything()
    {
        const int Published = 20_000;
        var pub = Create(SocketType.Pub);
        var sub = Create(SocketType.Sub);
        pub.SetOption(SocketOption.Sndhwm, 0);
        sub.SetOption(SocketOption.Rcvhwm, 0);
        sub.SubscribeAll();
        string name = TestEndpoint.Inproc("pub-unbounded");
        pub.Bind(name);
        sub.Connect(name);

        for (int i = 0; i < Published; i++)
        {
            pub.Send($"m{i}", SendFlags.DontWait);
        }

        var received = DrainNow(sub);
        Assert.Equal(Published, received.Count);
        Assert.Equal($"m{Published - 1}", received[^1]);
    }

    [Theory]
    [InlineData(true)]
    [InlineData(false)]
    public void Router_ConnectingDealerWithRoutingId_SeesItAndRepliesThroughIt(bool routerBindsFirst)
    {
        string name = TestEndpoint.Inproc("router");
        var router = Create(SocketType.Router);
        var dealer = Create(SocketType.Dealer);
        dealer.SetOption(SocketOption.Routing_Id, Support.Bytes.Of("dealer-7"));
        if (routerBindsFirst)
        {
            router.Bind(name);
            dealer.Connect(name);
        }
        else
        {
            dealer.Connect(name);
            dealer.Send("early");
            router.Bind(name);
            Assert.Equal(["dealer-7", "early"], RecvMessage(router));
        }

        dealer.Send("hello");
        Assert.Equal(["dealer-7", "hello"], RecvMessage(router));

        SendMessage(router, "dealer-7", "world");
        Assert.Equal(["world"], RecvMessage(dealer));
    }

    [Fact]
    public void Router_ConnectingToBoundDealerWithRoutingId_CanSendAtOnce()
    {
        // libzmq hands the binder's routing id to a connecting ROUTER during the connect itself.
        string name = TestEndpoint.Inproc("router-connects");
        var dealer = Create(SocketType.Dealer);
        dealer.SetOption(SocketOption.Routing_Id, Support.Bytes.Of("binder"));
        dealer.Bind(name);
        var router = Create(SocketType.Router);
        router.SetOption(SocketOption.Router_Mandatory, 1);
        router.Connect(name);

        Assert.True(router.Send("binder", SendFlags.SendMore | SendFlags.DontWait));
        Assert.True(router.Send("x"));

        Assert.Equal("x", dealer.RecvString());
        dealer.Send("back");
        Assert.Equal(["binder", "back"], RecvMessage(router));
    }

    [Fact]
    public void Router_TwoAnonymousDealers_DistinctGeneratedIdsRouteReplies()
    {
        string name = TestEndpoint.Inproc("router-anon");
        var router = Create(SocketType.Router);
        router.Bind(name);
        var dealers = new[] { Create(SocketType.Dealer), Create(SocketType.Dealer) };
        foreach (var dealer in dealers)
        {
            dealer.Connect(name);
        }

        dealers[0].Send("zero");
        var first = router.RecvMultipart();
        dealers[1].Send("one");
        var second = router.RecvMultipart();
        byte[] id0 = first[0].ToArray();
        byte[] id1 = second[0].ToArray();
        Assert.NotEmpty(id0);
        Assert.False(id0.AsSpan().SequenceEqual(id1), "two peers share a routing id");

        router.Send(id1, SendFlags.SendMore);
        router.Send("to-one");
        router.Send(id0, SendFlags.SendMore);
        router.Send("to-zero");

        Assert.Equal("to-one", dealers[1].RecvString());
        Assert.Equal("to-zero", dealers[0].RecvString());
    }

    [Theory]
    [InlineData(0)]
    [InlineData(-1)]
    public void Dispose_SenderClosedWithQueuedMessages_ReceiverGetsThemAll(int linger)
    {
        var (push, pull) = (Create(SocketType.Push), Create(SocketType.Pull));
        string name = TestEndpoint.Inproc("closed-peer");
        pull.Bind(name);
        push.SetOption(SocketOption.Linger, linger);
        push.Connect(name);
        SendMessage(push, "1", "1b");
        push.Send("2");
        push.Send("3");

        push.Dispose();

        Assert.Equal(["1", "1b"], RecvMessage(pull));
        Assert.Equal(["2"], RecvMessage(pull));
        Assert.Equal(["3"], RecvMessage(pull));
        Assert.Null(TryRecvString(pull, 0));
    }

    [Fact]
    public void Dispose_PairPeerClosed_QueuedRepliesStillReadable()
    {
        string name = TestEndpoint.Inproc("pair-closed");
        var a = Create(SocketType.Pair);
        var b = Create(SocketType.Pair);
        a.Bind(name);
        b.Connect(name);
        b.Send("ping");
        Assert.Equal("ping", a.RecvString());
        a.Send("pong");
        a.Send("bye");

        a.Dispose();

        Assert.Equal("pong", b.RecvString());
        Assert.Equal("bye", b.RecvString());
    }

    [Fact]
    public async Task ContextDispose_PendingConnectOfClosedSocketWithDefaultLinger_DeliveredToLaterBinder()
    {
        // libzmq: a socket closed with LINGER -1 keeps its unmatched inproc connect alive, and its
        // queued message reaches a socket that binds the name later in the same context.
        var context = NewContext();
        string name = TestEndpoint.Inproc("linger-pending");
        var push = new Socket(context, SocketType.Push);
        push.Connect(name);
        push.Send("lingered");
        push.Dispose();
        var pull = Create(SocketType.Pull, context);

        pull.Bind(name);

        Assert.Equal("lingered", TryRecvString(pull, Timeout));
        pull.Dispose();
        await CompletesAsync(Task.Run(() => { context.Dispose(); return true; }), "Context.Dispose hung after the lingering message went out");
    }

    private (Socket Sender, Socket Receiver) HwmPair(SocketType senderType, SocketType receiverType, int sndhwm, int rcvhwm)
    {
        var sender = Create(senderType);
        var receiver = Create(receiverType);
        sender.SetOption(SocketOption.Sndhwm, sndhwm);
        receiver.SetOption(SocketOption.Rcvhwm, rcvhwm);
        string name = TestEndpoint.Inproc("hwm");
        receiver.Bind(name);
        sender.Connect(name);
        return (sender, receiver);
    }
}
