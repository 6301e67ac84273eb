using Managed.Zmq.Tests.Engine.Support;
using Managed.Zmq.Tests.Support;

namespace Managed.Zmq.Tests.Engine;

/// <summary>
/// A scripted ZMTP 1.0 peer (RFC 13) where it must fail, or where only the monitor tells: refused by a socket
/// that uses security or ZAP, cut off for a frame RFC 13 forbids, never announced by HANDSHAKE_SUCCEEDED; and
/// frames large enough to travel outside the queues. libzmq reports each failure with DISCONNECTED alone (docs/libzmq-behaviour.md L25).
/// </summary>
public sealed class Zmtp10PeerFailureTests : ResilienceFixture
{
    private const int HandshakeFailedAuth = 0x4000;

    private static readonly int[] HandshakeEvents =
    [
        MonitorProbe.HandshakeFailedNoDetail, MonitorProbe.HandshakeFailedProtocol, HandshakeFailedAuth,
        MonitorProbe.HandshakeSucceeded,
    ];

    /// <summary>Waits for DISCONNECTED; every event the socket raised before it is then in <see cref="MonitorProbe.Seen"/>.</summary>
    private static void AssertDisconnectedWithoutHandshakeEvent(MonitorProbe monitor)
    {
        monitor.WaitFor(SocketMonitorEvent.Disconnected);
        Assert.DoesNotContain(monitor.Seen, e => HandshakeEvents.Contains((int)e.Event));
    }

    private static void Secure(Socket socket, string mechanism)
    {
        switch (mechanism)
        {
            case "PLAIN":
                socket.SetOption(SocketOption.Plain_Server, 1);
                break;
            case "CURVE":
                socket.SetOption(SocketOption.Curve_Server, 1);
                socket.SetOption(SocketOption.Curve_Secretkey, Curve.GenerateKeypair().SecretKey);
                break;
            default:
                socket.SetOption(SocketOption.Zap_Domain, "global");
                break;
        }
    }

    [Theory]
    [InlineData("PLAIN")]
    [InlineData("CURVE")]
    [InlineData("NULL with a ZAP domain")]
    public void OurSecureSocketBinds_Zmtp10PeerConnects_ClosedWithDisconnectedAlone(string mechanism)
    {
        // A 1.0 peer cannot authenticate (RFC 13 §Security): libzmq closes at once (docs/libzmq-behaviour.md L3), and so do we.
        var server = Create(SocketType.Pull);
        Secure(server, mechanism);
        using var monitor = Monitor(server);
        using var peer = RawPeer.Connect(RawPeer.PortOf(BindTcp(server)));

        peer.Send(Rfc13.Frame("peer"));

        Assert.True(peer.WaitUntilClosed(), "the server closes the 1.0 peer's connection");
        AssertDisconnectedWithoutHandshakeEvent(monitor);
    }

    [Fact]
    public void OurCurveClientConnects_Zmtp10PeerBinds_ClosedWithDisconnectedAlone()
    {
        var client = Create(SocketType.Dealer);
        var server = Curve.GenerateKeypair();
        var own = Curve.GenerateKeypair();
        client.SetOption(SocketOption.Curve_Serverkey, server.PublicKey);
        client.SetOption(SocketOption.Curve_Publickey, own.PublicKey);
        client.SetOption(SocketOption.Curve_Secretkey, own.SecretKey);
        using var monitor = Monitor(client);
        using var listener = new RawListener();
        client.Connect(listener.Endpoint);
        using var peer = listener.Accept();

        peer.Send(Rfc13.Frame(string.Empty));

        Assert.True(peer.WaitUntilClosed(), "our client closes the 1.0 peer's connection");
        AssertDisconnectedWithoutHandshakeEvent(monitor);
    }

    [Fact]
    public void Zmtp10Peer_ConnectsAndLeaves_NoHandshakeSucceededAsLibzmq()
    {
        // libzmq raises HANDSHAKE_SUCCEEDED when a mechanism becomes ready, which a 1.0 peer never has (docs/libzmq-behaviour.md L23).
        var pull = Create(SocketType.Pull);
        using var monitor = Monitor(pull);
        using (var peer = RawPeer.Connect(RawPeer.PortOf(BindTcp(pull))))
        {
            peer.Send([.. Rfc13.Frame(string.Empty), .. Rfc13.Message("hello")]);
            Assert.Equal("hello", pull.RecvString());
        }

        AssertDisconnectedWithoutHandshakeEvent(monitor);
        Assert.Equal(1, monitor.Count(SocketMonitorEvent.Accepted));
    }

    [Theory]
    // RFC 13: the length counts the flags octet, so 0 is impossible; libzmq's 1.0 decoder closes (EPROTO).
    [InlineData(false)]
    // MAXMSGSIZE applies to a 1.0 peer's frames as to any (libzmq's 1.0 decoder checks each body).
    [InlineData(true)]
    public void Zmtp10Peer_ForbiddenFrameAfterMessages_Closed(bool tooLarge)
    {
        var pull = Create(SocketType.Pull);
        pull.SetOption(SocketOption.Maxmsgsize, 32L);
        using var monitor = Monitor(pull);
        using var peer = RawPeer.Connect(RawPeer.PortOf(BindTcp(pull)));
        peer.Send([.. Rfc13.Frame(string.Empty), .. Rfc13.Message("before")]);
        Assert.Equal("before", pull.RecvString());

        peer.Send(tooLarge ? Rfc13.Frame(new string('x', 33)) : [0x00]);

        Assert.True(peer.WaitUntilClosed(), "the connection closes");
        AssertDisconnectedWithoutHandshakeEvent(monitor);
        AssertServesGoodClient(pull, pull.GetOptionString(SocketOption.Last_Endpoint));
    }

    [Fact]
    public void Zmtp10Peer_LargeFramesBothWays_ArriveWhole()
    {
        // Large enough to be received into, and sent from, a buffer of its own rather than the queue.
        byte[] inbound = [.. Enumerable.Range(0, 100_000).Select(i => (byte)(i * 31))];
        byte[] outbound = [.. Enumerable.Range(0, 150_000).Select(i => (byte)(i * 17))];
        var pair = Create(SocketType.Pair);
        using var peer = RawPeer.Connect(RawPeer.PortOf(BindTcp(pair)));
        peer.Send(Rfc13.Frame(string.Empty));
        Assert.Equal(Convert.ToHexString(Rfc13.Signature()), Convert.ToHexString(peer.ReadExactly(10)));

        peer.Send([.. Rfc13.Frame(inbound, more: true), .. Rfc13.Frame("tail")]);
        pair.Send(outbound);

        Assert.Equal(inbound, pair.RecvBytes());
        Assert.True(pair.HasMore);
        Assert.Equal("tail", pair.RecvString());
        var (more, body) = Rfc13.ReadFrame(peer);
        Assert.False(more);
        Assert.Equal(outbound, body);
    }
}
