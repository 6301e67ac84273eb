using Managed.Zmq.Tests.Support;

namespace Managed.Zmq.Tests.Engine;

/// <summary>
/// Routing ids are at most 255 octets (RFC 23 §The Identity Property, RFC 27's identity frame): a
/// peer's longer Identity ends that connection as an invalid property does (under NULL, DISCONNECTED with no
/// handshake event: docs/libzmq-behaviour.md L6), and a caller's longer Routing_Id or Connect_Routing_Id is EINVAL,
/// as in libzmq.
/// </summary>
public sealed class RoutingIdLimitTests : ResilienceFixture
{
    [Theory]
    [InlineData(256)]
    [InlineData(65_536)]
    public void Handshake_PeerIdentityOver255Octets_RefusedAsInvalidMetadata(int length)
    {
        var guard = InternalErrorsGuard.Start();
        var server = Create(SocketType.Router);
        using var monitor = Monitor(server);
        string endpoint = BindTcp(server);
        using var peer = RawPeer.Connect(RawPeer.PortOf(endpoint));

        peer.Send(ZmtpBytes.Concat(ZmtpBytes.Greeting(), ZmtpBytes.Ready("DEALER", ZmtpBytes.Property("Identity", new byte[length]))));

        monitor.AssertClosedWithoutHandshakeEvent();
        Assert.True(peer.WaitUntilClosed(), "the connection stayed open");
        guard.AssertNoneSince();
    }

    [Fact]
    public void Handshake_PeerIdentity255Octets_AcceptedAndRoutedByIt()
    {
        var server = Create(SocketType.Router);
        using var monitor = Monitor(server);
        string endpoint = BindTcp(server);
        using var peer = RawPeer.Connect(RawPeer.PortOf(endpoint));
        byte[] identity = Enumerable.Range(0, 255).Select(i => (byte)(i + 1)).ToArray();

        peer.Send(ZmtpBytes.Concat(ZmtpBytes.Greeting(), ZmtpBytes.Ready("DEALER", ZmtpBytes.Property("Identity", identity)), ZmtpBytes.Message("hi")));

        monitor.WaitFor(MonitorProbe.HandshakeSucceeded);
        Assert.Equal(identity, server.RecvBytes());
        Assert.Equal("hi", server.RecvString());
    }

    [Theory]
    [InlineData(SocketType.Dealer, "Routing_Id")]
    [InlineData(SocketType.Router, "Routing_Id")]
    [InlineData(SocketType.Router, "Connect_Routing_Id")]
    public void SetOption_RoutingIdOver255Octets_Einval(SocketType type, string optionName)
    {
        var option = Enum.Parse<SocketOption>(optionName);
        var socket = Create(type);

        var error = Assert.Throws<ZmqException>(() => socket.SetOption(option, new byte[256]));

        Assert.Equal(ZmqConstants.EINVAL, error.ErrorNumber);
        socket.SetOption(option, new byte[255]);
    }
}
