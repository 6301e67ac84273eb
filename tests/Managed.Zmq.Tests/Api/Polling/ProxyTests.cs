using System.Buffers.Binary;

namespace Managed.Zmq.Tests.Api.Polling;

/// <summary>Proxy: forwarding both ways, capture copies, steering commands, ETERM on shutdown.</summary>
public class ProxyTests
{
    [Fact]
    public void Start_NullArguments_ThrowAne()
    {
        using var context = new Context();
        using var socket = PollingSockets.Open(context, SocketType.Pair);
        Assert.Equal("frontend", Assert.Throws<ArgumentNullException>(() => Proxy.Start(null!, socket)).ParamName);
        Assert.Equal("backend", Assert.Throws<ArgumentNullException>(() => Proxy.Start(socket, null!)).ParamName);
        Assert.Equal("frontend", Assert.Throws<ArgumentNullException>(() => Proxy.StartSteerable(null!, socket, socket)).ParamName);
        Assert.Equal("backend", Assert.Throws<ArgumentNullException>(() => Proxy.StartSteerable(socket, null!, socket)).ParamName);
        Assert.Equal("control", Assert.Throws<ArgumentNullException>(() => Proxy.StartSteerable(socket, socket, null!)).ParamName);
    }

    [Fact]
    public async Task Start_PushToPull_ForwardsMultipartAndEndsWithEtermOnShutdown()
    {
        using var context = new Context();
        using var frontend = PollingSockets.Open(context, SocketType.Pull);
        using var backend = PollingSockets.Open(context, SocketType.Push);
        using var client = PollingSockets.Open(context, SocketType.Push);
        using var worker = PollingSockets.Open(context, SocketType.Pull);
        client.Connect(TestEndpoint.Bind(frontend, Transport.Tcp));
        worker.Connect(TestEndpoint.Bind(backend, Transport.Ipc));
        worker.SetOption(SocketOption.Rcvtimeo, (int)PollingSockets.WaitLimit.TotalMilliseconds);
        var proxy = RunProxy(() => Proxy.Start(frontend, backend));

        for (int i = 0; i < 10; i++)
        {
            client.SendMultipart($"job {i}", string.Empty, "tail");
        }

        for (int i = 0; i < 10; i++)
        {
            using var message = worker.RecvMultipart();
            Assert.Equal(new[] { $"job {i}", string.Empty, "tail" }, message.Select(m => m.ToString()));
        }

        context.Shutdown();
        var exception = await Assert.ThrowsAsync<ZmqException>(() => proxy.WaitAsync(PollingSockets.WaitLimit));
        Assert.Equal(ZmqConstants.ETERM, exception.ErrorNumber);
    }

    [Fact]
    public async Task Start_RouterDealer_ForwardsRequestsAndReplies()
    {
        using var context = new Context();
        using var frontend = PollingSockets.Open(context, SocketType.Router);
        using var backend = PollingSockets.Open(context, SocketType.Dealer);
        string frontendEndpoint = TestEndpoint.Bind(frontend, Transport.Tcp);
        string backendEndpoint = TestEndpoint.Bind(backend, Transport.Inproc);
        var proxy = RunProxy(() => Proxy.Start(frontend, backend));

        using var worker = PollingSockets.Open(context, SocketType.Rep);
        worker.Connect(backendEndpoint);
        var clients = Enumerable.Range(0, 3).Select(_ => PollingSockets.Open(context, SocketType.Req)).ToList();
        try
        {
            foreach (var client in clients)
            {
                client.Connect(frontendEndpoint);
                client.SetOption(SocketOption.Rcvtimeo, (int)PollingSockets.WaitLimit.TotalMilliseconds);
            }

            worker.SetOption(SocketOption.Rcvtimeo, (int)PollingSockets.WaitLimit.TotalMilliseconds);
            for (int round = 0; round < 3; round++)
            {
                for (int i = 0; i < clients.Count; i++)
                {
                    clients[i].Send($"request {i}.{round}");
                    string request = worker.RecvString();
                    worker.Send(request.Replace("request", "reply", StringComparison.Ordinal));
                    Assert.Equal($"reply {i}.{round}", clients[i].RecvString());
                }
            }
        }
        finally
        {
            foreach (var client in clients)
            {
                client.Dispose();
            }
        }

        context.Shutdown();
        await Assert.ThrowsAsync<ZmqException>(() => proxy.WaitAsync(PollingSockets.WaitLimit));
    }

    [Fact]
    public async Task Start_WithCapture_CopiesEveryFrameWithMoreFlags()
    {
        using var context = new Context();
        using var frontend = PollingSockets.Open(context, SocketType.Pull);
        using var backend = PollingSockets.Open(context, SocketType.Push);
        using var capture = PollingSockets.Open(context, SocketType.Push);
        using var client = PollingSockets.Open(context, SocketType.Push);
        using var worker = PollingSockets.Open(context, SocketType.Pull);
        using var tap = PollingSockets.Open(context, SocketType.Pull);
        client.Connect(TestEndpoint.Bind(frontend, Transport.Inproc));
        worker.Connect(TestEndpoint.Bind(backend, Transport.Inproc));
        tap.Connect(TestEndpoint.Bind(capture, Transport.Inproc));
        worker.SetOption(SocketOption.Rcvtimeo, (int)PollingSockets.WaitLimit.TotalMilliseconds);
        tap.SetOption(SocketOption.Rcvtimeo, (int)PollingSockets.WaitLimit.TotalMilliseconds);
        var proxy = RunProxy(() => Proxy.Start(frontend, backend, capture));

        client.SendMultipart("a", "b");
        client.Send("c");
        using (var forwarded = worker.RecvMultipart())
        {
            Assert.Equal(new[] { "a", "b" }, forwarded.Select(m => m.ToString()));
        }

        Assert.Equal("c", worker.RecvString());
        using (var copied = tap.RecvMultipart())
        {
            Assert.Equal(new[] { "a", "b" }, copied.Select(m => m.ToString()));
        }

        Assert.Equal("c", tap.RecvString());
        Assert.False(tap.HasMore);

        context.Shutdown();
        await Assert.ThrowsAsync<ZmqException>(() => proxy.WaitAsync(PollingSockets.WaitLimit));
    }

    [Fact]
    public async Task StartSteerable_Terminate_ReturnsNormally()
    {
        using var context = new Context();
        using var proxySockets = new SteerableSetup(context, SocketType.Pair);
        var proxy = proxySockets.Run();
        proxySockets.Steer.Send("TERMINATE");
        await proxy.WaitAsync(PollingSockets.WaitLimit);
    }

    [Fact]
    public async Task StartSteerable_PauseAndResume_HoldsThenForwards()
    {
        using var context = new Context();
        using var setup = new SteerableSetup(context, SocketType.Pair);
        var proxy = setup.Run();

        setup.Client.Send("before");
        Assert.Equal("before", setup.Worker.RecvString());

        setup.Steer.Send("PAUSE");

        // The STATISTICS reply proves PAUSE was handled before the next message is sent.
        setup.Steer.Send("STATISTICS");
        Assert.Equal(8, ReadStatistics(setup.Steer).Length);
        setup.Client.Send("held");
        using (var poller = new Poller(1))
        {
            poller.Add(setup.Worker, PollEvents.In);
            Assert.Equal(0, poller.Poll(200));
        }

        setup.Steer.Send("RESUME");
        Assert.Equal("held", setup.Worker.RecvString());

        setup.Steer.Send("TERMINATE");
        await proxy.WaitAsync(PollingSockets.WaitLimit);
    }

    [Fact]
    public async Task StartSteerable_Statistics_ReportsEightLittleEndianCounters()
    {
        using var context = new Context();
        using var setup = new SteerableSetup(context, SocketType.Pair);
        var proxy = setup.Run();

        setup.Client.SendMultipart("ab", "cde");
        setup.Client.Send("f");
        using (var first = setup.Worker.RecvMultipart())
        {
            Assert.Equal(2, first.Count);
        }

        Assert.Equal("f", setup.Worker.RecvString());

        setup.Steer.Send("STATISTICS");
        ulong[] values = ReadStatistics(setup.Steer);

        // Frontend: 2 messages (6 bytes) in, nothing out. Backend: nothing in, 2 messages (6 bytes) out.
        Assert.Equal(new ulong[] { 2, 6, 0, 0, 0, 0, 2, 6 }, values);

        setup.Steer.Send("TERMINATE");
        await proxy.WaitAsync(PollingSockets.WaitLimit);
    }

    [Fact]
    public async Task StartSteerable_UnknownCommand_Ignored()
    {
        using var context = new Context();
        using var setup = new SteerableSetup(context, SocketType.Pair);
        var proxy = setup.Run();
        setup.Steer.Send("FLY");
        setup.Steer.Send("STATISTICS");
        Assert.Equal(8, ReadStatistics(setup.Steer).Length);
        setup.Client.Send("still forwarding");
        Assert.Equal("still forwarding", setup.Worker.RecvString());
        setup.Steer.Send("TERMINATE");
        await proxy.WaitAsync(PollingSockets.WaitLimit);
    }

    [Fact]
    public async Task StartSteerable_RepControl_AnswersEveryCommand()
    {
        using var context = new Context();
        using var setup = new SteerableSetup(context, SocketType.Rep);
        var proxy = setup.Run();
        setup.Steer.Send("PAUSE");
        Assert.Equal(string.Empty, setup.Steer.RecvString());
        setup.Steer.Send("RESUME");
        Assert.Equal(string.Empty, setup.Steer.RecvString());
        setup.Steer.Send("STATISTICS");
        Assert.Equal(8, ReadStatistics(setup.Steer).Length);
        setup.Steer.Send("TERMINATE");
        Assert.Equal(string.Empty, setup.Steer.RecvString());
        await proxy.WaitAsync(PollingSockets.WaitLimit);
    }

    [Fact]
    public async Task StartSteerable_ContextShutdown_ThrowsEterm()
    {
        using var context = new Context();
        using var setup = new SteerableSetup(context, SocketType.Pair);
        var proxy = setup.Run();
        setup.Steer.Send("PAUSE");
        setup.Steer.Send("STATISTICS");
        ReadStatistics(setup.Steer);
        context.Shutdown();
        var exception = await Assert.ThrowsAsync<ZmqException>(() => proxy.WaitAsync(PollingSockets.WaitLimit));
        Assert.Equal(ZmqConstants.ETERM, exception.ErrorNumber);
    }

    [Fact]
    public async Task Start_BackendWithoutPeer_KeepsMessagesQueuedUntilWorkerConnects()
    {
        using var context = new Context();
        using var setup = new SteerableSetup(context, SocketType.Pair, connectWorker: false);
        var proxy = setup.Run();
        setup.Client.Send("waiting");
        setup.Steer.Send("STATISTICS");
        ReadStatistics(setup.Steer);

        // The proxy never blocks in a send: steering still works while the backend has no peer.
        setup.ConnectWorker();
        Assert.Equal("waiting", setup.Worker.RecvString());
        setup.Steer.Send("TERMINATE");
        await proxy.WaitAsync(PollingSockets.WaitLimit);
    }

    private static ulong[] ReadStatistics(Socket steer)
    {
        using var reply = steer.RecvMultipart();
        Assert.Equal(8, reply.Count);
        return reply.Select(frame =>
        {
            Assert.Equal(8, frame.Size);
            return BinaryPrimitives.ReadUInt64LittleEndian(frame.Data);
        }).ToArray();
    }

    private static Task RunProxy(Action proxy) => Task.Factory.StartNew(proxy, TaskCreationOptions.LongRunning);

    /// <summary>PULL frontend, PUSH backend and a control socket, with a client, a worker and a steering peer.</summary>
    private sealed class SteerableSetup : IDisposable
    {
        private readonly Socket _frontend;
        private readonly Socket _backend;
        private readonly Socket _control;
        private readonly string _backendEndpoint;

        public SteerableSetup(Context context, SocketType controlType, bool connectWorker = true)
        {
            _frontend = PollingSockets.Open(context, SocketType.Pull);
            _backend = PollingSockets.Open(context, SocketType.Push);
            _control = PollingSockets.Open(context, controlType);
            Client = PollingSockets.Open(context, SocketType.Push);
            Worker = PollingSockets.Open(context, SocketType.Pull);
            Steer = PollingSockets.Open(context, controlType == SocketType.Rep ? SocketType.Req : SocketType.Pair);
            Client.Connect(TestEndpoint.Bind(_frontend, Transport.Tcp));
            _backendEndpoint = TestEndpoint.Bind(_backend, Transport.Inproc);
            Steer.Connect(TestEndpoint.Bind(_control, Transport.Inproc));
            int limit = (int)PollingSockets.WaitLimit.TotalMilliseconds;
            Worker.SetOption(SocketOption.Rcvtimeo, limit);
            Steer.SetOption(SocketOption.Rcvtimeo, limit);
            if (connectWorker)
            {
                ConnectWorker();
            }
        }

        public Socket Client { get; }

        public Socket Worker { get; }

        public Socket Steer { get; }

        public void ConnectWorker() => Worker.Connect(_backendEndpoint);

        public Task Run() => RunProxy(() => Proxy.StartSteerable(_frontend, _backend, _control));

        public void Dispose()
        {
            foreach (var socket in new[] { Client, Worker, Steer, _frontend, _backend, _control })
            {
                socket.Dispose();
            }
        }
    }
}
