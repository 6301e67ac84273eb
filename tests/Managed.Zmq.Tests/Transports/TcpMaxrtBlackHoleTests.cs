using Managed.Zmq.Tests.Support;

namespace Managed.Zmq.Tests.Transports;

/// <summary>
/// Tcp_Maxrt by its effect: a peer that vanishes without FIN or RST (its link taken down, in its own network
/// namespace) leaves our sent data unacknowledged, and TCP_USER_TIMEOUT ends the connection, with heartbeats off,
/// so nothing else could. The deadline is generous: the kernel checks the timeout on its retransmission timer.
/// </summary>
public sealed class TcpMaxrtBlackHoleTests : TransportSockets
{
    private const int MaxRetransmitMilliseconds = 500;

    /// <summary>Only reached when the option does nothing; the kernel's own give-up takes about 15 minutes.</summary>
    private const int DisconnectDeadlineMilliseconds = 30_000;

    [Fact]
    public void TcpMaxrt_PeerBlackHoledWhileSending_ConnectionDropped()
    {
        Assert.True(OperatingSystem.IsLinux(), "TCP_USER_TIMEOUT and network namespaces are Linux's; this suite runs on Linux");
        using var peer = NamespacedPeer.Start();
        var push = Create(SocketType.Push);
        push.SetOption(SocketOption.Tcp_Maxrt, MaxRetransmitMilliseconds);
        push.SetOption(SocketOption.Sndhwm, 0);
        using var monitor = MonitorProbe.Attach(Context, push);

        push.Connect(peer.Endpoint);
        push.Send("before");
        Assert.Equal("before", peer.ReadLine());
        monitor.WaitFor(SocketMonitorEvent.Connected);

        peer.BlackHole();
        var payload = new byte[64 * 1024];
        for (int i = 0; i < 16; i++)
        {
            push.Send(payload, SendFlags.DontWait);
        }

        var disconnected = monitor.WaitFor(SocketMonitorEvent.Disconnected, DisconnectDeadlineMilliseconds);
        Assert.Equal(peer.Endpoint, disconnected.Address);
    }
}
