using System.Diagnostics;
using Managed.Zmq.Tests.Support;

namespace Managed.Zmq.Tests.Engine;

/// <summary>
/// Peers that try to use up a server rather than break its parser: a greeting dribbled out
/// (slowloris), a thousand connections that never speak, and a peer that never reads while we
/// publish (drop, memory bounded) or push (block at HWM, EAGAIN after SNDTIMEO).
/// </summary>
public sealed class ResourceExhaustionTests : ResilienceFixture
{
    [Fact]
    public async Task HandshakeIvl_GreetingOneOctetEvery100Ms_DroppedAtHandshakeInterval()
    {
        var guard = InternalErrorsGuard.Start();
        var server = Create(SocketType.Pull);
        server.SetOption(SocketOption.Handshake_Ivl, 300);
        string endpoint = BindTcp(server);
        using var peer = RawPeer.Connect(RawPeer.PortOf(endpoint));
        byte[] greeting = ZmtpBytes.Greeting();
        var clock = Stopwatch.StartNew();

        // The dribble is the load under test (64 octets would take 6.4 s), not a synchronisation.
        using var ticks = new PeriodicTimer(TimeSpan.FromMilliseconds(100));
        int sent = 0;
        while (sent < greeting.Length && peer.TrySend([greeting[sent]]))
        {
            sent++;
            await ticks.WaitForNextTickAsync();
        }

        // Closed before the greeting was whole: the handshake timer ended it, twenty times sooner than the dribble
        // would have finished, however slowly a loaded machine ran either.
        Assert.True(peer.WaitUntilClosed(ServeDeadline), $"still open after {clock.ElapsedMilliseconds} ms and {sent} octets");
        Assert.True(sent < greeting.Length, $"the handshake timer (300 ms) let the whole greeting ({sent} octets) through");
        AssertServesGoodClient(server, endpoint);
        guard.AssertNoneSince();
    }

    [Fact]
    public void Listener_ThousandSilentConnections_GoodClientStillServed()
    {
        var guard = InternalErrorsGuard.Start();
        var server = Create(SocketType.Pull);
        using var monitor = Monitor(server, (int)SocketMonitorEvent.Accepted);
        string endpoint = BindTcp(server);
        int port = RawPeer.PortOf(endpoint);
        var silent = new List<RawPeer>(1000);
        try
        {
            for (int i = 0; i < 1000; i++)
            {
                silent.Add(RawPeer.Connect(port));
            }

            AssertServesGoodClient(server, endpoint);
            var clock = Stopwatch.StartNew();
            while (monitor.Count(SocketMonitorEvent.Accepted) < 1001 && monitor.Next(Math.Max(1, 10_000 - (int)clock.ElapsedMilliseconds)) is not null)
            {
            }

            Assert.Equal(1001, monitor.Count(SocketMonitorEvent.Accepted));
        }
        finally
        {
            silent.ForEach(p => p.Abort());
        }

        AssertServesGoodClient(server, endpoint);
        guard.AssertNoneSince();
    }

    [Fact]
    public void Pub_SubscriberNeverReads_SendsNeverBlockAndMemoryBounded()
    {
        var pub = Create(SocketType.Pub);
        pub.SetOption(SocketOption.Sndhwm, 100);
        using var monitor = Monitor(pub);
        int port = RawPeer.PortOf(BindTcp(pub));
        using var peer = RawPeer.Connect(port);
        peer.CompleteNullHandshake("SUB");
        peer.Send(ZmtpBytes.Command("SUBSCRIBE", default));
        monitor.WaitFor(MonitorProbe.HandshakeSucceeded);
        var payload = new byte[4096];

        // First the subscription must be in force: publish until the peer sees one message.
        var clock = Stopwatch.StartNew();
        while (true)
        {
            Assert.True(clock.ElapsedMilliseconds < Timeout, "the raw subscriber never received a message");
            Assert.True(pub.Send(payload, SendFlags.DontWait));
            try
            {
                var (_, body) = peer.ReadFrame(50);
                Assert.Equal(payload.Length, body.Length);
                break;
            }
            catch (System.Net.Sockets.SocketException)
            {
                // Not yet subscribed: try again.
            }
        }

        // Then measure: 100k × 4 KiB = 400 MiB offered to a peer that reads no more.

        GC.Collect();
        long before = Process.GetCurrentProcess().WorkingSet64;
        for (int i = 0; i < 100_000; i++)
        {
            Assert.True(pub.Send(payload, SendFlags.DontWait), "PUB drops at HWM instead of blocking");
        }

        GC.Collect();
        long grown = Process.GetCurrentProcess().WorkingSet64 - before;
        Assert.True(grown < 128L << 20, $"working set grew {grown >> 20} MiB while a non-reading subscriber was offered 400 MiB");
        Assert.Equal(0, monitor.Count(SocketMonitorEvent.Disconnected));
    }

    [Fact]
    public void Push_PullerNeverReads_BlocksAtHwmThenEagain()
    {
        var push = Create(SocketType.Push);
        push.SetOption(SocketOption.Sndhwm, 10);
        push.SetOption(SocketOption.Sndtimeo, 200);
        using var monitor = Monitor(push);
        int port = RawPeer.PortOf(BindTcp(push));
        using var peer = RawPeer.Connect(port);
        peer.CompleteNullHandshake("PULL");
        monitor.WaitFor(MonitorProbe.HandshakeSucceeded);
        var payload = new byte[64 * 1024];

        int sent = 0;
        ZmqException? blocked = null;
        var clock = Stopwatch.StartNew();
        while (blocked is null && sent < 10_000)
        {
            try
            {
                push.Send(payload);
                sent++;
            }
            catch (ZmqException ex)
            {
                blocked = ex;
            }
        }

        Assert.NotNull(blocked);
        Assert.Equal(ZmqConstants.EAGAIN, blocked.ErrorNumber);

        // HWM plus whatever the two kernels' socket buffers absorb: far below 10,000 × 64 KiB.
        Assert.True(sent < 2_000, $"{sent} messages of 64 KiB were accepted by a peer that never reads");
        Assert.False(push.Send(payload, SendFlags.DontWait));
    }
}
