using System.Buffers.Binary;
using System.Net;
using System.Net.Sockets;

namespace Managed.Zmq.Tests.Transports;

/// <summary>
/// The transport options that change what happens on the network, tested by their effect:
/// Socks_Proxy goes through a SOCKS5 proxy (RFC 1928), Tcp_Maxrt sets TCP_USER_TIMEOUT on the
/// connection, Use_Fd listens on the caller's socket.
/// </summary>
public sealed class TransportOptionTests : TransportSockets
{
    /// <summary>Linux IPPROTO_TCP and TCP_USER_TIMEOUT, read back through the managed raw-option API.</summary>
    private const int IpProtoTcp = 6;
    private const int TcpUserTimeout = 18;

    [Fact]
    public void SocksProxy_Set_ConnectionGoesThroughProxyAndDelivers()
    {
        using var proxy = new Socks5TestProxy(accept: true);
        var pull = Create(SocketType.Pull);
        pull.Bind("tcp://127.0.0.1:*");
        string endpoint = pull.GetOptionString(SocketOption.Last_Endpoint);
        var push = Create(SocketType.Push);
        push.SetOption(SocketOption.Socks_Proxy, $"127.0.0.1:{proxy.Port}");

        push.Connect(endpoint);
        push.Send("through the proxy");

        Assert.Equal("through the proxy", pull.RecvString());
        var request = proxy.WaitForRequest();
        Assert.Equal(1, request.AddressType);
        Assert.Equal(ParseEndpoint(endpoint), request.Target);
    }

    [Fact]
    public void SocksProxy_HostName_SentAsDomainForTheProxyToResolve()
    {
        using var proxy = new Socks5TestProxy(accept: true);
        var pull = Create(SocketType.Pull);
        pull.Bind("tcp://127.0.0.1:*");
        int port = ((IPEndPoint)ParseEndpoint(pull.GetOptionString(SocketOption.Last_Endpoint))).Port;
        var push = Create(SocketType.Push);
        push.SetOption(SocketOption.Socks_Proxy, $"127.0.0.1:{proxy.Port}");

        push.Connect($"tcp://localhost:{port}");
        push.Send("by name");

        Assert.Equal("by name", pull.RecvString());
        var request = proxy.WaitForRequest();
        Assert.Equal(3, request.AddressType);
        Assert.Equal("localhost", request.DomainName);
    }

    [Fact]
    public void SocksProxy_ProxyRefuses_NothingDeliveredAndRetried()
    {
        using var proxy = new Socks5TestProxy(accept: false);
        var pull = Create(SocketType.Pull);
        pull.Bind("tcp://127.0.0.1:*");
        var push = Create(SocketType.Push);
        push.SetOption(SocketOption.Reconnect_Ivl, 10);
        push.SetOption(SocketOption.Socks_Proxy, $"127.0.0.1:{proxy.Port}");

        push.Connect(pull.GetOptionString(SocketOption.Last_Endpoint));
        push.Send("never");

        // Two refused requests prove the connecter retries; the message never reached the server.
        proxy.WaitForRequest();
        proxy.WaitForRequest();
        Assert.Equal(-1, pull.Recv(new byte[16], RecvFlags.DontWait));
    }

    [Fact]
    public void TcpMaxrt_Set_ConnectionHasTcpUserTimeout()
    {
        Assert.True(OperatingSystem.IsLinux(), "TCP_USER_TIMEOUT is Linux's; this suite runs on Linux");
        var pull = Create(SocketType.Pull);
        pull.Bind("tcp://127.0.0.1:*");
        var push = Create(SocketType.Push);
        push.SetOption(SocketOption.Tcp_Maxrt, 4321);
        string monitorEndpoint = TestEndpoint.Inproc("maxrt-monitor");
        push.Monitor(monitorEndpoint, SocketMonitorEvent.Connected);
        var monitor = Create(SocketType.Pair);
        monitor.Connect(monitorEndpoint);

        push.Connect(pull.GetOptionString(SocketOption.Last_Endpoint));
        var connected = SocketMonitorEventData.Parse(monitor.RecvBytes(), monitor.RecvString());
        push.Send("x");
        Assert.Equal("x", pull.RecvString());

        // The monitor's value is the connection's descriptor: read the option back from it.
        Assert.Equal(4321, SocketDescriptor.ReadInt32Option(connected.Value, IpProtoTcp, TcpUserTimeout));
    }

    [Fact]
    public void Tos_Ipv6Connection_TrafficClassSet()
    {
        Assert.True(OperatingSystem.IsLinux(), "IPV6_TCLASS is read back with Linux's numbers; this suite runs on Linux");
        var pull = Create(SocketType.Pull);
        pull.SetOption(SocketOption.Ipv6, 1);
        pull.Bind("tcp://[::1]:*");
        var push = Create(SocketType.Push);
        push.SetOption(SocketOption.Ipv6, 1);
        push.SetOption(SocketOption.Tos, 0x28);
        string monitorEndpoint = TestEndpoint.Inproc("tos-monitor");
        push.Monitor(monitorEndpoint, SocketMonitorEvent.Connected);
        var monitor = Create(SocketType.Pair);
        monitor.Connect(monitorEndpoint);

        push.Connect(pull.GetOptionString(SocketOption.Last_Endpoint));
        var connected = SocketMonitorEventData.Parse(monitor.RecvBytes(), monitor.RecvString());
        push.Send("x");
        Assert.Equal("x", pull.RecvString());

        Assert.Equal(0x28, SocketDescriptor.ReadInt32Option(connected.Value, 41, 67));
    }

    [Fact]
    public void SndbufRcvbuf_SmallOnBothSides_AcceptedConnectionAnnouncesAWindowItsBufferHolds()
    {
        Assert.True(OperatingSystem.IsLinux(), "TCP_WINDOW_CLAMP is read back with Linux's numbers; this suite runs on Linux");
        var router = Create(SocketType.Router);
        var dealer = Create(SocketType.Dealer);
        foreach (var socket in new[] { router, dealer })
        {
            socket.SetOption(SocketOption.Sndbuf, 4096);
            socket.SetOption(SocketOption.Rcvbuf, 4096);
        }

        router.Bind("tcp://127.0.0.1:*");
        var accepted = WatchFor(router, SocketMonitorEvent.Accepted, "buffers-accepted");
        var connected = WatchFor(dealer, SocketMonitorEvent.Connected, "buffers-connected");
        dealer.Connect(router.GetOptionString(SocketOption.Last_Endpoint));
        dealer.Send("x");
        Assert.Equal("x", router.RecvMultipart().PeekLastString());

        // The monitors' values are the connections' descriptors. The clamp is what the kernel chose, during the
        // handshake, from the receive buffer the socket had then: a buffer set on the accepted socket afterwards
        // leaves a clamp far larger than the buffer, and the peer's segments overrun it.
        using var acceptedView = new System.Net.Sockets.Socket(new SafeSocketHandle(SocketMonitorEventData.Parse(accepted.RecvBytes(), accepted.RecvString()).Value, ownsHandle: false));
        using var connectedView = new System.Net.Sockets.Socket(new SafeSocketHandle(SocketMonitorEventData.Parse(connected.RecvBytes(), connected.RecvString()).Value, ownsHandle: false));
        Assert.Equal(connectedView.ReceiveBufferSize, acceptedView.ReceiveBufferSize);
        Assert.Equal(connectedView.SendBufferSize, acceptedView.SendBufferSize);
        int clamp = WindowClamp(acceptedView);
        Assert.True(clamp <= acceptedView.ReceiveBufferSize, $"window clamp {clamp} exceeds the receive buffer {acceptedView.ReceiveBufferSize}");
        Assert.Equal(WindowClamp(connectedView), clamp);
    }

    [Fact]
    public void Bind_TosAndBuffersSet_ListeningSocketHasThemForItsHandshakes()
    {
        var pull = Create(SocketType.Pull);
        pull.SetOption(SocketOption.Tos, 0x28);
        pull.SetOption(SocketOption.Sndbuf, 4096);
        pull.SetOption(SocketOption.Rcvbuf, 4096);
        var listening = WatchFor(pull, SocketMonitorEvent.Listening, "listening-options");

        pull.Bind("tcp://127.0.0.1:*");

        // LISTENING's value is the listening socket's descriptor. As libzmq, the options a connection takes from its
        // listener in the handshake (the buffers that size its window, the TOS of its answer) are set before it listens.
        using var view = new System.Net.Sockets.Socket(new SafeSocketHandle(SocketMonitorEventData.Parse(listening.RecvBytes(), listening.RecvString()).Value, ownsHandle: false));
        Assert.Equal(0x28, (int)view.GetSocketOption(SocketOptionLevel.IP, SocketOptionName.TypeOfService)!);
        using var unconnected = new System.Net.Sockets.Socket(AddressFamily.InterNetwork, System.Net.Sockets.SocketType.Stream, ProtocolType.Tcp);
        unconnected.SendBufferSize = 4096;
        unconnected.ReceiveBufferSize = 4096;
        Assert.Equal(unconnected.SendBufferSize, view.SendBufferSize);
        Assert.Equal(unconnected.ReceiveBufferSize, view.ReceiveBufferSize);
    }

    [Fact]
    public void Tos_DualStackListener_AcceptedIpv4PeerCarriesIpTos()
    {
        Assert.True(OperatingSystem.IsLinux(), "IP_TOS is read back with Linux's numbers; this suite runs on Linux");
        var pull = Create(SocketType.Pull);
        pull.SetOption(SocketOption.Ipv6, 1);
        pull.SetOption(SocketOption.Tos, 0x28);
        var accepted = WatchFor(pull, SocketMonitorEvent.Accepted, "tos-dual-accepted");
        pull.Bind("tcp://*:*");
        string port = pull.GetOptionString(SocketOption.Last_Endpoint).Split(':')[^1];
        var push = Create(SocketType.Push);

        push.Connect("tcp://127.0.0.1:" + port);
        push.Send("x");
        Assert.Equal("x", pull.RecvString());

        // An IPv6 socket's IPv4 peers take IP_TOS, not the traffic class: libzmq sets both on IPv6 sockets.
        Assert.Equal(0x28, SocketDescriptor.ReadInt32Option(SocketMonitorEventData.Parse(accepted.RecvBytes(), accepted.RecvString()).Value, 0, 1));
    }

    [Fact]
    public void UseFd_CallersListeningSocket_AcceptsOnItAndReportsItsEndpoint()
    {
        using var listener = new System.Net.Sockets.Socket(AddressFamily.InterNetwork, System.Net.Sockets.SocketType.Stream, ProtocolType.Tcp);
        listener.Bind(new IPEndPoint(IPAddress.Loopback, 0));
        listener.Listen(8);
        int port = ((IPEndPoint)listener.LocalEndPoint!).Port;
        var pull = Create(SocketType.Pull);
        pull.SetOption(SocketOption.Use_Fd, (int)listener.Handle);

        // libzmq still parses the endpoint, but listens on the given socket; Last_Endpoint is that socket's address.
        pull.Bind("tcp://127.0.0.1:*");
        Assert.Equal($"tcp://127.0.0.1:{port}", pull.GetOptionString(SocketOption.Last_Endpoint));
        var push = Create(SocketType.Push);
        push.Connect($"tcp://127.0.0.1:{port}");
        push.Send("via fd");

        Assert.Equal("via fd", pull.RecvString());

        // The descriptor stays the caller's and must outlive the socket that listens on it.
        pull.Dispose();
        Assert.True(listener.Poll(0, SelectMode.SelectError) is false, "the caller's socket is still open");
    }

    /// <summary>A monitor of <paramref name="socket"/> reporting <paramref name="monitored"/>, read from a PAIR.</summary>
    private Socket WatchFor(Socket socket, SocketMonitorEvent monitored, string name)
    {
        string monitorEndpoint = TestEndpoint.Inproc(name);
        socket.Monitor(monitorEndpoint, monitored);
        var monitor = Create(SocketType.Pair);
        monitor.Connect(monitorEndpoint);
        return monitor;
    }

    /// <summary>Linux TCP_WINDOW_CLAMP (IPPROTO_TCP 6, option 10).</summary>
    private static int WindowClamp(System.Net.Sockets.Socket socket)
    {
        Span<byte> value = stackalloc byte[sizeof(int)];
        Assert.Equal(sizeof(int), socket.GetRawSocketOption(IpProtoTcp, 10, value));
        return BinaryPrimitives.ReadInt32LittleEndian(value);
    }

    private static EndPoint ParseEndpoint(string endpoint)
    {
        string rest = endpoint["tcp://".Length..];
        int colon = rest.LastIndexOf(':');
        return new IPEndPoint(IPAddress.Parse(rest[..colon]), int.Parse(rest[(colon + 1)..], System.Globalization.CultureInfo.InvariantCulture));
    }

    /// <summary>What a client asked the proxy for.</summary>
    private sealed record SocksRequest(byte AddressType, IPEndPoint? Target, string? DomainName);

    /// <summary>
    /// A minimal SOCKS5 proxy (RFC 1928, "no authentication" only, CONNECT only) on loopback: it records each
    /// request and either relays bytes both ways to the target or answers "connection refused" (05).
    /// </summary>
    private sealed class Socks5TestProxy : IDisposable
    {
        private readonly TcpListener _listener = new(IPAddress.Loopback, 0);
        private readonly bool _accept;
        private readonly CancellationTokenSource _stop = new();
        private readonly System.Threading.Channels.Channel<SocksRequest> _requests = System.Threading.Channels.Channel.CreateUnbounded<SocksRequest>();
        private readonly List<IDisposable> _owned = [];
        private readonly Task _acceptLoop;

        public Socks5TestProxy(bool accept)
        {
            _accept = accept;
            _listener.Start();
            Port = ((IPEndPoint)_listener.LocalEndpoint).Port;
            _acceptLoop = AcceptLoopAsync();
        }

        public int Port { get; }

        public SocksRequest WaitForRequest()
        {
            using var timeout = new CancellationTokenSource(Timeout);
            return _requests.Reader.ReadAsync(timeout.Token).AsTask().GetAwaiter().GetResult();
        }

        public void Dispose()
        {
            _stop.Cancel();
            _listener.Stop();
            lock (_owned)
            {
                foreach (var item in _owned)
                {
                    item.Dispose();
                }
            }

            _acceptLoop.Wait(Timeout);
            _stop.Dispose();
        }

        private async Task AcceptLoopAsync()
        {
            try
            {
                while (!_stop.IsCancellationRequested)
                {
                    var client = await _listener.AcceptTcpClientAsync(_stop.Token);
                    Own(client);
                    _ = ServeAsync(client);
                }
            }
            catch (Exception ex) when (ex is OperationCanceledException or SocketException or ObjectDisposedException)
            {
            }
        }

        private void Own(IDisposable item)
        {
            lock (_owned)
            {
                _owned.Add(item);
            }
        }

        private async Task ServeAsync(TcpClient client)
        {
            try
            {
                var stream = client.GetStream();
                byte[] buffer = new byte[262];
                await stream.ReadExactlyAsync(buffer.AsMemory(0, 2), _stop.Token);
                Assert.Equal(5, buffer[0]);
                await stream.ReadExactlyAsync(buffer.AsMemory(0, buffer[1]), _stop.Token);
                await stream.WriteAsync(new byte[] { 5, 0 }, _stop.Token);

                await stream.ReadExactlyAsync(buffer.AsMemory(0, 4), _stop.Token);
                byte type = buffer[3];
                IPAddress? address = null;
                string? name = null;
                if (type == 1)
                {
                    await stream.ReadExactlyAsync(buffer.AsMemory(0, 4), _stop.Token);
                    address = new IPAddress(buffer.AsSpan(0, 4));
                }
                else if (type == 4)
                {
                    await stream.ReadExactlyAsync(buffer.AsMemory(0, 16), _stop.Token);
                    address = new IPAddress(buffer.AsSpan(0, 16));
                }
                else
                {
                    await stream.ReadExactlyAsync(buffer.AsMemory(0, 1), _stop.Token);
                    int length = buffer[0];
                    await stream.ReadExactlyAsync(buffer.AsMemory(0, length), _stop.Token);
                    name = System.Text.Encoding.ASCII.GetString(buffer, 0, length);
                }

                await stream.ReadExactlyAsync(buffer.AsMemory(0, 2), _stop.Token);
                int port = BinaryPrimitives.ReadUInt16BigEndian(buffer);
                var target = address is null ? null : new IPEndPoint(address, port);
                _requests.Writer.TryWrite(new SocksRequest(type, target, name));
                if (!_accept)
                {
                    await stream.WriteAsync(new byte[] { 5, 5, 0, 1, 0, 0, 0, 0, 0, 0 }, _stop.Token);
                    client.Dispose();
                    return;
                }

                var upstream = new TcpClient();
                Own(upstream);
                await upstream.ConnectAsync(target ?? new IPEndPoint(IPAddress.Loopback, port), _stop.Token);
                await stream.WriteAsync(new byte[] { 5, 0, 0, 1, 127, 0, 0, 1, 0, 0 }, _stop.Token);
                var other = upstream.GetStream();
                await Task.WhenAny(stream.CopyToAsync(other, _stop.Token), other.CopyToAsync(stream, _stop.Token));
            }
            catch (Exception ex) when (ex is OperationCanceledException or IOException or SocketException or ObjectDisposedException)
            {
            }
        }
    }
}
