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
    /// <summary>ZMTP 2.0's greeting after the signature: revision 01, socket type DEALER (RFC 15).</summary>
    private static readonly byte[] Zmtp20Dealer = [0x01, 0x05];

    [Theory]
    [InlineData(256)]
    [InlineData(65_536)]
    public void Handshake_PeerIdentityOver255Octets_RefusedAsInvalidMetadata(int length) =>
        AssertRefusedByRouter(ZmtpBytes.Concat(ZmtpBytes.Greeting(), ZmtpBytes.Ready("DEALER", ZmtpBytes.Property("Identity", new byte[length]))));

    [Theory]
    [InlineData(256)]
    [InlineData(65_536)]
    public void Handshake_Zmtp20PeerIdentityOver255Octets_Refused(int length) =>
        // RFC 15 §Formal Grammar: the identity is a final short frame. A long one is a protocol error, refused as a 3.x peer's is.
        AssertRefusedByRouter(ZmtpBytes.Concat(ZmtpBytes.Greeting()[..10], Zmtp20Dealer, ZmtpBytes.Frame(0, new byte[length]), ZmtpBytes.Message("hi")));

    [Fact]
    public void Handshake_Zmtp10PeerIdentityOver255Octets_Refused() =>
        // RFC 13 §The Connection Layer: 1 to 255 octets. A length of 0xFF then 8 octets (257: the flags octet and 256 octets), and a
        // flags octet with bit 0 clear: an unversioned ZMTP 1.0 peer.
        AssertRefusedByRouter(ZmtpBytes.Concat([0xFF, 0, 0, 0, 0, 0, 0, 0x01, 0x01, 0x00], new byte[256]));

    /// <summary>A ROUTER ends the connection that sent <paramref name="input"/>, with no handshake event and no internal error.</summary>
    private void AssertRefusedByRouter(byte[] input)
    {
        var guard = InternalErrorsGuard.Start();
        var server = Create(SocketType.Router);
        using var monitor = Monitor(server);
        using var peer = RawPeer.Connect(RawPeer.PortOf(BindTcp(server)));

        peer.Send(input);

        monitor.AssertClosedWithoutHandshakeEvent();
        Assert.True(peer.WaitUntilClosed(), "the connection stayed open");
        guard.AssertNoneSince();
    }

    [Fact]
    public void Handshake_Zmtp20PeerIdentity255Octets_AcceptedAndRoutedByIt()
    {
        var server = Create(SocketType.Router);
        using var peer = RawPeer.Connect(RawPeer.PortOf(BindTcp(server)));
        byte[] identity = Enumerable.Range(0, 255).Select(i => (byte)(i + 1)).ToArray();

        peer.Send(ZmtpBytes.Concat(ZmtpBytes.Greeting()[..10], Zmtp20Dealer, ZmtpBytes.Frame(0, identity), ZmtpBytes.Frame(0, "hi"u8)));

        Assert.Equal(identity, server.RecvBytes());
        Assert.Equal("hi", server.RecvString());
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
