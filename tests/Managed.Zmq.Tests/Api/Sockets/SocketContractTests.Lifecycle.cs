namespace Managed.Zmq.Tests.Api.Sockets;

/// <summary>
/// Endpoints and teardown: connect before bind, reconnect, Unbind,
/// Disconnect, Last_Endpoint, Shutdown and Dispose releasing blocked threads, Context.Dispose.
/// </summary>
public abstract partial class SocketContractTests
{
    [Fact]
    public void Connect_BeforeBind_MessagesFlowOnceBound()
    {
        string endpoint = UnusedEndpoint();
        var push = Create(SocketType.Push);
        push.Connect(endpoint);
        push.Send("early");

        var pull = Create(SocketType.Pull);
        pull.Bind(endpoint);

        Assert.Equal("early", pull.RecvString());
    }

    [Fact]
    public void Connect_BoundPeerDisposedAndRebound_Reconnects()
    {
        var push = Create(SocketType.Push);
        push.SetOption(SocketOption.Reconnect_Ivl, 10);
        var first = Create(SocketType.Pull);
        string endpoint = Bind(first);
        push.Connect(endpoint);
        push.Send("one");
        Assert.Equal("one", first.RecvString());

        first.Dispose();
        var second = Create(SocketType.Pull);
        second.Bind(endpoint);
        if (!IsNetworkTransport)
        {
            // inproc has no reconnect: the connect died with its binder, so connect to the new one.
            push.Connect(endpoint);
        }

        // A message sent into the dying connection may be lost, as in libzmq: retry until one arrives.
        var clock = System.Diagnostics.Stopwatch.StartNew();
        string? received = null;
        for (int i = 0; received is null && clock.ElapsedMilliseconds < Timeout; i++)
        {
            push.Send($"two-{i}");
            received = TryRecvString(second, 50);
        }

        Assert.NotNull(received);
        Assert.StartsWith("two-", received, StringComparison.Ordinal);
    }

    [Fact]
    public void Unbind_BoundEndpoint_SucceedsOnceThenEnoent()
    {
        var pull = Create(SocketType.Pull);
        string endpoint = Bind(pull);

        pull.Unbind(endpoint);

        AssertZmqError(ZmqConstants.ENOENT, () => pull.Unbind(endpoint));
    }

    [Fact]
    public void Unbind_NeverBound_Enoent()
    {
        var pull = Create(SocketType.Pull);
        Bind(pull);

        AssertZmqError(ZmqConstants.ENOENT, () => pull.Unbind(UnusedEndpoint()));
    }

    [Fact]
    public void Unbind_ThenBindSameEndpoint_Works()
    {
        var pull = Create(SocketType.Pull);
        string endpoint = Bind(pull);
        pull.Unbind(endpoint);

        pull.Bind(endpoint);
        var push = Create(SocketType.Push);
        push.Connect(endpoint);
        push.Send("again");

        Assert.Equal("again", pull.RecvString());
    }

    [Fact]
    public void Disconnect_NeverConnected_Enoent()
    {
        var push = Create(SocketType.Push);
        push.Connect(UnusedEndpoint());

        AssertZmqError(ZmqConstants.ENOENT, () => push.Disconnect(UnusedEndpoint()));
    }

    [Fact]
    public void Disconnect_OneOfTwoPeers_LaterMessagesGoToTheOther()
    {
        var push = Create(SocketType.Push);
        var kept = Create(SocketType.Pull);
        var dropped = Create(SocketType.Pull);
        string keptEndpoint = Bind(kept);
        string droppedEndpoint = Bind(dropped);
        push.Connect(keptEndpoint);
        push.Connect(droppedEndpoint);
        push.Send("a");
        push.Send("b");
        Assert.Equal("a", kept.RecvString());
        Assert.Equal("b", dropped.RecvString());

        push.Disconnect(droppedEndpoint);
        for (int i = 0; i < 4; i++)
        {
            push.Send($"after-{i}");
        }

        Assert.Equal(["after-0", "after-1", "after-2", "after-3"], Enumerable.Range(0, 4).Select(_ => kept.RecvString()).ToArray());
        AssertZmqError(ZmqConstants.ENOENT, () => push.Disconnect(droppedEndpoint));
    }

    [Fact]
    public void LastEndpoint_AfterBind_TransportFormat()
    {
        var pull = Create(SocketType.Pull);

        pull.Bind(Endpoint());

        AssertBoundEndpointFormat(pull.GetOptionString(SocketOption.Last_Endpoint));
    }

    [Fact]
    public void LastEndpoint_AfterConnect_ExactStringPassed()
    {
        var push = Create(SocketType.Push);
        string endpoint = UnusedEndpoint();

        push.Connect(endpoint);

        Assert.Equal(endpoint, push.GetOptionString(SocketOption.Last_Endpoint));
    }

    [Fact]
    public void LastEndpoint_TwoEphemeralBinds_Distinct()
    {
        var pull = Create(SocketType.Pull);

        string first = Bind(pull);
        string second = Bind(pull);

        Assert.NotEqual(first, second);
    }

    [Fact]
    public async Task Shutdown_RecvBlockedOnAnotherThread_ThrowsEterm()
    {
        var pull = Create(SocketType.Pull);
        Bind(pull);
        var blocked = Task.Run(() => Assert.Throws<ZmqException>(() => pull.RecvString()));

        Context.Shutdown();

        var ex = await CompletesAsync(blocked, "Recv was not released by Shutdown");
        Assert.Equal(ZmqConstants.ETERM, ex.ErrorNumber);
        AssertZmqError(ZmqConstants.ETERM, () => pull.Send("x"));
    }

    [Fact]
    public void Shutdown_ThenSetOrGetOption_ThrowsEterm()
    {
        // As libzmq, setting and reading options fail with ETERM once the socket has seen its context's shutdown.
        var pull = Create(SocketType.Pull);
        Bind(pull);

        Context.Shutdown();

        AssertZmqError(ZmqConstants.ETERM, () => pull.SetOption(SocketOption.Linger, 0));
        AssertZmqError(ZmqConstants.ETERM, () => pull.GetOption<int>(SocketOption.Linger));
        AssertZmqError(ZmqConstants.ETERM, () => pull.GetOptionString(SocketOption.Last_Endpoint));
    }

    [Fact]
    public void Shutdown_ThenUnbindDisconnectOrMonitor_ThrowsEterm()
    {
        // As libzmq: unbinding, disconnecting and (re)arming or stopping a monitor fail with ETERM after the shutdown.
        var pull = Create(SocketType.Pull);
        string bound = Bind(pull);
        var push = Create(SocketType.Push);
        push.Connect(bound);

        Context.Shutdown();

        AssertZmqError(ZmqConstants.ETERM, () => pull.Unbind(bound));
        AssertZmqError(ZmqConstants.ETERM, () => push.Disconnect(bound));
        AssertZmqError(ZmqConstants.ETERM, () => pull.Monitor(TestEndpoint.Inproc("after-shutdown"), SocketMonitorEvent.All));
        AssertZmqError(ZmqConstants.ETERM, () => pull.Monitor(null, SocketMonitorEvent.All));
    }

    [Fact]
    public void Shutdown_ThenNewSocket_ThrowsEterm()
    {
        Context.Shutdown();

        AssertZmqError(ZmqConstants.ETERM, () => new Socket(Context, SocketType.Pull).Dispose());
    }

    [Fact]
    public async Task Dispose_RecvBlockedOnAnotherThread_ThrowsObjectDisposed()
    {
        var pull = Create(SocketType.Pull);
        Bind(pull);
        var blocked = Task.Run(() => Record.Exception(() => pull.RecvString()));

        pull.Dispose();

        Assert.IsType<ObjectDisposedException>(await CompletesAsync(blocked, "Recv was not released by Dispose"));
    }

    [Fact]
    public void Dispose_Twice_NoThrowAndMembersThrowObjectDisposed()
    {
        var pull = Create(SocketType.Pull);

        pull.Dispose();
        pull.Dispose();

        Assert.Throws<ObjectDisposedException>(() => pull.RecvString());
        Assert.Throws<ObjectDisposedException>(() => pull.Bind(Endpoint()));
    }

    [Fact]
    public async Task ContextDispose_UndeliverableMessagesWithLingerZero_Returns()
    {
        var context = new Context();
        var push = new Socket(context, SocketType.Push);
        ConfigureTransport(push);
        push.SetOption(SocketOption.Linger, 0);
        push.Connect(UnusedEndpoint());
        push.Send("never delivered");
        push.Dispose();

        await CompletesAsync(Task.Run(context.Dispose), "Context.Dispose hung", 5);
    }

    [Fact]
    public async Task ContextDispose_DefaultLingerEverythingDelivered_Returns()
    {
        var context = new Context();
        var pull = new Socket(context, SocketType.Pull);
        ConfigureTransport(pull);
        pull.SetOption(SocketOption.Rcvtimeo, Timeout);
        pull.Bind(Endpoint());
        var push = new Socket(context, SocketType.Push);
        ConfigureTransport(push);
        push.Connect(pull.GetOptionString(SocketOption.Last_Endpoint));
        push.Send("delivered");
        Assert.Equal("delivered", pull.RecvString());
        push.Dispose();
        pull.Dispose();

        await CompletesAsync(Task.Run(context.Dispose), "Context.Dispose hung", 5);
    }

    [Fact]
    public async Task ContextDispose_DefaultLingerPendingMessageThenPeerBinds_DeliversThenReturns()
    {
        var context = new Context();
        string endpoint = UnusedEndpoint();
        var push = new Socket(context, SocketType.Push);
        ConfigureTransport(push);
        push.Connect(endpoint);
        push.Send("lingered");
        push.Dispose();

        // inproc names belong to one context, so there the binder lives in the lingering socket's context.
        var pull = Create(SocketType.Pull, IsNetworkTransport ? null : context);

        pull.Bind(endpoint);

        Assert.Equal("lingered", pull.RecvString());
        if (!IsNetworkTransport)
        {
            pull.Dispose();
        }

        await CompletesAsync(Task.Run(context.Dispose), "Context.Dispose hung after the lingering message went out", 5);
    }
}
