using Managed.Zmq.Tests.Support;

namespace Managed.Zmq.Tests.Api.Sockets;

/// <summary>
/// SCATTER talks only to GATHER and CHANNEL only to CHANNEL (RFC 49, RFC 52; libzmq's check of the peer's
/// Socket-Type accepts no other): any other peer is refused in ZMTP's READY, under NULL with DISCONNECTED and no
/// handshake event, as libzmq (docs/libzmq-behaviour.md L6). tcp, ipc and ws: inproc has no handshake.
/// </summary>
public sealed class ScatterGatherChannelHandshakeTests : TransportSockets
{
    [Theory]
    [TransportCases(Transport.Tcp, Transport.Ipc, Transport.Ws, With = [
        "Push>Gather", "Scatter>Pull", "Scatter>Scatter", "Gather>Gather", "Client>Gather", "Scatter>Server",
        "Pair>Channel", "Channel>Pair", "Channel>Scatter", "Gather>Channel", "Dealer>Channel"])]
    public void Connect_IncompatiblePeer_ClosedWithoutHandshakeEvent(Transport transport, string connectingToBound)
    {
        string[] types = connectingToBound.Split('>');
        var binder = Create(Enum.Parse<SocketType>(types[1]));
        using var monitor = MonitorProbe.Attach(Context, binder);
        string endpoint = TestEndpoint.Bind(binder, transport, "handshake");
        var connector = Create(Enum.Parse<SocketType>(types[0]));
        connector.Connect(endpoint);

        monitor.AssertClosedWithoutHandshakeEvent();
    }

    [Theory]
    [TransportCases(Transport.Tcp, Transport.Ipc, Transport.Ws, With = ["Scatter>Gather", "Gather>Scatter", "Channel>Channel"])]
    public void Connect_CompatiblePeer_HandshakeSucceeds(Transport transport, string connectingToBound)
    {
        string[] types = connectingToBound.Split('>');
        var binder = Create(Enum.Parse<SocketType>(types[1]));
        using var monitor = MonitorProbe.Attach(Context, binder);
        string endpoint = TestEndpoint.Bind(binder, transport, "handshake");
        var connector = Create(Enum.Parse<SocketType>(types[0]));
        connector.Connect(endpoint);

        var succeeded = monitor.WaitFor(MonitorProbe.HandshakeSucceeded);

        Assert.Equal(MonitorProbe.HandshakeSucceeded, (int)succeeded.Event);
    }

    /// <summary>READY names the types as libzmq's socket_type_string does: GATHER, SCATTER, CHANNEL.</summary>
    [Theory]
    [InlineData(SocketType.Gather, "SCATTER", "GATHER")]
    [InlineData(SocketType.Scatter, "GATHER", "SCATTER")]
    [InlineData(SocketType.Channel, "CHANNEL", "CHANNEL")]
    public void Ready_BoundType_AnnouncesItsName(SocketType type, string peerName, string expected)
    {
        var socket = Create(type);
        socket.Bind("tcp://127.0.0.1:*");
        using var peer = RawPeer.Connect(RawPeer.PortOf(socket.GetOptionString(SocketOption.Last_Endpoint)));
        peer.Send(ZmtpBytes.Concat(ZmtpBytes.Greeting(), ZmtpBytes.Ready(peerName)));
        peer.ReadExactly(64);

        var (flags, body) = peer.ReadFrame();

        Assert.True((flags & ZmtpBytes.FlagCommand) != 0);
        Assert.Equal("READY", System.Text.Encoding.ASCII.GetString(body, 1, body[0]));
        byte[] property = ZmtpBytes.Property("Socket-Type", System.Text.Encoding.ASCII.GetBytes(expected));
        Assert.True(body.AsSpan().IndexOf(property) > 0, $"READY lacks Socket-Type {expected}: {Convert.ToHexString(body)}");
    }
}
