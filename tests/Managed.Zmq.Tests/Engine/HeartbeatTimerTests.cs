using Managed.Zmq.Tests.Support;
using Managed.Zmq.Threading;

namespace Managed.Zmq.Tests.Engine;

/// <summary>
/// A connection's heartbeat timer lives no longer than the connection: a PING with a TTL arms it
/// (RFC 37 §Connection Heartbeating), and a connection that fails must take it down with it, or
/// the timer keeps the dead connection until the peer's TTL runs out.
/// </summary>
public sealed class HeartbeatTimerTests : ResilienceFixture
{
    [Fact]
    public void Handshake_LeftoverPingWithTtlThenBadFrame_ClosedWithNoTimerLeft()
    {
        var server = Create(SocketType.Dealer);
        using var monitor = Monitor(server);
        int port = RawPeer.PortOf(BindTcp(server));
        // One I/O thread (the default), so it is the connection's.
        Assert.Equal(1, Context.IoThreadCount);
        IoThread thread = Context.NextIoThread();
        int before = IoThreadProbe.PendingTimers(thread, Timeout);
        using var peer = RawPeer.Connect(port);

        // One write, so the handshake reads it whole and the PING and the bad frame are its leftover
        // (on loopback they arrive together): TTL 6000 ds (ten minutes), then a length no frame may have.
        peer.Send(ZmtpBytes.Concat(
            ZmtpBytes.Greeting(),
            ZmtpBytes.Ready("DEALER"),
            ZmtpBytes.Ping(6000, default),
            ZmtpBytes.LongHeader(0x8000000000000000UL)));

        Assert.True(peer.WaitUntilClosed(Timeout), "the bad frame ends the connection");
        monitor.WaitFor(SocketMonitorEvent.Disconnected);
        Assert.Equal(before, IoThreadProbe.PendingTimers(thread, Timeout));
    }
}
