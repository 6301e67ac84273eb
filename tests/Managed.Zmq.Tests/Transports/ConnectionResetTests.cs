using System.Net.Sockets;
using Managed.Zmq.Tests.Support;
using Managed.Zmq.Transports;
using Managed.Zmq.Options;

namespace Managed.Zmq.Tests.Transports;

/// <summary>
/// A connection reset (TCP RST) in either direction ends that one connection with DISCONNECTED;
/// a connecting socket comes back and the bound socket keeps serving. And the keep-alive options
/// really reach the OS socket.
/// </summary>
public sealed class ConnectionResetTests : ResilienceFixture
{
    [Fact]
    public void Reset_AcceptedPeerResetsAfterHandshake_DisconnectedAndNextClientServed()
    {
        var server = Create(SocketType.Pull);
        server.SetOption(SocketOption.Rcvtimeo, 5000);
        using var monitor = Monitor(server);
        string endpoint = BindTcp(server);
        using (var peer = RawPeer.Connect(RawPeer.PortOf(endpoint)))
        {
            peer.CompleteNullHandshake("PUSH");
            monitor.WaitFor(MonitorProbe.HandshakeSucceeded);
            peer.Abort();
        }

        monitor.WaitFor(SocketMonitorEvent.Disconnected);
        var client = Create(SocketType.Push);
        client.Connect(endpoint);
        client.Send("after the reset");
        Assert.Equal("after the reset", server.RecvString());
    }

    [Fact]
    public void Reset_ListenerResetsOurConnection_ConnectingSocketReconnectsAndDelivers()
    {
        using var listener = new RawListener();
        var client = Create(SocketType.Push);
        client.SetOption(SocketOption.Reconnect_Ivl, 20);
        using var monitor = Monitor(client);
        client.Connect(listener.Endpoint);

        using (var first = listener.Accept())
        {
            first.CompleteNullHandshake("PULL");
            first.Abort();
        }

        monitor.WaitFor(SocketMonitorEvent.Disconnected);
        using var second = listener.Accept();
        second.CompleteNullHandshake("PULL");
        client.Send("after the reset");
        var (flags, body) = second.ReadFrame();
        Assert.Equal(0, flags);
        Assert.Equal("after the reset"u8.ToArray(), body);
    }

    [Fact]
    public void SocketTuning_KeepaliveOptions_ReachTheOsSocket()
    {
        var options = new SocketOptions(SocketType.Push, ipv6Default: false);
        Assert.Equal(0, options.TrySet(OptionId.TcpKeepalive, BitConverter.GetBytes(1)));
        Assert.Equal(0, options.TrySet(OptionId.TcpKeepaliveIdle, BitConverter.GetBytes(30)));
        Assert.Equal(0, options.TrySet(OptionId.TcpKeepaliveInterval, BitConverter.GetBytes(5)));
        Assert.Equal(0, options.TrySet(OptionId.TcpKeepaliveCount, BitConverter.GetBytes(3)));
        using var socket = new System.Net.Sockets.Socket(AddressFamily.InterNetwork, System.Net.Sockets.SocketType.Stream, ProtocolType.Tcp);

        SocketTuning.Apply(socket, options);

        Assert.True(socket.NoDelay);
        Assert.Equal(1, (int)socket.GetSocketOption(SocketOptionLevel.Socket, SocketOptionName.KeepAlive)!);
        Assert.Equal(30, (int)socket.GetSocketOption(SocketOptionLevel.Tcp, SocketOptionName.TcpKeepAliveTime)!);
        Assert.Equal(5, (int)socket.GetSocketOption(SocketOptionLevel.Tcp, SocketOptionName.TcpKeepAliveInterval)!);
        Assert.Equal(3, (int)socket.GetSocketOption(SocketOptionLevel.Tcp, SocketOptionName.TcpKeepAliveRetryCount)!);
    }
}
