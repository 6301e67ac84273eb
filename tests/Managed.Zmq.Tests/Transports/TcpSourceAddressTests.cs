using System.Net;
using System.Net.Sockets;

namespace Managed.Zmq.Tests.Transports;

/// <summary>
/// A tcp connect's source address, <c>tcp://source;host:port</c> (libzmq's zmq_tcp): the connection comes from the
/// address, port or interface named (an interface's IPv6 address with Ipv6, as libzmq picks it), an unknown interface
/// fails the attempt and is retried, a source that can never bind is refused at Connect, and a bind ignores a source
/// as libzmq's does.
/// </summary>
public sealed class TcpSourceAddressTests : TransportSockets
{
    [Theory]
    [InlineData("127.0.0.2:0", "127.0.0.2", false)]
    [InlineData("127.0.0.3:*", "127.0.0.3", false)]
    [InlineData("lo:0", "127.0.0.1", false)]
    [InlineData("[::1]:0", "::1", true)]
    [InlineData("lo:0", "::1", true)]
    [InlineData("[*]:0", "127.0.0.1", false)]
    public void Connect_SourceAddress_ConnectionComesFromIt(string source, string expectedPeer, bool ipv6)
    {
        var router = Create(SocketType.Router);
        var dealer = Create(SocketType.Dealer);
        router.SetOption(SocketOption.Ipv6, ipv6 ? 1 : 0);
        dealer.SetOption(SocketOption.Ipv6, ipv6 ? 1 : 0);
        router.Bind(ipv6 ? "tcp://[::1]:*" : "tcp://127.0.0.1:*");
        string target = router.GetOptionString(SocketOption.Last_Endpoint)["tcp://".Length..];

        dealer.Connect($"tcp://{source};{target}");
        dealer.Send("from the source");

        using var request = router.RecvMultipart();
        Assert.Equal("from the source", request.PeekLastString());
        Assert.Equal(expectedPeer, request[1].GetMetadata("Peer-Address"));
    }

    [Fact]
    public async Task Connect_SourcePort_ConnectionComesFromThatPort()
    {
        int sourcePort = FreePort(IPAddress.Parse("127.0.0.2"));
        using var listener = new TcpListener(IPAddress.Loopback, 0);
        listener.Start();
        int port = ((IPEndPoint)listener.LocalEndpoint).Port;
        var dealer = Create(SocketType.Dealer);

        dealer.Connect($"tcp://127.0.0.2:{sourcePort};127.0.0.1:{port}");

        using var timeout = new CancellationTokenSource(Timeout);
        using var accepted = await listener.AcceptSocketAsync(timeout.Token);
        Assert.Equal(new IPEndPoint(IPAddress.Parse("127.0.0.2"), sourcePort), accepted.RemoteEndPoint);
    }

    [Fact]
    public void Connect_SourceInterfaceUnknown_AttemptsFailAndAreRetried()
    {
        using var listener = new TcpListener(IPAddress.Loopback, 0);
        listener.Start();
        int port = ((IPEndPoint)listener.LocalEndpoint).Port;
        var dealer = Create(SocketType.Dealer);
        dealer.SetOption(SocketOption.Reconnect_Ivl, 10);
        using var monitor = MonitorProbe.Attach(Context, dealer);

        dealer.Connect($"tcp://no-such-nic0:0;127.0.0.1:{port}");

        // As libzmq: the source is looked up before the attempt opens a socket, so no socket is closed either.
        monitor.WaitFor(SocketMonitorEvent.ConnectRetried);
        monitor.WaitFor(SocketMonitorEvent.ConnectRetried);
        Assert.Equal(0, monitor.Count(SocketMonitorEvent.Connected));
        Assert.Equal(0, monitor.Count(SocketMonitorEvent.Closed));
        Assert.False(listener.Pending(), "nothing connected");
    }

    [Theory]
    [InlineData("tcp://127.0.0.2;127.0.0.1:5555")]
    [InlineData("tcp://:0;127.0.0.1:5555")]
    [InlineData("tcp://127.0.0.2:x;127.0.0.1:5555")]
    [InlineData("tcp://[::1]:0;127.0.0.1:5555")]
    [InlineData("ws://127.0.0.2:0;127.0.0.1:5555/")]
    public void Connect_SourceThatCannotBind_Einval(string endpoint)
    {
        var dealer = Create(SocketType.Dealer);

        AssertZmqError(ZmqConstants.EINVAL, () => dealer.Connect(endpoint));
    }

    [Fact]
    public void Bind_WithSource_ListensOnTheTargetAlone()
    {
        var router = Create(SocketType.Router);

        router.Bind("tcp://127.0.0.2:0;127.0.0.1:*");

        Assert.StartsWith("tcp://127.0.0.1:", router.GetOptionString(SocketOption.Last_Endpoint));
        AssertZmqError(ZmqConstants.EINVAL, () => Create(SocketType.Router).Bind("tcp://127.0.0.2;127.0.0.1:*"));
    }

    /// <summary>A port nothing listens on at <paramref name="address"/> now (its socket is closed again).</summary>
    private static int FreePort(IPAddress address)
    {
        using var probe = new System.Net.Sockets.Socket(address.AddressFamily, System.Net.Sockets.SocketType.Stream, ProtocolType.Tcp);
        probe.Bind(new IPEndPoint(address, 0));
        return ((IPEndPoint)probe.LocalEndPoint!).Port;
    }
}
