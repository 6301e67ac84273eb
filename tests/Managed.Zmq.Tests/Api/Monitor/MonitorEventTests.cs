using Managed.Zmq.Internal;
using Managed.Zmq.Tests.Support;

namespace Managed.Zmq.Tests.Api.Monitor;

/// <summary>
/// The monitor stream (libzmq test_monitor): each event libzmq raises, with its
/// value and address, the mask, replacement and stop of a monitor, and its argument errors.
/// </summary>
public sealed class MonitorEventTests : ResilienceFixture
{
    [Fact]
    public void Listening_BindTcp_ValueIsHandleAddressAsBound()
    {
        var server = Create(SocketType.Pull);
        using var monitor = MonitorProbe.Attach(Context, server);

        string endpoint = BindTcp(server);

        var listening = monitor.WaitFor(SocketMonitorEvent.Listening);
        Assert.True(listening.Value > 0, $"LISTENING value is the OS handle, got {listening.Value}");
        Assert.Equal(endpoint, listening.Address);
    }

    [Fact]
    public void BindFailed_AddressInUse_ValueIsEaddrinuse()
    {
        var first = Create(SocketType.Pull);
        string endpoint = BindTcp(first);
        var second = Create(SocketType.Pull);
        using var monitor = MonitorProbe.Attach(Context, second);

        var ex = Assert.Throws<ZmqException>(() => second.Bind(endpoint));

        Assert.Equal(ZmqConstants.EADDRINUSE, ex.ErrorNumber);
        var failed = monitor.WaitFor(SocketMonitorEvent.BindFailed);
        Assert.Equal(ZmqConstants.EADDRINUSE, failed.Value);
        Assert.Equal(endpoint, failed.Address);
    }

    [Fact]
    public void Accepted_PeerConnects_ValueIsHandleAddressIsListeningEndpoint()
    {
        var server = Create(SocketType.Pull);
        using var monitor = MonitorProbe.Attach(Context, server);
        string endpoint = BindTcp(server);
        var client = Create(SocketType.Push);

        client.Connect(endpoint);

        var accepted = monitor.WaitFor(SocketMonitorEvent.Accepted);
        Assert.True(accepted.Value > 0, $"ACCEPTED value is the accepted socket's handle, got {accepted.Value}");
        Assert.StartsWith("tcp://127.0.0.1", accepted.Address, StringComparison.Ordinal);
        Assert.Equal(endpoint, accepted.Address);
    }

    [Fact]
    public void Connected_ConnectByHostName_AddressIsConnectString()
    {
        var server = Create(SocketType.Pull);
        string endpoint = BindTcp(server);
        var client = Create(SocketType.Push);
        using var monitor = MonitorProbe.Attach(Context, client);
        string connectString = $"tcp://localhost:{RawPeer.PortOf(endpoint)}";

        client.Connect(connectString);

        var connected = monitor.WaitFor(SocketMonitorEvent.Connected);
        Assert.True(connected.Value > 0, $"CONNECTED value is the socket's handle, got {connected.Value}");
        Assert.Equal(connectString, connected.Address);
    }

    [Fact]
    public void ConnectDelayed_NonBlockingConnect_PrecedesConnectedWithEinprogress()
    {
        var server = Create(SocketType.Pull);
        string endpoint = BindTcp(server);
        var client = Create(SocketType.Push);
        using var monitor = MonitorProbe.Attach(Context, client);

        client.Connect(endpoint);

        monitor.WaitFor(SocketMonitorEvent.Connected);
        int delayedAt = monitor.Seen.FindIndex(e => e.Event == SocketMonitorEvent.ConnectDelayed);
        if (delayedAt >= 0)
        {
            // libzmq raises CONNECT_DELAYED when connect() answers EINPROGRESS; a loopback connect may also finish at once.
            Assert.Equal(ZmqConstants.EINPROGRESS, monitor.Seen[delayedAt].Value);
            Assert.Equal(endpoint, monitor.Seen[delayedAt].Address);
            Assert.True(delayedAt < monitor.Seen.FindIndex(e => e.Event == SocketMonitorEvent.Connected));
        }
    }

    [Fact]
    public void ConnectRetried_NothingListening_ValueIsReconnectInterval()
    {
        var client = Create(SocketType.Push);
        client.SetOption(SocketOption.Reconnect_Ivl, 40);
        using var monitor = MonitorProbe.Attach(Context, client);
        string endpoint = UnusedTcpEndpoint();

        client.Connect(endpoint);

        var retried = monitor.WaitFor(SocketMonitorEvent.ConnectRetried);
        Assert.Equal(40, retried.Value);
        Assert.Equal(endpoint, retried.Address);
    }

    [Fact]
    public void Closed_Unbind_ValueIsListeningHandle()
    {
        var server = Create(SocketType.Pull);
        using var monitor = MonitorProbe.Attach(Context, server);
        string endpoint = BindTcp(server);
        var listening = monitor.WaitFor(SocketMonitorEvent.Listening);

        server.Unbind(endpoint);

        var closed = monitor.WaitFor(SocketMonitorEvent.Closed);
        Assert.Equal(listening.Value, closed.Value);
        Assert.Equal(endpoint, closed.Address);
    }

    [Fact]
    public void Disconnected_PeerDisposedWithLingerZero_ArrivesOnBindingSide()
    {
        var server = Create(SocketType.Pull);
        using var monitor = MonitorProbe.Attach(Context, server);
        string endpoint = BindTcp(server);
        var client = new Socket(Context, SocketType.Push);
        client.SetOption(SocketOption.Linger, 0);
        client.Connect(endpoint);
        var accepted = monitor.WaitFor(SocketMonitorEvent.Accepted);
        monitor.WaitFor(MonitorProbe.HandshakeSucceeded);

        client.Dispose();

        // Net.Zmq's contract says about 100 ms; the deadline only bounds a failing run.
        var disconnected = monitor.WaitFor(SocketMonitorEvent.Disconnected, 1500);
        Assert.Equal(accepted.Value, disconnected.Value);
        Assert.Equal(endpoint, disconnected.Address);
    }

    [Fact]
    public void MonitorStopped_MonitorNull_IsLastEvent()
    {
        var server = Create(SocketType.Pull);
        using var monitor = MonitorProbe.Attach(Context, server);
        BindTcp(server);
        monitor.WaitFor(SocketMonitorEvent.Listening);

        server.Monitor(null, 0);

        var stopped = monitor.WaitFor(SocketMonitorEvent.MonitorStopped);
        Assert.Equal(0, stopped.Value);
        BindTcp(server);
        Assert.Null(monitor.Next(200));
    }

    [Fact]
    public void Mask_DisconnectedOnly_OtherEventsFiltered()
    {
        var server = Create(SocketType.Pull);
        using var monitor = MonitorProbe.Attach(Context, server, (int)SocketMonitorEvent.Disconnected);
        string endpoint = BindTcp(server);
        using (var client = new Socket(Context, SocketType.Push))
        {
            client.SetOption(SocketOption.Linger, 0);
            client.Connect(endpoint);
            Assert.True(client.Send("x"));
            Assert.Equal("x", server.RecvString());
        }

        var first = monitor.Next();
        Assert.NotNull(first);
        Assert.Equal(SocketMonitorEvent.Disconnected, first.Value.Event);
        Assert.Null(monitor.Next(100));
    }

    [Fact]
    public void HandshakeEvents_MaskAll_SucceededOnBothSides()
    {
        var server = Create(SocketType.Pull);
        using var serverMonitor = MonitorProbe.Attach(Context, server);
        string endpoint = BindTcp(server);
        var client = Create(SocketType.Push);
        using var clientMonitor = MonitorProbe.Attach(Context, client);

        client.Connect(endpoint);

        Assert.Equal(0, serverMonitor.WaitFor(MonitorProbe.HandshakeSucceeded).Value);
        var succeeded = clientMonitor.WaitFor(MonitorProbe.HandshakeSucceeded);
        Assert.Equal(endpoint, succeeded.Address);
        Assert.True(clientMonitor.Seen.FindIndex(e => e.Event == SocketMonitorEvent.Connected) < clientMonitor.Seen.Count - 1);
    }

    [Fact]
    public void HandshakeFailedProtocol_MechanismMismatch_ValueIsMechanismMismatchCode()
    {
        var server = Create(SocketType.Pull);
        using var monitor = MonitorProbe.Attach(Context, server);
        int port = RawPeer.PortOf(BindTcp(server));
        using var peer = RawPeer.Connect(port);

        peer.Send(ZmtpBytes.Greeting(mechanism: "PLAIN"));

        // docs/libzmq-behaviour.md L4: libzmq reports ZMQ_PROTOCOL_ERROR_ZMTP_MECHANISM_MISMATCH and closes without ERROR.
        var failed = monitor.WaitFor(MonitorProbe.HandshakeFailedProtocol);
        Assert.Equal(0x11000002, failed.Value);
        monitor.WaitFor(SocketMonitorEvent.Disconnected);
        Assert.True(peer.WaitUntilClosed());
    }

    [Fact]
    public void HandshakeFailedNoDetail_HandshakeTimeout_ThenDisconnected()
    {
        var server = Create(SocketType.Pull);
        server.SetOption(SocketOption.Handshake_Ivl, 100);
        using var monitor = MonitorProbe.Attach(Context, server);
        int port = RawPeer.PortOf(BindTcp(server));
        using var peer = RawPeer.Connect(port);

        var failed = monitor.WaitFor(MonitorProbe.HandshakeFailedNoDetail);

        Assert.Equal(ZmqConstants.EAGAIN, failed.Value);
        monitor.WaitFor(SocketMonitorEvent.Disconnected);
        Assert.True(monitor.Seen.IndexOf(failed) < monitor.Seen.FindIndex(e => e.Event == SocketMonitorEvent.Disconnected));
    }

    [Theory]
    [InlineData(false, Errno.EPIPE)]
    [InlineData(true, ZmqConstants.ECONNRESET)]
    public void HandshakeFailedNoDetail_PeerClosesOrResetsDuringHandshake_LibzmqErrno(bool reset, int errno)
    {
        // docs/libzmq-behaviour.md L15: a read of 0 octets is EPIPE in libzmq's engine, a reset ECONNRESET.
        var server = Create(SocketType.Pull);
        using var monitor = MonitorProbe.Attach(Context, server);
        int port = RawPeer.PortOf(BindTcp(server));
        using var peer = RawPeer.Connect(port);
        peer.ReadExactly(10); // the signature, so nothing is left unread and a plain close is a FIN
        if (reset)
        {
            peer.Abort();
        }
        else
        {
            peer.Dispose();
        }

        Assert.Equal(errno, monitor.WaitFor(MonitorProbe.HandshakeFailedNoDetail).Value);
        monitor.WaitFor(SocketMonitorEvent.Disconnected);
    }

    [Fact]
    public void Monitor_CalledAgain_OldMonitorStopsNewOneReceives()
    {
        var server = Create(SocketType.Pull);
        using var first = MonitorProbe.Attach(Context, server);
        BindTcp(server);
        first.WaitFor(SocketMonitorEvent.Listening);

        using var second = MonitorProbe.Attach(Context, server);
        string endpoint = BindTcp(server);

        first.WaitFor(SocketMonitorEvent.MonitorStopped);
        Assert.Null(first.Next(100));
        Assert.Equal(endpoint, second.WaitFor(SocketMonitorEvent.Listening).Address);
    }

    [Fact]
    public void Monitor_SameEndpointAgain_OldMonitorStopsAndTheEndpointServesTheNewOne()
    {
        // libzmq stops the running monitor before it binds the new one, so re-arming an endpoint (another mask, say)
        // is not refused with EADDRINUSE.
        string endpoint = TestEndpoint.Inproc("again");
        var server = Create(SocketType.Pull);
        server.Monitor(endpoint, SocketMonitorEvent.All);
        using var first = MonitorProbe.Connect(Context, endpoint);
        BindTcp(server);
        first.WaitFor(SocketMonitorEvent.Listening);

        server.Monitor(endpoint, SocketMonitorEvent.Listening);
        using var second = MonitorProbe.Connect(Context, endpoint);
        string bound = BindTcp(server);

        first.WaitFor(SocketMonitorEvent.MonitorStopped);
        Assert.Equal(bound, second.WaitFor(SocketMonitorEvent.Listening).Address);
    }

    [Fact]
    public void Monitor_NewEndpointTaken_ThrowsEaddrinuseAndTheOldMonitorHasStopped()
    {
        string taken = TestEndpoint.Inproc("taken-later");
        var holder = Create(SocketType.Pair);
        holder.Bind(taken);
        var server = Create(SocketType.Pull);
        using var first = MonitorProbe.Attach(Context, server);

        var ex = Assert.Throws<ZmqException>(() => server.Monitor(taken, SocketMonitorEvent.All));

        Assert.Equal(ZmqConstants.EADDRINUSE, ex.ErrorNumber);
        first.WaitFor(SocketMonitorEvent.MonitorStopped);
    }

    [Fact]
    public void Monitor_TcpEndpoint_ThrowsEprotonosupport()
    {
        var socket = Create(SocketType.Pull);

        var ex = Assert.Throws<ZmqException>(() => socket.Monitor("tcp://127.0.0.1:5555", ZmqConstants.ZMQ_EVENT_ALL));

        Assert.Equal(ZmqConstants.EPROTONOSUPPORT, ex.ErrorNumber);
    }

    [Theory]
    [InlineData(0x10000)]
    [InlineData(-1)]
    [InlineData(int.MinValue)]
    public void Monitor_MaskAbove16Bits_ThrowsEinval(int mask)
    {
        var socket = Create(SocketType.Pull);

        var ex = Assert.Throws<ZmqException>(() => socket.Monitor(TestEndpoint.Inproc("mask"), mask));

        Assert.Equal(ZmqConstants.EINVAL, ex.ErrorNumber);
    }

    [Fact]
    public void Monitor_EndpointTaken_ThrowsEaddrinuse()
    {
        string endpoint = TestEndpoint.Inproc("taken");
        var holder = Create(SocketType.Pair);
        holder.Bind(endpoint);
        var socket = Create(SocketType.Pull);

        var ex = Assert.Throws<ZmqException>(() => socket.Monitor(endpoint, ZmqConstants.ZMQ_EVENT_ALL));

        Assert.Equal(ZmqConstants.EADDRINUSE, ex.ErrorNumber);
    }

    [Fact]
    public void Disconnected_TwentyConnectCloseCycles_ExactlyOnePerTeardown()
    {
        var server = Create(SocketType.Pull);
        using var monitor = MonitorProbe.Attach(Context, server);
        string endpoint = BindTcp(server);
        int port = RawPeer.PortOf(endpoint);

        for (int cycle = 0; cycle < 20; cycle++)
        {
            if (cycle % 4 == 3)
            {
                // A teardown after a failed handshake counts as well.
                using var raw = RawPeer.Connect(port);
                raw.Send(ZmtpBytes.Greeting(mechanism: "CURVE"));
                Assert.True(raw.WaitUntilClosed());
            }
            else
            {
                using var client = new Socket(Context, SocketType.Push);
                client.SetOption(SocketOption.Linger, 0);
                client.Connect(endpoint);
                monitor.WaitFor(MonitorProbe.HandshakeSucceeded);
            }

            monitor.WaitFor(SocketMonitorEvent.Disconnected);
        }

        monitor.Drain(200);
        Assert.Equal(20, monitor.Count(SocketMonitorEvent.Accepted));
        Assert.Equal(20, monitor.Count(SocketMonitorEvent.Disconnected));
        Assert.Equal(15, monitor.Count(MonitorProbe.HandshakeSucceeded));
        Assert.Equal(5, monitor.Count(MonitorProbe.HandshakeFailedProtocol));
    }
}
