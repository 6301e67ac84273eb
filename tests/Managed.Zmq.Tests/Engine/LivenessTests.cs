using System.Diagnostics;
using System.Text;
using Managed.Zmq.Tests.Support;

namespace Managed.Zmq.Tests.Engine;

/// <summary>
/// Connections that must die, and sockets that must come back: heartbeats (docs/libzmq-behaviour.md L13, libzmq
/// test_heartbeats), the handshake timer (docs/libzmq-behaviour.md L14, test_stream_timeout), MAXMSGSIZE (docs/libzmq-behaviour.md L10),
/// connect timeout and reconnect backoff (docs/libzmq-behaviour.md L15, test_reconnect_ivl), IMMEDIATE (test_immediate),
/// and linger on disposal.
/// </summary>
public sealed class LivenessTests : ResilienceFixture
{
    [Fact]
    public void Heartbeat_SilentPeerAfterHandshake_DroppedNotBeforeTimeout()
    {
        var server = Create(SocketType.Dealer);
        server.SetOption(SocketOption.Heartbeat_Ivl, 50);
        server.SetOption(SocketOption.Heartbeat_Timeout, 200);
        using var monitor = Monitor(server);
        int port = RawPeer.PortOf(BindTcp(server));
        using var peer = RawPeer.Connect(port);

        // The server's heartbeat timers start when its handshake completes, which needs the READY sent below: a clock
        // started before that can only overstate the time to the drop, never understate it as one started on seeing
        // HANDSHAKE_SUCCEEDED (delivered late on a loaded machine) could.
        var clock = Stopwatch.StartNew();
        peer.CompleteNullHandshake("DEALER");
        monitor.WaitFor(MonitorProbe.HandshakeSucceeded);

        // The peer now says nothing, PONG included.
        Assert.True(peer.WaitUntilClosed(ServeDeadline), "a peer that never answers PING is dropped");

        Assert.True(clock.ElapsedMilliseconds >= 150, $"dropped after {clock.ElapsedMilliseconds} ms, before HEARTBEAT_TIMEOUT could run out");
        monitor.WaitFor(SocketMonitorEvent.Disconnected);
    }

    [Fact]
    public void Heartbeat_TimeoutDefaultsToIvl_SilentPeerDropped()
    {
        var server = Create(SocketType.Dealer);
        server.SetOption(SocketOption.Heartbeat_Ivl, 100);
        using var monitor = Monitor(server);
        int port = RawPeer.PortOf(BindTcp(server));
        using var peer = RawPeer.Connect(port);
        peer.CompleteNullHandshake("DEALER");

        Assert.True(peer.WaitUntilClosed(ServeDeadline), "HEARTBEAT_TIMEOUT defaults to HEARTBEAT_IVL");
        monitor.WaitFor(SocketMonitorEvent.Disconnected);
    }

    [Fact]
    public void Heartbeat_ConnectingSocketPeerGoesSilent_Reconnects()
    {
        using var listener = new RawListener();
        var client = Create(SocketType.Dealer);
        client.SetOption(SocketOption.Heartbeat_Ivl, 50);
        client.SetOption(SocketOption.Heartbeat_Timeout, 150);
        client.SetOption(SocketOption.Reconnect_Ivl, 20);
        using var monitor = Monitor(client);
        client.Connect(listener.Endpoint);

        using var first = listener.Accept();
        first.CompleteNullHandshake("ROUTER");
        Assert.True(first.WaitUntilClosed(ServeDeadline), "the silent server connection is dropped");

        using var second = listener.Accept(ServeDeadline);
        second.CompleteNullHandshake("ROUTER");
        monitor.WaitFor(SocketMonitorEvent.ConnectRetried);

        // Events are read in order: the CONNECTED after the retry is the second connection's.
        monitor.WaitFor(SocketMonitorEvent.Connected);
        Assert.Equal(2, monitor.Count(SocketMonitorEvent.Connected));
    }

    [Fact]
    public void Heartbeat_PingWithTtlAndContext_AnsweredWithPongCarryingContext()
    {
        var server = Create(SocketType.Dealer);
        int port = RawPeer.PortOf(BindTcp(server));
        using var peer = RawPeer.Connect(port);
        peer.CompleteNullHandshake("DEALER");

        peer.Send(ZmtpBytes.Ping(100, "LOL"u8));

        // RFC 37 / libzmq test_heartbeats: 04 0a 04 PING 00 64 LOL → 04 08 04 PONG LOL.
        var (flags, body) = peer.ReadFrame();
        Assert.Equal(ZmtpBytes.FlagCommand, flags);
        Assert.Equal("\u0004PONGLOL", Encoding.ASCII.GetString(body));
    }

    [Fact]
    public void Heartbeat_PingContextLongerThan16_PongCarriesFirst16()
    {
        var server = Create(SocketType.Dealer);
        int port = RawPeer.PortOf(BindTcp(server));
        using var peer = RawPeer.Connect(port);
        peer.CompleteNullHandshake("DEALER");
        byte[] context = Enumerable.Range(0, 65).Select(i => (byte)('A' + (i % 26))).ToArray();

        peer.Send(ZmtpBytes.Ping(0, context));

        var (_, body) = peer.ReadFrame();
        Assert.Equal(Encoding.ASCII.GetBytes("\u0004PONG").Concat(context.Take(16)).ToArray(), body);
    }

    [Fact]
    public void Heartbeat_PeerTtlRunsOut_PeerDropped()
    {
        var server = Create(SocketType.Dealer);
        using var monitor = Monitor(server);
        int port = RawPeer.PortOf(BindTcp(server));
        using var peer = RawPeer.Connect(port);
        peer.CompleteNullHandshake("DEALER");

        // TTL 2 ds: the peer says it will be dead if we hear nothing from it for 200 ms.
        peer.Send(ZmtpBytes.Ping(2, default));

        Assert.True(peer.WaitUntilClosed(ServeDeadline), "no traffic for the peer's TTL drops the connection");
        monitor.WaitFor(SocketMonitorEvent.Disconnected);
    }

    [Fact]
    public void HandshakeIvl_PeerNeverFinishesHandshake_FailedNoDetailThenDisconnected()
    {
        var server = Create(SocketType.Pull);
        server.SetOption(SocketOption.Handshake_Ivl, 150);
        using var monitor = Monitor(server);
        int port = RawPeer.PortOf(BindTcp(server));
        using var peer = RawPeer.Connect(port);

        // A whole greeting, then nothing: the mechanism never becomes ready.
        peer.Send(ZmtpBytes.Greeting());

        Assert.True(peer.WaitUntilClosed(ServeDeadline));
        var failed = monitor.WaitFor(MonitorProbe.HandshakeFailedNoDetail);
        Assert.Equal(ZmqConstants.EAGAIN, failed.Value);
        monitor.WaitFor(SocketMonitorEvent.Disconnected);
        AssertServesGoodClient(server, $"tcp://127.0.0.1:{port}");
    }

    [Fact]
    public void Maxmsgsize_HeaderAnnouncesLargerFrame_DroppedBeforeBodyArrives()
    {
        var server = Create(SocketType.Pull);
        server.SetOption(SocketOption.Maxmsgsize, 1024L);
        using var monitor = Monitor(server);
        string endpoint = BindTcp(server);
        using var peer = RawPeer.Connect(RawPeer.PortOf(endpoint));
        peer.CompleteNullHandshake("PUSH");

        // Only the header: 1 MB announced, not one octet of it sent.
        peer.Send(ZmtpBytes.LongHeader(1 << 20));

        Assert.True(peer.WaitUntilClosed(ServeDeadline), "a frame over MAXMSGSIZE closes the connection at its header");
        monitor.WaitFor(SocketMonitorEvent.Disconnected);
        AssertServesGoodClient(server, endpoint);
    }

    [Fact]
    public void Maxmsgsize_FrameAtLimit_Delivered()
    {
        var server = Create(SocketType.Pull);
        server.SetOption(SocketOption.Maxmsgsize, 1024L);
        string endpoint = BindTcp(server);
        using var peer = RawPeer.Connect(RawPeer.PortOf(endpoint));
        peer.CompleteNullHandshake("PUSH");

        peer.Send(ZmtpBytes.Frame(0, new byte[1024]));

        Assert.Equal(1024, server.RecvBytes().Length);
    }

    [Fact]
    public void ConnectTimeout_ListenerNeverCompletesConnect_ClosedThenRetried()
    {
        // A listener whose accept queue is full: Linux drops further SYNs, so connect() hangs.
        using var listener = new RawListener(backlog: 1);
        var fillers = new List<System.Net.Sockets.Socket>();
        try
        {
            for (int i = 0; i < 8; i++)
            {
                var filler = new System.Net.Sockets.Socket(System.Net.Sockets.AddressFamily.InterNetwork, System.Net.Sockets.SocketType.Stream, System.Net.Sockets.ProtocolType.Tcp)
                {
                    Blocking = false,
                };
                fillers.Add(filler);
                try
                {
                    filler.Connect(System.Net.IPAddress.Loopback, listener.Port);
                }
                catch (System.Net.Sockets.SocketException)
                {
                    // In progress (or dropped): either way it holds a place in the queue or tries to.
                }
            }

            var client = Create(SocketType.Push);
            client.SetOption(SocketOption.Connect_Timeout, 150);
            client.SetOption(SocketOption.Reconnect_Ivl, 5000);
            using var monitor = Monitor(client);
            client.Connect(listener.Endpoint);

            // The probe's default wait is a hang deadline, well below the minutes the OS keeps a connect() whose SYNs
            // are dropped pending: only a connect that CONNECT_TIMEOUT did not end reaches it.
            monitor.WaitFor(SocketMonitorEvent.ConnectDelayed);
            monitor.WaitFor(SocketMonitorEvent.Closed);
            Assert.Equal(5000, monitor.WaitFor(SocketMonitorEvent.ConnectRetried).Value);
            Assert.Equal(0, monitor.Count(SocketMonitorEvent.Connected));
        }
        finally
        {
            fillers.ForEach(f => f.Dispose());
        }
    }

    [Fact]
    public void ReconnectIvl_NothingListening_RetriedIntervalsDoubleUpToMax()
    {
        var client = Create(SocketType.Push);
        client.SetOption(SocketOption.Reconnect_Ivl, 10);
        client.SetOption(SocketOption.Reconnect_Ivl_Max, 80);
        using var monitor = Monitor(client);

        client.Connect(UnusedTcpEndpoint());

        var intervals = new List<int>();
        while (intervals.Count < 6)
        {
            intervals.Add(monitor.WaitFor(SocketMonitorEvent.ConnectRetried).Value);
        }

        Assert.Equal([10, 20, 40, 80, 80, 80], intervals);
    }

    [Fact]
    public void ReconnectIvl_Negative_NoRetryAfterRefusal()
    {
        var client = Create(SocketType.Push);
        client.SetOption(SocketOption.Reconnect_Ivl, -1);
        using var monitor = Monitor(client);

        client.Connect(UnusedTcpEndpoint());

        monitor.WaitFor(SocketMonitorEvent.Closed);
        monitor.Drain(300);
        Assert.Equal(0, monitor.Count(SocketMonitorEvent.ConnectRetried));
    }

    [Fact]
    public void Immediate_NoConnectionYet_SendWouldBlockAndNothingQueued()
    {
        string endpoint = UnusedTcpEndpoint();
        var push = Create(SocketType.Push);
        push.SetOption(SocketOption.Immediate, 1);
        push.SetOption(SocketOption.Reconnect_Ivl, 10);
        push.Connect(endpoint);

        Assert.False(push.Send("early", SendFlags.DontWait));

        var pull = Create(SocketType.Pull);
        using var monitor = Monitor(pull);
        pull.Bind(endpoint);
        monitor.WaitFor(MonitorProbe.HandshakeSucceeded);
        Eventually.True(() => push.Send("late", SendFlags.DontWait), "the connected pipe accepts messages");
        Assert.Equal("late", pull.RecvString());
    }

    [Fact]
    public void Immediate_OneConnectionLost_MessagesGoOnlyToLivePeer()
    {
        var live = Create(SocketType.Pull);
        var gone = Create(SocketType.Pull);
        string liveEndpoint = BindTcp(live);
        string goneEndpoint = BindTcp(gone);
        var push = Create(SocketType.Push);
        push.SetOption(SocketOption.Immediate, 1);
        push.SetOption(SocketOption.Reconnect_Ivl, 10);
        using var monitor = Monitor(push);
        push.Connect(liveEndpoint);
        monitor.WaitFor(MonitorProbe.HandshakeSucceeded);
        push.Connect(goneEndpoint);
        monitor.WaitFor(MonitorProbe.HandshakeSucceeded);

        // The peer goes: its connection closes and every reconnect is refused.
        gone.Dispose();
        Assert.Equal(goneEndpoint, monitor.WaitFor(SocketMonitorEvent.Disconnected).Address);

        // libzmq drops a lost connection's pipe under Immediate: every message goes to the live peer.
        const int Count = 20;
        for (int i = 0; i < Count; i++)
        {
            Assert.True(push.Send($"m{i}", SendFlags.DontWait), $"message {i} found no live peer");
        }

        for (int i = 0; i < Count; i++)
        {
            Assert.Equal($"m{i}", live.RecvString());
        }
    }

    [Fact]
    public void Immediate_ConnectionLostThenBack_NewConnectionServedAgain()
    {
        var pull = Create(SocketType.Pull);
        string endpoint = BindTcp(pull);
        var push = Create(SocketType.Push);
        push.SetOption(SocketOption.Immediate, 1);
        push.SetOption(SocketOption.Reconnect_Ivl, 10);
        using var monitor = Monitor(push);
        push.Connect(endpoint);
        monitor.WaitFor(MonitorProbe.HandshakeSucceeded);
        Assert.True(push.Send("before"));
        Assert.Equal("before", pull.RecvString());

        // The puller drops the connection; the pusher has no peer until it has reconnected.
        pull.DisconnectPeer(Assert.Single(pull.GetPeers()));
        monitor.WaitFor(SocketMonitorEvent.Disconnected);
        monitor.WaitFor(MonitorProbe.HandshakeSucceeded);

        Eventually.True(() => push.Send("after", SendFlags.DontWait), "the new connection's pipe accepts messages");
        Assert.Equal("after", pull.RecvString());
        Assert.Single(push.GetPeers());
    }

    [Fact]
    public void Immediate_DisconnectAfterReconnect_EndpointLeavesForGood()
    {
        var pull = Create(SocketType.Pull);
        string endpoint = BindTcp(pull);
        var push = Create(SocketType.Push);
        push.SetOption(SocketOption.Immediate, 1);
        push.SetOption(SocketOption.Reconnect_Ivl, 10);
        using var monitor = Monitor(push);
        push.Connect(endpoint);
        monitor.WaitFor(MonitorProbe.HandshakeSucceeded);

        // The pusher's handshake ends before the puller's: the puller lists the peer a moment later.
        Eventually.True(() => pull.GetPeers().Count == 1, "the puller lists its peer");
        pull.DisconnectPeer(Assert.Single(pull.GetPeers()));
        monitor.WaitFor(SocketMonitorEvent.Disconnected);
        monitor.WaitFor(MonitorProbe.HandshakeSucceeded);

        // Disconnect ends the endpoint's current pipe (a new one since the reconnect) and no other follows.
        push.Disconnect(endpoint);
        monitor.WaitFor(SocketMonitorEvent.Disconnected);
        Assert.Empty(push.GetPeers());
        Assert.False(push.Send("nowhere", SendFlags.DontWait));
    }

    [Fact]
    public void Immediate_Off_MessageQueuedBeforeConnectionDelivered()
    {
        string endpoint = UnusedTcpEndpoint();
        var push = Create(SocketType.Push);
        push.SetOption(SocketOption.Reconnect_Ivl, 10);
        push.Connect(endpoint);

        Assert.True(push.Send("early", SendFlags.DontWait));

        var pull = Create(SocketType.Pull);
        pull.Bind(endpoint);
        Assert.Equal("early", pull.RecvString());
    }

    [Theory]
    [InlineData(0)]
    [InlineData(200)]
    public void Linger_UndeliverableMessages_ContextDisposeReturns(int linger)
    {
        var context = new Context();
        var push = new Socket(context, SocketType.Push);
        push.SetOption(SocketOption.Linger, linger);
        push.Connect(UnusedTcpEndpoint());
        Assert.True(push.Send("stuck", SendFlags.DontWait));

        // The message can never be delivered, so only Linger ends the context's wait for it: returning at all, within
        // a deadline that only a hang reaches, shows Linger was applied. That Socket.Dispose does not wait for the
        // lingering message itself is shown by Linger_Infinite_ContextDisposeWaitsUntilDelivered.
        var socketDisposing = BackgroundCall.Start(push.Dispose);
        Assert.True(socketDisposing.Wait(Timeout), $"Socket.Dispose with Linger {linger} did not return");
        var disposing = BackgroundCall.Start(context.Dispose);

        Assert.True(disposing.Wait(linger + Timeout), $"Context.Dispose with Linger {linger} did not return");
    }

    [Fact]
    public void Linger_Infinite_ContextDisposeWaitsUntilDelivered()
    {
        string endpoint = UnusedTcpEndpoint();
        var context = new Context();
        var push = new Socket(context, SocketType.Push);
        push.SetOption(SocketOption.Linger, -1);
        push.SetOption(SocketOption.Reconnect_Ivl, 10);
        push.Connect(endpoint);
        Assert.True(push.Send("kept", SendFlags.DontWait));
        // No peer can take the message until the bind below: a Socket.Dispose that waited for Linger -1 would never
        // return, so returning at all shows it leaves the lingering to the context.
        var socketDisposing = BackgroundCall.Start(push.Dispose);
        Assert.True(socketDisposing.Wait(Timeout), "Socket.Dispose waited for the lingering message");
        var disposing = BackgroundCall.Start(context.Dispose);

        // Linger -1 keeps the message until a peer appears; then Dispose finishes.
        Assert.False(disposing.Wait(100));
        var pull = Create(SocketType.Pull);
        pull.Bind(endpoint);

        Assert.Equal("kept", pull.RecvString());
        Assert.True(disposing.Wait(Timeout), "Context.Dispose returns once the lingering message is delivered");
    }

    [Fact]
    public void Linger_ConnectedPeer_SocketDisposeFlushesQueuedMessages()
    {
        var pull = Create(SocketType.Pull);
        string endpoint = BindTcp(pull);
        var context = new Context();
        var push = new Socket(context, SocketType.Push);
        push.SetOption(SocketOption.Linger, 1000);
        push.Connect(endpoint);
        for (int i = 0; i < 100; i++)
        {
            Assert.True(push.Send($"m{i}"));
        }

        push.Dispose();
        var disposing = BackgroundCall.Start(context.Dispose);

        for (int i = 0; i < 100; i++)
        {
            Assert.Equal($"m{i}", pull.RecvString());
        }

        Assert.True(disposing.Wait(Timeout));
    }
}
