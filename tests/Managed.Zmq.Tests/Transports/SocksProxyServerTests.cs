using Managed.Zmq.Tests.Support;

namespace Managed.Zmq.Tests.Transports;

/// <summary>
/// Socks_Proxy, Socks_Username and Socks_Password against a real SOCKS5 server, Debian's microsocks:
/// RFC 1928 without authentication, RFC 1929 username/password, wrong credentials and a destination the
/// proxy cannot reach. A failed tunnel closes the attempt and retries after Reconnect_Ivl, as libzmq's SOCKS
/// connecter does; nothing reaches the server meanwhile.
/// </summary>
public sealed class SocksProxyServerTests : TransportSockets
{
    private const int FastReconnect = 10;

    [Fact]
    public void SocksProxy_MicrosocksNoAuthentication_Delivers()
    {
        using var proxy = MicrosocksProxy.Start();
        var (pull, push) = PushThroughProxy(proxy);

        push.Connect(pull.GetOptionString(SocketOption.Last_Endpoint));
        push.Send("through microsocks");

        Assert.Equal("through microsocks", pull.RecvString());
    }

    [Fact]
    public void SocksUsername_MicrosocksWithRightCredentials_Delivers()
    {
        using var proxy = MicrosocksProxy.Start("zmq-user", "zmq-secret");
        var (pull, push) = PushThroughProxy(proxy);
        push.SetOption(SocketOption.Socks_Username, "zmq-user");
        push.SetOption(SocketOption.Socks_Password, "zmq-secret");

        push.Connect(pull.GetOptionString(SocketOption.Last_Endpoint));
        push.Send("authenticated");

        Assert.Equal("authenticated", pull.RecvString());
    }

    [Theory]
    [InlineData("zmq-user", "wrong")]
    [InlineData("someone-else", "zmq-secret")]
    [InlineData(null, null)] // no username: we offer only "no authentication", which this proxy refuses
    public void SocksUsername_MicrosocksWithWrongCredentials_NothingDeliveredAndRetried(string? username, string? password)
    {
        using var proxy = MicrosocksProxy.Start("zmq-user", "zmq-secret");
        var (pull, push) = PushThroughProxy(proxy);
        if (username is not null)
        {
            push.SetOption(SocketOption.Socks_Username, username);
            push.SetOption(SocketOption.Socks_Password, password!);
        }

        using var monitor = MonitorProbe.Attach(Context, push);
        push.Connect(pull.GetOptionString(SocketOption.Last_Endpoint));
        push.Send("never", SendFlags.DontWait);

        AssertRetriedTwice(monitor);
        Assert.Equal(0, monitor.Count(MonitorProbe.HandshakeSucceeded));
        Assert.Equal(-1, pull.Recv(new byte[16], RecvFlags.DontWait));
    }

    [Fact]
    public void SocksProxy_DestinationRefusedByProxy_ClosedAndRetried()
    {
        using var proxy = MicrosocksProxy.Start();
        var push = Create(SocketType.Push);
        push.SetOption(SocketOption.Reconnect_Ivl, FastReconnect);
        push.SetOption(SocketOption.Socks_Proxy, $"127.0.0.1:{proxy.Port}");
        using var monitor = MonitorProbe.Attach(Context, push);

        // Nothing listens on this port, so microsocks answers the CONNECT with "connection refused".
        push.Connect(Support.RefusedPort.TcpEndpoint());

        AssertRetriedTwice(monitor);
        Assert.Equal(0, monitor.Count(MonitorProbe.HandshakeSucceeded));
    }

    private (Socket Pull, Socket Push) PushThroughProxy(MicrosocksProxy proxy)
    {
        var pull = Create(SocketType.Pull);
        pull.Bind("tcp://127.0.0.1:*");
        var push = Create(SocketType.Push);
        push.SetOption(SocketOption.Reconnect_Ivl, FastReconnect);
        push.SetOption(SocketOption.Socks_Proxy, $"127.0.0.1:{proxy.Port}");
        return (pull, push);
    }

    /// <summary>Each failed tunnel: the proxy connection is Closed, then a retry is scheduled; twice proves the loop.</summary>
    private static void AssertRetriedTwice(MonitorProbe monitor)
    {
        for (int attempt = 0; attempt < 2; attempt++)
        {
            monitor.WaitFor(SocketMonitorEvent.Closed);
            monitor.WaitFor(SocketMonitorEvent.ConnectRetried);
        }
    }
}
