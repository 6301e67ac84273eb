namespace Managed.Zmq.Tests.Transports;

/// <summary>
/// Bindtodevice (SO_BINDTODEVICE) is no best-effort option: as in libzmq, a bind on a device the kernel refuses
/// fails with ENODEV, and a connect on one never goes out through another interface: each attempt is closed before
/// it connects and retried after the reconnect interval.
/// </summary>
public sealed class BindToDeviceTests : TransportSockets
{
    private const string NoSuchDevice = "nosuchdev0";

    public BindToDeviceTests()
    {
        Assert.True(OperatingSystem.IsLinux(), "SO_BINDTODEVICE is Linux's; elsewhere Bind fails with ENOTSUP");
    }

    [Theory]
    [InlineData("tcp://127.0.0.1:0")]
    [InlineData("ws://127.0.0.1:0/device")]
    public void Bind_UnknownDevice_Enodev(string endpoint)
    {
        var router = Create(SocketType.Router);
        router.SetOption(SocketOption.Bindtodevice, NoSuchDevice);

        AssertZmqError(ZmqConstants.ENODEV, () => router.Bind(endpoint));
    }

    [Fact]
    public void Connect_UnknownDevice_RetriesWithoutConnecting()
    {
        var router = Create(SocketType.Router);
        router.Bind("tcp://127.0.0.1:0");
        string endpoint = router.GetOptionString(SocketOption.Last_Endpoint);
        var dealer = Create(SocketType.Dealer);
        dealer.SetOption(SocketOption.Bindtodevice, NoSuchDevice);
        dealer.SetOption(SocketOption.Reconnect_Ivl, 20);
        using var monitor = MonitorProbe.Attach(Context, dealer);

        dealer.Connect(endpoint);

        // Two attempts, each refused before it connects: nothing reached the listener by another interface.
        monitor.WaitFor(SocketMonitorEvent.ConnectRetried);
        monitor.WaitFor(SocketMonitorEvent.ConnectRetried);
        Assert.DoesNotContain(monitor.Seen, e => e.Event is SocketMonitorEvent.Connected or SocketMonitorEvent.Closed);
    }

    [Fact]
    public void Connect_LoopbackDevice_Connects()
    {
        var router = Create(SocketType.Router);
        router.Bind("tcp://127.0.0.1:0");
        var dealer = Create(SocketType.Dealer);
        dealer.SetOption(SocketOption.Bindtodevice, "lo");

        dealer.Connect(router.GetOptionString(SocketOption.Last_Endpoint));
        dealer.Send("over lo");

        // Binding a socket to a device needs CAP_NET_RAW before Linux 5.7; the suite runs as root.
        Assert.Equal("over lo", RecvMessage(router)[1]);
    }
}
