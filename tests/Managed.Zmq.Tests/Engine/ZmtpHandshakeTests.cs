using Managed.Zmq.Security;
using Managed.Zmq.Engine;
using Managed.Zmq.Tests.Support;
using Managed.Zmq.Tests.Wire.Support;

namespace Managed.Zmq.Tests.Engine;

/// <summary>
/// The ZMTP 3.x handshake driven against a scripted peer over an in-memory duplex, no sockets:
/// what we send (greeting, READY per RFC 23 §Worked Example), every way a peer can succeed
/// (3.0, 3.1, higher versions, bytes split anyhow) and every way it can be refused
/// (RFC 23 §Version Negotiation, §Authentication and Confidentiality, §Error Handling; docs/libzmq-behaviour.md L1–L7, docs/libzmq-behaviour.md L10).
/// </summary>
public sealed class ZmtpHandshakeTests
{
    private static readonly TimeSpan Timeout = TimeSpan.FromSeconds(5);

    private const string Greeting31 = "FF 00*7 01 7F 03 01 'NULL' 00*16 00 00*31";
    private const string Greeting30 = "FF 00*8 7F 03 00 'NULL' 00*16 00 00*31";
    private const string RouterReady = "04 29 05 'READY' 0B 'Socket-Type' 00 00 00 06 'ROUTER' 08 'Identity' 00 00 00 00";
    private const string DealerReady = "04 29 05 'READY' 0B 'Socket-Type' 00 00 00 06 'DEALER' 08 'Identity' 00 00 00 00";

    private static HandshakeSettings Dealer() => new() { Mechanism = new MechanismSettings { SocketType = SocketType.Dealer } };

    /// <summary>Starts a handshake, lets <paramref name="script"/> play the peer, then awaits the outcome.</summary>
    private static async Task<(HandshakeResult Result, byte[] Leftover)> RunAsync(HandshakeSettings settings, Func<ScriptedPeer, Task> script)
    {
        using var duplex = new InMemoryDuplex();
        var handshake = new ZmtpHandshake(duplex.Transport, settings).RunAsync().AsTask();
        await script(duplex.Peer);
        var result = await handshake.WaitAsync(Timeout);
        return (result, result.Leftover.ToArray());
    }

    /// <summary>The usual peer: reads our greeting, sends its own, reads our READY, sends <paramref name="afterGreeting"/>.</summary>
    private static Func<ScriptedPeer, Task> Peer(string greeting, string afterGreeting) => async peer =>
    {
        await peer.SendAsync(WireBytes.Parse(greeting));
        await peer.ReadExactlyAsync(64);
        await peer.ReadExactlyAsync(43);
        await peer.SendAsync(WireBytes.Parse(afterGreeting));
    };

    // ------------------------------------------------------------------ what we send

    [Fact]
    public async Task RunAsync_GreetingSentInLibzmqSteps_SignatureThenMajorThenRest()
    {
        // libzmq 4.3: 10 octets at once, the major version once the peer's signature is in, the rest once
        // its revision is in. Each read below is exact, so an early or missing part fails the test.
        using var duplex = new InMemoryDuplex();
        var handshake = new ZmtpHandshake(duplex.Transport, Dealer()).RunAsync().AsTask();
        byte[] expected = WireBytes.Parse(Greeting31);

        byte[] signature = await duplex.Peer.ReadExactlyAsync(10);
        await duplex.Peer.SendAsync(expected.AsSpan(0, 10).ToArray());
        byte[] major = await duplex.Peer.ReadExactlyAsync(1);
        await duplex.Peer.SendAsync(expected.AsSpan(10, 1).ToArray());
        byte[] rest = await duplex.Peer.ReadExactlyAsync(53);

        Assert.Equal(WireBytes.ToHex(expected.AsSpan(0, 10)), WireBytes.ToHex(signature));
        Assert.Equal("03", WireBytes.ToHex(major));
        Assert.Equal(WireBytes.ToHex(expected.AsSpan(11)), WireBytes.ToHex(rest));
        duplex.Peer.Close();
        Assert.Equal(HandshakeOutcome.ConnectionLost, (await handshake.WaitAsync(Timeout)).Outcome);
    }

    [Fact]
    public async Task RunAsync_RoutingIdSet_SignaturePaddingCarriesItsLengthPlusOne()
    {
        // RFC 23 §Detecting ZMTP 1.0 and 2.0 Peers; libzmq writes routing id length + 1 there.
        using var duplex = new InMemoryDuplex();
        var settings = new HandshakeSettings { Mechanism = new MechanismSettings { SocketType = SocketType.Dealer, RoutingId = "abc"u8.ToArray() } };
        var handshake = new ZmtpHandshake(duplex.Transport, settings).RunAsync().AsTask();

        byte[] signature = await duplex.Peer.ReadExactlyAsync(10);

        Assert.Equal("FF00000000000000047F", WireBytes.ToHex(signature));
        duplex.Peer.Close();
        await handshake.WaitAsync(Timeout);
    }

    [Fact]
    public async Task RunAsync_DealerWithoutRoutingId_SendsReadyAsRfc23WorkedExample()
    {
        using var duplex = new InMemoryDuplex();
        var handshake = new ZmtpHandshake(duplex.Transport, Dealer()).RunAsync().AsTask();
        await duplex.Peer.SendAsync(WireBytes.Parse(Greeting31));
        await duplex.Peer.ReadExactlyAsync(64);

        byte[] ready = await duplex.Peer.ReadExactlyAsync(43);

        Assert.Equal(WireBytes.ToHex(WireBytes.Parse(DealerReady)), WireBytes.ToHex(ready));
        await duplex.Peer.SendAsync(WireBytes.Parse(RouterReady));
        Assert.Equal(HandshakeOutcome.Succeeded, (await handshake.WaitAsync(Timeout)).Outcome);
    }

    [Fact]
    public async Task RunAsync_DealerWithRoutingId_AnnouncesItAsIdentity()
    {
        using var duplex = new InMemoryDuplex();
        var settings = new HandshakeSettings { Mechanism = new MechanismSettings { SocketType = SocketType.Dealer, RoutingId = "abc"u8.ToArray() } };
        var handshake = new ZmtpHandshake(duplex.Transport, settings).RunAsync().AsTask();
        await duplex.Peer.SendAsync(WireBytes.Parse(Greeting31));
        await duplex.Peer.ReadExactlyAsync(64);

        byte[] ready = await duplex.Peer.ReadExactlyAsync(46);

        Assert.Equal(
            WireBytes.ToHex(WireBytes.Parse("04 2C 05 'READY' 0B 'Socket-Type' 00 00 00 06 'DEALER' 08 'Identity' 00 00 00 03 'abc'")),
            WireBytes.ToHex(ready));
        duplex.Peer.Close();
        await handshake.WaitAsync(Timeout);
    }

    // ------------------------------------------------------------------ success

    [Theory]
    [InlineData(Greeting31, 1)]
    [InlineData(Greeting30, 0)]
    [InlineData("FF 00*8 7F 03 02 'NULL' 00*16 00 00*31", 1)]
    [InlineData("FF 00*8 7F 04 00 'NULL' 00*16 00 00*31", 1)]
    public async Task RunAsync_PeerVersion_SucceedsWithPeerMinorVersion(string greeting, int expectedMinor)
    {
        var (result, leftover) = await RunAsync(Dealer(), Peer(greeting, RouterReady));

        Assert.Equal(HandshakeOutcome.Succeeded, result.Outcome);
        Assert.Equal(expectedMinor, result.PeerMinorVersion);
        Assert.Equal("ROUTER", result.PeerMetadata.SocketType);
        Assert.Empty(result.PeerMetadata.Identity);
        Assert.Empty(leftover);
    }

    [Fact]
    public async Task RunAsync_PaddingNonZero_IsNotValidated()
    {
        var (result, _) = await RunAsync(Dealer(), Peer("FF 00 00 00 00 00 00 00 06 7F 03 01 'NULL' 00*16 00 00*31", RouterReady));

        Assert.Equal(HandshakeOutcome.Succeeded, result.Outcome);
    }

    [Fact]
    public async Task RunAsync_BytesAfterReadyInSameWrite_ReturnedAsLeftover()
    {
        var (result, leftover) = await RunAsync(Dealer(), Peer(Greeting31, RouterReady + " 01 00 00 03 'abc'"));

        Assert.Equal(HandshakeOutcome.Succeeded, result.Outcome);
        Assert.Equal(WireBytes.ToHex(WireBytes.Parse("01 00 00 03 'abc'")), WireBytes.ToHex(leftover));
    }

    [Fact]
    public async Task RunAsync_GreetingAndReadyInOneWrite_ReturnsOnlyTrafficAsLeftover()
    {
        var (result, leftover) = await RunAsync(Dealer(), async peer =>
        {
            await peer.SendAsync(WireBytes.Parse(Greeting31 + " " + RouterReady + " 00 02 'hi'"));
        });

        Assert.Equal(HandshakeOutcome.Succeeded, result.Outcome);
        Assert.Equal(WireBytes.ToHex(WireBytes.Parse("00 02 'hi'")), WireBytes.ToHex(leftover));
    }

    [Fact]
    public async Task RunAsync_PeerBytesOneAtATime_Succeeds()
    {
        var (result, _) = await RunAsync(Dealer(), async peer =>
        {
            foreach (byte b in WireBytes.Parse(Greeting31 + " " + RouterReady))
            {
                await peer.SendAsync([b]);
            }
        });

        Assert.Equal(HandshakeOutcome.Succeeded, result.Outcome);
    }

    [Fact]
    public async Task RunAsync_ReadyWithIdentity_ReturnsPeerIdentity()
    {
        const string readyWithIdentity = "04 2F 05 'READY' 0B 'Socket-Type' 00 00 00 06 'ROUTER' 08 'Identity' 00 00 00 06 'peer-1'";

        var (result, _) = await RunAsync(Dealer(), Peer(Greeting31, readyWithIdentity));

        Assert.Equal(HandshakeOutcome.Succeeded, result.Outcome);
        Assert.Equal("peer-1"u8.ToArray(), result.PeerMetadata.Identity);
    }

    [Fact]
    public async Task RunAsync_ReadyWithoutSocketType_AcceptedAsLibzmqDoes()
    {
        var (result, _) = await RunAsync(Dealer(), Peer(Greeting31, "04 06 05 'READY'"));

        Assert.Equal(HandshakeOutcome.Succeeded, result.Outcome);
        Assert.Null(result.PeerMetadata.SocketType);
    }

    // ------------------------------------------------------------------ refusals

    [Fact]
    public async Task RunAsync_Zmtp20Peer_DowngradesAndExchangesIdentities()
    {
        // RFC 15, as libzmq 4.3 serves it: our signature and major (03), then, seeing revision 01, our socket
        // type (DEALER 05) and our identity frame; the peer's type (ROUTER 06) and identity frame complete it.
        var settings = new HandshakeSettings { Mechanism = new MechanismSettings { SocketType = SocketType.Dealer, RoutingId = "me"u8.ToArray() } };
        byte[] ours = [];
        var (result, leftover) = await RunAsync(settings, async peer =>
        {
            await peer.SendAsync(WireBytes.Parse("FF 00*7 01 7F 01 06"));
            ours = await peer.ReadExactlyAsync(16);
            await peer.SendAsync(WireBytes.Parse("00 04 'peer' 01 01 'a' 00 01 'b'"));
        });

        Assert.Equal(HandshakeOutcome.Succeeded, result.Outcome);
        Assert.True(result.IsZmtp20);
        Assert.Equal(0, result.PeerMinorVersion);
        Assert.Equal(WireBytes.ToHex(WireBytes.Parse("FF 00*7 03 7F 03 05 00 02 'me'")), WireBytes.ToHex(ours));
        Assert.Equal("peer"u8.ToArray(), result.PeerMetadata.Identity);
        Assert.Equal("ROUTER", result.PeerMetadata.SocketType);
        Assert.Empty(result.PeerMetadata.Properties);
        Assert.Equal(WireBytes.ToHex(WireBytes.Parse("01 01 'a' 00 01 'b'")), WireBytes.ToHex(leftover));
    }

    [Theory]
    [InlineData(true, "")]
    [InlineData(false, "domain")]
    public async Task RunAsync_Zmtp20PeerWithSecurityOrZap_Refused(bool plain, string zapDomain)
    {
        var mechanism = plain ? Managed.Zmq.Wire.ZmtpMechanism.Plain : Managed.Zmq.Wire.ZmtpMechanism.Null;
        // A 2.0 peer cannot authenticate: libzmq refuses it when a mechanism or ZAP is on.
        var settings = new HandshakeSettings { Mechanism = new MechanismSettings { SocketType = SocketType.Dealer, Mechanism = mechanism, ZapDomain = System.Text.Encoding.UTF8.GetBytes(zapDomain) } };
        var (result, _) = await RunAsync(settings, peer => peer.SendAsync(WireBytes.Parse("FF 00*7 01 7F 01 06 00 00")));

        Assert.Equal(HandshakeOutcome.UnsupportedVersion, result.Outcome);
        Assert.True(result.Silent, "libzmq reports the refusal with DISCONNECTED alone");
    }

    [Theory]
    [InlineData("'PLAIN' 00*15")]
    [InlineData("'CURVE' 00*15")]
    [InlineData("'NULL' 00*15 01")]
    [InlineData("'NULL' 20*16")]
    public async Task RunAsync_MechanismMismatch_ProtocolErrorMechanismMismatch(string mechanism)
    {
        var (result, _) = await RunAsync(Dealer(), async peer =>
        {
            await peer.SendAsync(WireBytes.Parse("FF 00*8 7F 03 01 " + mechanism + " 00 00*31"));
        });

        Assert.Equal(HandshakeOutcome.ProtocolError, result.Outcome);
        Assert.Equal(0x11000002, result.ProtocolError);
    }

    [Fact]
    public async Task RunAsync_PeerSendsError_PeerErrorWithReason()
    {
        var (result, _) = await RunAsync(Dealer(), Peer(Greeting31, "04 10 05 'ERROR' 09 'no-access'"));

        Assert.Equal(HandshakeOutcome.PeerError, result.Outcome);
        // A reason that is not a ZAP status raises no monitor event in libzmq (docs/libzmq-behaviour.md L7).
        Assert.True(result.MechanismError is { IsSilent: true });
    }

    [Theory]
    [InlineData("00 05 'hello'")]
    [InlineData("01 00 00 02 'hi'")]
    [InlineData("04 05 04 'ABCD'")]
    [InlineData("04 06 05 'HELLO'")]
    public async Task RunAsync_MessageOrUnknownCommandInsteadOfReady_ProtocolErrorUnexpectedCommand(string frames)
    {
        var (result, _) = await RunAsync(Dealer(), Peer(Greeting31, frames));

        Assert.Equal(HandshakeOutcome.ProtocolError, result.Outcome);
        Assert.Equal(0x10000001, result.ProtocolError);
    }

    [Theory]
    [InlineData("04 19 05 'READY' 0B 'Socket-Type' 00 00 00 03 'PUB'")]
    [InlineData("04 1A 05 'READY' 0B 'Socket-Type' 00 00 00 04 'PULL'")]
    [InlineData("04 1B 05 'READY' 0B 'Socket-Type' 00 00 00 05 'BOGUS'")]
    public async Task RunAsync_ReadyWithIncompatibleSocketType_SilentProtocolErrorInvalidMetadata(string ready)
    {
        var (result, _) = await RunAsync(Dealer(), Peer(Greeting31, ready));

        // RFC 23 §The Socket-Type Property: the connection ends, and no reconnect follows (docs/libzmq-behaviour.md
        // docs/libzmq-behaviour.md L15); under NULL libzmq raises no handshake event for it (docs/libzmq-behaviour.md L6).
        Assert.Equal(HandshakeOutcome.ProtocolError, result.Outcome);
        Assert.Equal(0x10000018, result.ProtocolError);
        Assert.Equal(MechanismError.SilentProtocol(0x10000018), result.MechanismError);
    }

    [Theory]
    [InlineData(0)]
    [InlineData(1)]
    [InlineData(10)]
    [InlineData(40)]
    public async Task RunAsync_PeerClosesMidGreeting_ConnectionLost(int sentOctets)
    {
        var (result, _) = await RunAsync(Dealer(), async peer =>
        {
            await peer.SendAsync(WireBytes.Parse(Greeting31).AsSpan(0, sentOctets).ToArray());
            peer.Close();
        });

        Assert.Equal(HandshakeOutcome.ConnectionLost, result.Outcome);
    }

    [Fact]
    public async Task RunAsync_PeerClosesMidReady_ConnectionLost()
    {
        var (result, _) = await RunAsync(Dealer(), async peer =>
        {
            await peer.SendAsync(WireBytes.Parse(Greeting31 + " 04 29 05 'READY'"));
            peer.Close();
        });

        Assert.Equal(HandshakeOutcome.ConnectionLost, result.Outcome);
    }

    [Theory]
    [InlineData("06 40 00 00 00 00 00 00 00")]
    [InlineData("06 80 00 00 00 00 00 00 00")]
    [InlineData("06 00 00 00 00 7F FF FF FF")]
    public async Task RunAsync_HugeLengthPrefix_ProtocolErrorWithoutWaitingForBody(string header)
    {
        var (result, _) = await RunAsync(Dealer(), Peer(Greeting31, header));

        Assert.Equal(HandshakeOutcome.ProtocolError, result.Outcome);
    }

    [Fact]
    public async Task RunAsync_CommandLargerThanMaxMessageSize_ProtocolError()
    {
        var settings = new HandshakeSettings { Mechanism = new MechanismSettings { SocketType = SocketType.Dealer }, MaxMessageSize = 16 };

        var (result, _) = await RunAsync(settings, Peer(Greeting31, RouterReady));

        Assert.Equal(HandshakeOutcome.ProtocolError, result.Outcome);
    }
}
