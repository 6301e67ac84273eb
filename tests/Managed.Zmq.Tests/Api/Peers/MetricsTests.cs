using System.Net;
using System.Net.Sockets;
using Managed.Zmq.Tests.Support;

namespace Managed.Zmq.Tests.Api.Peers;

/// <summary>
/// The <c>Managed.Zmq</c> meter seen through a <see cref="System.Diagnostics.Metrics.MeterListener"/>: every
/// instrument, tagged with the socket type and the endpoint.
/// </summary>
public sealed class MetricsTests : TransportSockets, IDisposable
{
    private readonly MetricsProbe _metrics = new();

    private (Socket Push, Socket Pull, string Endpoint) PushPull(string bindEndpoint, int hwm = 1000, int kernelBuffer = -1)
    {
        var pull = Create(SocketType.Pull);
        pull.SetOption(SocketOption.Rcvhwm, hwm);
        pull.SetOption(SocketOption.Rcvbuf, kernelBuffer);
        pull.Bind(bindEndpoint);
        string endpoint = pull.GetOptionString(SocketOption.Last_Endpoint);
        var push = Create(SocketType.Push);
        push.SetOption(SocketOption.Sndhwm, hwm);
        push.SetOption(SocketOption.Sndbuf, kernelBuffer);
        push.Connect(endpoint);
        return (push, pull, endpoint);
    }

    /// <summary>SO_SNDBUF / SO_RCVBUF for a pair whose kernel buffers must fill: the kernel's least.</summary>
    private const int KernelBuffer = 4096;

    [Theory]
    [InlineData(Transport.Tcp, 2)]
    [InlineData(Transport.Inproc, 0)]
    public void Traffic_PushToPull_MessagesAndBytesBothWays(Transport transport, int headerBytes)
    {
        var (push, pull, endpoint) = PushPull(TestEndpoint.For(transport, "metrics"));
        var payload = new byte[100];

        // Counters are kept per socket type and endpoint for the process's life, so an earlier test's socket
        // on a port the OS has handed out again already counted under the same tags: measure from here.
        long sentBefore = _metrics.Observe("zmq.socket.messages.sent", "PUSH", endpoint);
        long bytesSentBefore = _metrics.Observe("zmq.socket.bytes.sent", "PUSH", endpoint);
        long receivedBefore = _metrics.Observe("zmq.socket.messages.received", "PULL", endpoint);
        long bytesReceivedBefore = _metrics.Observe("zmq.socket.bytes.received", "PULL", endpoint);

        for (int i = 0; i < 10; i++)
        {
            Assert.True(push.Send(payload));
        }

        for (int i = 0; i < 10; i++)
        {
            Assert.Equal(100, pull.RecvBytes().Length);
        }

        long expectedBytes = 10 * (headerBytes + payload.Length);
        Eventually.True(() => _metrics.Observe("zmq.socket.messages.sent", "PUSH", endpoint) - sentBefore == 10, "PUSH counted 10 messages sent");
        Assert.Equal(expectedBytes, _metrics.Observe("zmq.socket.bytes.sent", "PUSH", endpoint) - bytesSentBefore);
        Assert.Equal(10, _metrics.Observe("zmq.socket.messages.received", "PULL", endpoint) - receivedBefore);
        Assert.Equal(expectedBytes, _metrics.Observe("zmq.socket.bytes.received", "PULL", endpoint) - bytesReceivedBefore);

        // Closed sockets' counts stay: a counter never goes back.
        push.Dispose();
        pull.Dispose();
        Assert.Equal(10, _metrics.Observe("zmq.socket.messages.sent", "PUSH", endpoint) - sentBefore);
        Assert.Equal(10, _metrics.Observe("zmq.socket.messages.received", "PULL", endpoint) - receivedBefore);
    }

    [Fact]
    public void Dropped_PubAtHwm_CountsEachDroppedMessage()
    {
        string name = TestEndpoint.Inproc("pubdrop");
        var pub = Create(SocketType.Pub);
        pub.SetOption(SocketOption.Sndhwm, 2);
        pub.Bind(name);
        var sub = Create(SocketType.Sub);
        sub.SetOption(SocketOption.Rcvhwm, 2);
        sub.Connect(name);
        sub.Subscribe(""u8.ToArray());

        // The subscription travels to the PUB asynchronously: probe until one message gets through.
        Eventually.True(() =>
        {
            pub.Send("probe");
            return TryRecvString(sub, 10) is not null;
        }, "the subscription reached the PUB");
        DrainNow(sub);
        long before = _metrics.Observe("zmq.socket.messages.dropped", "PUB", name);

        // inproc capacity is SNDHWM + RCVHWM = 4 messages; the SUB reads nothing.
        for (int i = 0; i < 10; i++)
        {
            Assert.True(pub.Send($"m{i}"));
        }

        Assert.Equal(6, _metrics.Observe("zmq.socket.messages.dropped", "PUB", name) - before);
        Assert.Equal(4, DrainNow(sub).Count);
    }

    [Fact]
    public void Dropped_RouterAtHwmWithoutMandatory_Counted()
    {
        string name = TestEndpoint.Inproc("routerdrop");
        var router = Create(SocketType.Router);
        router.SetOption(SocketOption.Sndhwm, 1);
        router.Bind(name);
        var dealer = Create(SocketType.Dealer);
        dealer.SetOption(SocketOption.Rcvhwm, 1);
        dealer.SetOption(SocketOption.Routing_Id, "d");
        dealer.Connect(name);
        dealer.Send("hi");
        Assert.Equal(["d", "hi"], RecvMessage(router));

        for (int i = 0; i < 5; i++)
        {
            SendMessage(router, "d", $"m{i}");
        }

        Assert.Equal(3, _metrics.Observe("zmq.socket.messages.dropped", "ROUTER", name));
        Assert.Equal(3, Assert.Single(router.GetPeers()).MessagesDropped);
    }

    [Fact]
    public void SendsBlocked_NoPeer_CountedPerSend()
    {
        var dealer = Create(SocketType.Dealer);
        long before = _metrics.ObserveType("zmq.socket.sends.blocked", "DEALER");

        for (int i = 0; i < 3; i++)
        {
            Assert.False(dealer.Send("x", SendFlags.DontWait));
        }

        // Other tests' DEALERs may block meanwhile: at least ours are counted.
        Assert.True(_metrics.ObserveType("zmq.socket.sends.blocked", "DEALER") - before >= 3);
    }

    [Theory]
    [InlineData(SocketType.Dealer)]
    [InlineData(SocketType.Client)]
    public void SendsBlocked_WaitUntilTimeout_CountedOncePerSend(SocketType type)
    {
        // A waiting send retries many times before SNDTIMEO ends it; the thread-safe types retry under their lock.
        var socket = Create(type);
        socket.SetOption(SocketOption.Sndtimeo, 20);
        long before = socket.Core.Meters.BlockedSends;

        var error = Assert.Throws<ZmqException>(() => socket.Send("x"));
        Assert.Equal(ZmqConstants.EAGAIN, error.ErrorNumber);

        Assert.Equal(before + 1, socket.Core.Meters.BlockedSends);
    }

    [Fact]
    public void QueueDepth_StalledPull_BothQueuesReachHwm()
    {
        const int hwm = 10;

        // Small kernel buffers fill in a few rounds. With the defaults (megabytes on loopback) each round below sends
        // about ten messages, and late in a full run, when a collection of every instrument takes long, 30 s of rounds
        // did not fill them once.
        var (push, pull, endpoint) = PushPull("tcp://127.0.0.1:*", hwm, KernelBuffer);
        var payload = new byte[1000];
        Assert.True(push.Send(payload));
        Assert.Equal(payload.Length, pull.RecvBytes().Length);

        // Nobody reads: the PULL's queue fills, then the kernel buffers, then the PUSH's queue. A refused send
        // says the queue passed its resume level (libzmq's low-water mark) since it last drained there.
        Eventually.True(() =>
        {
            while (push.Send(payload, SendFlags.DontWait))
            {
            }

            // Until the kernel buffers are full the write loop may still drain it, so both are read together.
            return _metrics.Observe("zmq.socket.queue.outbound.messages", "PUSH", endpoint) > hwm / 2
                && _metrics.Observe("zmq.socket.queue.outbound.bytes", "PUSH", endpoint) > 0;
        }, "the PUSH's outbound queue shows above its low-water mark");
        Eventually.True(
            () => _metrics.Observe("zmq.socket.queue.inbound.messages", "PULL", endpoint) >= hwm
                && _metrics.Observe("zmq.socket.queue.inbound.bytes", "PULL", endpoint) >= hwm * payload.Length,
            "the PULL's inbound queue reached RCVHWM");
    }

    [Fact]
    public void Connections_ConnectThenLeave_OpenedOnBothSidesClosedOnTheServer()
    {
        var (push, pull, endpoint) = PushPull("tcp://127.0.0.1:*");
        push.Send("x");
        Assert.Equal("x", pull.RecvString());

        Eventually.True(() => _metrics.Counted("zmq.socket.connections.opened", "PULL", endpoint) == 1, "the PULL counted the accepted connection");
        Eventually.True(() => _metrics.Counted("zmq.socket.connections.opened", "PUSH", endpoint) == 1, "the PUSH counted its connection");
        push.Dispose();
        Eventually.True(() => _metrics.Counted("zmq.socket.connections.closed", "PULL", endpoint) == 1, "the PULL counted the connection's end");
    }

    [Fact]
    public void ReconnectAttempts_NobodyListens_Counted()
    {
        var gone = Create(SocketType.Pull);
        gone.Bind("tcp://127.0.0.1:*");
        string endpoint = gone.GetOptionString(SocketOption.Last_Endpoint);
        gone.Unbind(endpoint);
        var push = Create(SocketType.Push);
        push.SetOption(SocketOption.Reconnect_Ivl, 10);

        push.Connect(endpoint);

        Eventually.True(() => _metrics.Counted("zmq.socket.reconnect.attempts", "PUSH", endpoint) >= 2, "the PUSH counted its retries");
    }

    [Fact]
    public void HandshakeFailures_SilentPeer_CountedAsTimeout()
    {
        var pull = Create(SocketType.Pull);
        pull.SetOption(SocketOption.Handshake_Ivl, 50);
        pull.Bind("tcp://127.0.0.1:*");
        string endpoint = pull.GetOptionString(SocketOption.Last_Endpoint);
        using var silent = new TcpClient();

        silent.Connect(IPAddress.Loopback, RawPeer.PortOf(endpoint));

        Eventually.True(() => _metrics.Counted("zmq.socket.handshake.failures", "PULL", endpoint, "error.type=timeout") == 1, "the PULL counted the handshake that timed out");
    }

    [Fact]
    public void Instruments_ListenerAttached_AllPublished()
    {
        var (push, pull, _) = PushPull(TestEndpoint.Inproc("all"));
        push.Send("x");
        pull.RecvString();

        _metrics.ObserveType("zmq.socket.sends.blocked", "PUSH");

        string[] observable =
        [
            "zmq.socket.messages.sent", "zmq.socket.messages.received", "zmq.socket.bytes.sent", "zmq.socket.bytes.received",
            "zmq.socket.messages.dropped", "zmq.socket.sends.blocked", "zmq.socket.queue.inbound.messages",
            "zmq.socket.queue.inbound.bytes", "zmq.socket.queue.outbound.messages", "zmq.socket.queue.outbound.bytes",
        ];
        lock (_metrics.Published)
        {
            Assert.All(observable, name => Assert.Contains(name, _metrics.Published));
        }
    }

    [Fact]
    public void RetiredSeries_SocketPastItsLimit_OldestEndpointsFoldIntoOverflowSeries()
    {
        int limit = Internal.Tuning.Metrics.RetiredSeriesPerSocket;
        const int Extra = 5;
        var push = Create(SocketType.Push);
        long overflowBefore = _metrics.ObserveOverflow("zmq.socket.messages.sent", "PUSH");
        var endpoints = new List<string>();

        // Each endpoint gets one message, then goes: its pipe retires into the PUSH socket's totals.
        for (int i = 0; i < limit + Extra; i++)
        {
            string endpoint = TestEndpoint.Inproc("fold");
            endpoints.Add(endpoint);
            var pull = Create(SocketType.Pull);
            pull.Bind(endpoint);
            push.Connect(endpoint);
            push.Send("x");
            Assert.Equal("x", pull.RecvString());
            push.Disconnect(endpoint);
            pull.Dispose();
        }

        var totals = new Dictionary<string, Managed.Zmq.Diagnostics.PipeTotals>();
        Eventually.True(
            () =>
            {
                totals = MetricsProbe.SocketTotals(push);
                return totals.Values.Sum(t => t.MessagesSent) == limit + Extra && totals.Count == limit + 1;
            },
            "every endpoint's pipe retired into the socket's totals");
        Assert.Equal(Extra, totals[Managed.Zmq.Diagnostics.ZmqMetrics.OverflowEndpoint].MessagesSent);
        Assert.All(endpoints.Take(Extra), folded => Assert.False(totals.ContainsKey(folded), $"{folded} was folded"));
        Assert.All(endpoints.Skip(Extra), kept => Assert.Equal(1, totals[kept].MessagesSent));
        Assert.Equal(1, _metrics.Observe("zmq.socket.messages.sent", "PUSH", endpoints[^1]));
        Assert.True(
            _metrics.ObserveOverflow("zmq.socket.messages.sent", "PUSH") - overflowBefore >= Extra,
            "the overflow series took the folded endpoints' messages");

        // Closed, the socket's overflow joins the process's: the overflow series does not go back.
        push.Dispose();
        Assert.True(
            _metrics.ObserveOverflow("zmq.socket.messages.sent", "PUSH") - overflowBefore >= Extra,
            "the overflow series kept the folded endpoints' messages after the socket closed");
    }

    void IDisposable.Dispose()
    {
        _metrics.Dispose();
        Dispose();
    }
}
