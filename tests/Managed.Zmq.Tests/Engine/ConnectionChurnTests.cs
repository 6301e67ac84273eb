using System.Text;
using Managed.Zmq.Tests.Support;

namespace Managed.Zmq.Tests.Engine;

/// <summary>
/// Nothing outlives its connection: thousands of peers connect, complete a handshake
/// and leave, and afterwards a full collection finds none of their connections alive, whatever
/// timers they started (the handshake timer, a PING's TTL) and whatever ZAP did. Counted through
/// weak references, never through memory figures.
/// </summary>
public sealed class ConnectionChurnTests : ResilienceFixture
{
    private const int Cycles = 2_000;

    /// <summary>How long the collections may take to find every connection gone (a deadline, not a measurement).</summary>
    private const int CollectDeadline = 10_000;

    [Fact]
    public void NullHandshake_ConnectDisconnectChurn_NoConnectionOutlivesItsPeer()
    {
        var guard = InternalErrorsGuard.Start();
        var server = Create(SocketType.Router);
        using var monitor = Monitor(server, (int)SocketMonitorEvent.Disconnected);
        string endpoint = BindTcp(server);
        using var tracker = new ConnectionTracker(endpoint);

        for (int i = 0; i < Cycles; i++)
        {
            using (var peer = RawPeer.Connect(RawPeer.PortOf(endpoint)))
            {
                peer.CompleteNullHandshake("DEALER");
            }

            monitor.WaitFor(SocketMonitorEvent.Disconnected);
        }

        AssertAllCollected(tracker);
        guard.AssertNoneSince();
    }

    [Fact]
    public void Ping_MaximumTtlThenDisconnect_NoConnectionOutlivesItsPeer()
    {
        var guard = InternalErrorsGuard.Start();
        var server = Create(SocketType.Router);
        using var monitor = Monitor(server, (int)SocketMonitorEvent.Disconnected);
        string endpoint = BindTcp(server);
        using var tracker = new ConnectionTracker(endpoint);

        for (int i = 0; i < Cycles; i++)
        {
            using (var peer = RawPeer.Connect(RawPeer.PortOf(endpoint)))
            {
                peer.CompleteNullHandshake("DEALER");

                // TTL 65535 ds (RFC 37): the server arms a liveness timer of about 27 minutes.
                peer.Send(ZmtpBytes.Ping(ushort.MaxValue, "c"u8));
                var (flags, body) = peer.ReadFrame();
                Assert.True((flags & ZmtpBytes.FlagCommand) != 0, "PONG is a command");
                Assert.Equal("PONG", Encoding.ASCII.GetString(body, 1, body[0]));
            }

            monitor.WaitFor(SocketMonitorEvent.Disconnected);
        }

        AssertAllCollected(tracker);
        guard.AssertNoneSince();
    }

    [Fact]
    public void PlainThroughZapAuthenticator_ConnectDisconnectChurn_NoConnectionOutlivesItsPeer()
    {
        var guard = InternalErrorsGuard.Start();
        using var auth = new ZapAuthenticator(Context);
        auth.ConfigurePlain("*", new Dictionary<string, string> { ["admin"] = "secret" });
        var server = Create(SocketType.Router);
        server.SetOption(SocketOption.Plain_Server, 1);
        using var monitor = Monitor(server, (int)SocketMonitorEvent.Disconnected);
        string endpoint = BindTcp(server);
        using var tracker = new ConnectionTracker(endpoint);

        for (int i = 0; i < Cycles; i++)
        {
            using (var peer = RawPeer.Connect(RawPeer.PortOf(endpoint)))
            {
                CompletePlainHandshake(peer, "admin", "secret");
            }

            monitor.WaitFor(SocketMonitorEvent.Disconnected);
        }

        AssertAllCollected(tracker);
        guard.AssertNoneSince();
    }

    [Fact]
    public void ZapHandlerNeverAnswers_HandshakesTimeOut_NoRequestOrConnectionRemains()
    {
        const int Peers = 50;
        var guard = InternalErrorsGuard.Start();

        // A context of its own: before requests were abandoned, one never answered kept its
        // context from ever finishing Dispose, which this test must report, not hang on.
        var context = new Context();
        var handler = new Socket(context, SocketType.Router);
        var server = new Socket(context, SocketType.Router);
        var monitor = MonitorProbe.Attach(context, server, MonitorProbe.HandshakeFailedNoDetail | (int)SocketMonitorEvent.Disconnected);
        ConnectionTracker? tracker = null;
        try
        {
            // A handler that takes requests and never answers them.
            handler.SetOption(SocketOption.Linger, 0);
            handler.Bind("inproc://zeromq.zap.01");
            server.SetOption(SocketOption.Linger, 0);
            server.SetOption(SocketOption.Plain_Server, 1);
            server.SetOption(SocketOption.Handshake_Ivl, 100);
            string endpoint = BindTcp(server);
            tracker = new ConnectionTracker(endpoint);

            var peers = new List<RawPeer>(Peers);
            try
            {
                for (int i = 0; i < Peers; i++)
                {
                    var peer = RawPeer.Connect(RawPeer.PortOf(endpoint));
                    peers.Add(peer);
                    peer.Send(ZmtpBytes.Concat(ZmtpBytes.Greeting(mechanism: "PLAIN"), PlainHello("admin", "secret")));
                }

                foreach (var peer in peers)
                {
                    Assert.Equal(64, peer.ReadExactly(64).Length);
                    Assert.True(peer.WaitUntilClosed(), "the handshake timer did not close a connection whose ZAP request went unanswered");
                }
            }
            finally
            {
                peers.ForEach(p => p.Dispose());
            }

            for (int i = 0; i < Peers; i++)
            {
                // libzmq's timeout_error: HANDSHAKE_FAILED_NO_DETAIL with EAGAIN (docs/libzmq-behaviour.md L14), then DISCONNECTED.
                Assert.Equal(ZmqConstants.EAGAIN, monitor.WaitFor(MonitorProbe.HandshakeFailedNoDetail).Value);
                monitor.WaitFor(SocketMonitorEvent.Disconnected);
            }

            // Every request did reach the handler; replies now would have nowhere to go.
            Assert.Equal(Peers, DrainRequests(handler));
            Assert.Equal(Peers, tracker.Created);
            AssertAllCollected(tracker);
        }
        finally
        {
            tracker?.Dispose();
            var dispose = BackgroundCall.Start(() =>
            {
                monitor.Dispose();
                server.Dispose();
                handler.Dispose();
                context.Dispose();
            });
            Assert.True(dispose.Wait(Timeout), "the context did not finish Dispose: a handshake still waits for ZAP");
        }

        guard.AssertNoneSince();
    }

    [Fact]
    public void ZapHandlerGoneBeforeHello_PlainHandshakesFailWithEfault_NoRequestKept()
    {
        const int Peers = 20;
        var handler = Create(SocketType.Router);
        var server = Create(SocketType.Router);
        handler.Bind("inproc://zeromq.zap.01");
        server.SetOption(SocketOption.Plain_Server, 1);

        // No handshake timer: only the refusal itself may end these handshakes.
        server.SetOption(SocketOption.Handshake_Ivl, 0);
        var monitor = Monitor(server, MonitorProbe.HandshakeFailedNoDetail);
        string endpoint = BindTcp(server);

        var peers = new List<RawPeer>(Peers);
        try
        {
            // Each connection starts while a handler is bound; its HELLO comes after the handler has gone.
            for (int i = 0; i < Peers; i++)
            {
                var peer = RawPeer.Connect(RawPeer.PortOf(endpoint));
                peers.Add(peer);
                peer.Send(ZmtpBytes.Greeting(mechanism: "PLAIN"));
                Assert.Equal(64, peer.ReadExactly(64).Length);
            }

            handler.Dispose();
            foreach (var peer in peers)
            {
                peer.Send(PlainHello("admin", "secret"));
            }

            // docs/libzmq-behaviour.md L8: a PLAIN server without a handler when the HELLO comes fails with EFAULT.
            foreach (var peer in peers)
            {
                Assert.True(peer.WaitUntilClosed(), "a PLAIN handshake without a handler was not refused");
                Assert.Equal(ZmqConstants.EFAULT, monitor.WaitFor(MonitorProbe.HandshakeFailedNoDetail).Value);
            }
        }
        finally
        {
            peers.ForEach(p => p.Dispose());
        }

        Assert.Equal(0, Context.Inproc.PendingNameCount);
    }

    private static void AssertAllCollected(ConnectionTracker tracker)
    {
        Assert.True(tracker.Created > 0, "the tracker saw no connection");
        int alive = tracker.Created;
        Eventually.True(() => (alive = tracker.CountAlive()) == 0, $"no connection is alive after a full collection (still {alive} of {tracker.Created})", CollectDeadline);
    }

    /// <summary>Reads every queued ZAP request (routing id, delimiter, 8 frames); returns how many.</summary>
    private static int DrainRequests(Socket handler)
    {
        int requests = 0;
        while (true)
        {
            if (!handler.TryRecvMultipart(out var received))
            {
                return requests;
            }

            using var frames = received!;
            Assert.Equal(10, frames.Count);
            Assert.Equal("PLAIN", frames[7].ToString());
            requests++;
        }
    }

    private static byte[] PlainHello(string user, string password)
    {
        byte[] userBytes = Encoding.ASCII.GetBytes(user);
        byte[] passwordBytes = Encoding.ASCII.GetBytes(password);
        return ZmtpBytes.Command("HELLO", [(byte)userBytes.Length, .. userBytes, (byte)passwordBytes.Length, .. passwordBytes]);
    }

    /// <summary>Plays a PLAIN client (RFC 24): HELLO, WELCOME, INITIATE, READY.</summary>
    private static void CompletePlainHandshake(RawPeer peer, string user, string password)
    {
        peer.Send(ZmtpBytes.Concat(ZmtpBytes.Greeting(mechanism: "PLAIN"), PlainHello(user, password)));
        Assert.Equal(0xFF, peer.ReadExactly(64)[0]);
        Assert.Equal("WELCOME", CommandName(peer.ReadFrame().Body));
        peer.Send(ZmtpBytes.Command("INITIATE", ZmtpBytes.Property("Socket-Type", "DEALER"u8)));
        Assert.Equal("READY", CommandName(peer.ReadFrame().Body));
    }

    private static string CommandName(byte[] body) => Encoding.ASCII.GetString(body, 1, body[0]);
}
