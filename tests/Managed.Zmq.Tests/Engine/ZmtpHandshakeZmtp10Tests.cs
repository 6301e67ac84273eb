using Managed.Zmq.Engine;
using Managed.Zmq.Security;
using Managed.Zmq.Tests.Support;
using Managed.Zmq.Tests.Wire.Support;
using Managed.Zmq.Wire;

namespace Managed.Zmq.Tests.Engine;

/// <summary>
/// The handshake with a ZMTP 1.0 peer (RFC 13) over an in-memory duplex, byte for byte as libzmq 4.3 does it
/// (libzmq notes docs/libzmq-behaviour.md L1–L3, docs/libzmq-behaviour.md L25): detected from octet 0 or octet 9 of what it sends, or from revision 00; identities
/// exchanged; refused, with no handshake event, when our socket uses security or ZAP.
/// </summary>
public sealed class ZmtpHandshakeZmtp10Tests
{
    private static readonly TimeSpan Timeout = TimeSpan.FromSeconds(5);

    private static HandshakeSettings Settings(SocketType type, string routingId = "", ZmtpMechanism mechanism = ZmtpMechanism.Null, string zapDomain = "") =>
        new() { Mechanism = new MechanismSettings { SocketType = type, RoutingId = System.Text.Encoding.ASCII.GetBytes(routingId), Mechanism = mechanism, ZapDomain = System.Text.Encoding.UTF8.GetBytes(zapDomain) } };

    /// <summary>Runs a handshake against <paramref name="script"/>; returns the result and every octet we sent until it ended.</summary>
    private static async Task<(HandshakeResult Result, byte[] Sent)> RunAsync(HandshakeSettings settings, Func<ScriptedPeer, Task> script)
    {
        using var duplex = new InMemoryDuplex();
        var handshake = new ZmtpHandshake(duplex.Transport, settings).RunAsync().AsTask();
        await script(duplex.Peer);
        var result = await handshake.WaitAsync(Timeout);

        // Our end closes here, so the peer reads exactly what the handshake sent, nothing more to wait for.
        duplex.Transport.Dispose();
        return (result, await duplex.Peer.ReadToEndAsync());
    }

    [Fact]
    public async Task RunAsync_UnversionedAnonymousPeer_SignatureIsOurIdentityHeaderAndBodyFollows()
    {
        // libzmq: FF, routing id length + 1, 7F (the flags octet), then the routing id; never the version octet.
        var (result, sent) = await RunAsync(Settings(SocketType.Dealer, "abc"), peer => peer.SendAsync(WireBytes.Parse("01 00 02 00 'x'")));

        Assert.Equal(HandshakeOutcome.Succeeded, result.Outcome);
        Assert.True(result.IsZmtp10);
        Assert.Equal(WireBytes.ToHex(WireBytes.Parse("FF 00*7 04 7F 'abc'")), WireBytes.ToHex(sent));
        Assert.Empty(result.PeerMetadata.Identity);
        Assert.Null(result.PeerMetadata.SocketType);
        Assert.Empty(result.PeerMetadata.Properties);
        Assert.Equal(WireBytes.ToHex(WireBytes.Parse("02 00 'x'")), WireBytes.ToHex(result.Leftover.Span));
    }

    [Fact]
    public async Task RunAsync_UnversionedPeerWithIdentity_IdentityTakenFromItsFirstFrame()
    {
        var (result, sent) = await RunAsync(Settings(SocketType.Router), peer => peer.SendAsync(WireBytes.Parse("05 00 'peer'")));

        Assert.Equal(HandshakeOutcome.Succeeded, result.Outcome);
        Assert.Equal(WireBytes.ToHex(WireBytes.Parse("FF 00*7 01 7F")), WireBytes.ToHex(sent));
        Assert.Equal("peer"u8.ToArray(), result.PeerMetadata.Identity);
        Assert.True(result.Leftover.IsEmpty);
    }

    [Fact]
    public async Task RunAsync_UnversionedPeerWithLongLengthForm_DetectedAtOctet9()
    {
        // RFC 13 lets the identity use the long form: octet 0 is then 0xFF and octet 9 (its flags, 00) has bit 0 clear.
        var (result, sent) = await RunAsync(Settings(SocketType.Dealer), peer => peer.SendAsync(WireBytes.Parse("FF 00*7 05 00 'peer'")));

        Assert.Equal(HandshakeOutcome.Succeeded, result.Outcome);
        Assert.True(result.IsZmtp10);
        Assert.Equal("peer"u8.ToArray(), result.PeerMetadata.Identity);
        Assert.Equal(WireBytes.ToHex(WireBytes.Parse("FF 00*7 01 7F")), WireBytes.ToHex(sent));
    }

    [Fact]
    public async Task RunAsync_UnversionedPeerSendsOctetsOneByOne_StillDetectedAndRead()
    {
        var (result, _) = await RunAsync(Settings(SocketType.Dealer), async peer =>
        {
            foreach (byte octet in WireBytes.Parse("FF 00*7 05 00 'peer' 02 00 'z'"))
            {
                await peer.SendAsync([octet]);
            }
        });

        Assert.Equal("peer"u8.ToArray(), result.PeerMetadata.Identity);
    }

    [Theory]
    [InlineData(SocketType.Pub, true)]
    [InlineData(SocketType.XPub, true)]
    [InlineData(SocketType.Push, false)]
    [InlineData(SocketType.Sub, false)]
    public async Task RunAsync_UnversionedPeer_PublishersTreatItAsSubscribedToAll(SocketType type, bool subscribesToAll)
    {
        // A 0MQ 2.x subscriber never subscribes (RFC 13 §Broadcast Content); libzmq's PUB and XPUB inject "subscribe all".
        var (result, _) = await RunAsync(Settings(type), peer => peer.SendAsync(WireBytes.Parse("01 00")));

        Assert.Equal(subscribesToAll, result.SubscribesToAll);
    }

    [Fact]
    public async Task RunAsync_VersionedZmtp10Peer_SocketTypeThenIdentityInRfc13Framing()
    {
        // Revision 00: libzmq answers as to 2.0 (major 03, its type number), then its identity as an RFC 13 frame.
        byte[] greeting = [];
        var (result, sent) = await RunAsync(Settings(SocketType.Router, "me"), async peer =>
        {
            await peer.SendAsync(WireBytes.Parse("FF 00*7 01 7F 00 05"));
            greeting = await peer.ReadExactlyAsync(12);
            await peer.SendAsync(WireBytes.Parse("05 00 'peer' 02 00 'q'"));
        });

        Assert.Equal(HandshakeOutcome.Succeeded, result.Outcome);
        Assert.True(result.IsZmtp10);
        Assert.False(result.SubscribesToAll);
        Assert.Equal(WireBytes.ToHex(WireBytes.Parse("FF 00*7 03 7F 03 06")), WireBytes.ToHex(greeting));
        Assert.Equal(WireBytes.ToHex(WireBytes.Parse("03 00 'me'")), WireBytes.ToHex(sent));
        Assert.Equal("peer"u8.ToArray(), result.PeerMetadata.Identity);
        Assert.Equal("DEALER", result.PeerMetadata.SocketType);
        Assert.Equal(WireBytes.ToHex(WireBytes.Parse("02 00 'q'")), WireBytes.ToHex(result.Leftover.Span));
    }

    [Fact]
    public async Task RunAsync_VersionedZmtp10PublisherPeer_NoPhantomSubscription()
    {
        var (result, _) = await RunAsync(Settings(SocketType.XPub), peer => peer.SendAsync(WireBytes.Parse("FF 00*7 01 7F 00 02 01 00")));

        Assert.True(result.IsZmtp10);
        Assert.False(result.SubscribesToAll);
    }

    [Theory]
    [InlineData("PLAIN", "", "05 00 'peer'")]
    [InlineData("CURVE", "", "05 00 'peer'")]
    [InlineData("NULL", "domain", "05 00 'peer'")]
    [InlineData("CURVE", "", "FF 00*7 05 00 'peer'")]
    [InlineData("PLAIN", "", "FF 00*7 01 7F 00 05 05 00 'peer'")]
    public async Task RunAsync_Zmtp10PeerWithSecurityOrZap_RefusedSilently(string mechanismName, string zapDomain, string peerBytes)
    {
        var mechanism = Enum.Parse<ZmtpMechanism>(mechanismName, ignoreCase: true);
        // A 1.0 peer cannot authenticate: libzmq closes with DISCONNECTED alone (no HANDSHAKE_FAILED_*), and sends no identity.
        var (result, sent) = await RunAsync(Settings(SocketType.Router, "id", mechanism, zapDomain), peer => peer.SendAsync(WireBytes.Parse(peerBytes)));

        Assert.Equal(HandshakeOutcome.UnsupportedVersion, result.Outcome);
        Assert.True(result.Silent);
        Assert.DoesNotContain("6964", WireBytes.ToHex(sent), StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("00")]
    [InlineData("FF 00*8 00")]
    [InlineData("FF 00*7 01 7F 00 05 00")]
    public async Task RunAsync_IdentityFrameOfLengthZero_ProtocolErrorSilently(string peerBytes)
    {
        // RFC 13: the length counts the flags octet, so 0 is impossible; libzmq's 1.0 decoder closes (EPROTO).
        var (result, _) = await RunAsync(Settings(SocketType.Dealer), peer => peer.SendAsync(WireBytes.Parse(peerBytes)));

        Assert.Equal(HandshakeOutcome.ProtocolError, result.Outcome);
        Assert.True(result.Silent);
    }

    [Fact]
    public async Task RunAsync_IdentityAboveMaxMessageSize_ProtocolError()
    {
        var settings = Settings(SocketType.Dealer);
        settings = new HandshakeSettings { Mechanism = settings.Mechanism, MaxMessageSize = 3 };

        var (result, _) = await RunAsync(settings, peer => peer.SendAsync(WireBytes.Parse("05 00 'peer'")));

        Assert.Equal(HandshakeOutcome.ProtocolError, result.Outcome);
    }

    [Fact]
    public async Task RunAsync_PeerClosesInsideIdentity_ConnectionLost()
    {
        var (result, _) = await RunAsync(Settings(SocketType.Dealer), async peer =>
        {
            await peer.SendAsync(WireBytes.Parse("05 00 'pe'"));
            peer.Close();
        });

        Assert.Equal(HandshakeOutcome.ConnectionLost, result.Outcome);
    }
}
