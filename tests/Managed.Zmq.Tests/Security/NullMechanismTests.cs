using System.Text;
using Managed.Zmq.Security;
using Managed.Zmq.Tests.Security.Support;
using Managed.Zmq.Tests.Wire.Support;
using Managed.Zmq.Wire;
using static Managed.Zmq.Tests.Security.Support.MechanismHarness;

namespace Managed.Zmq.Tests.Security;

/// <summary>The NULL mechanism (RFC 23/37 §The NULL Security Mechanism; docs/libzmq-behaviour.md L6, docs/libzmq-behaviour.md L7).</summary>
public sealed class NullMechanismTests
{
    [Fact]
    public void WriteNextCommand_DealerWithoutIdentity_MatchesRfcWorkedExample()
    {
        using var dealer = new NullMechanism(Settings(SocketType.Dealer));

        byte[]? frame = TakeCommandFrame(dealer);

        Assert.Equal(
            WireBytes.ToHex(WireBytes.Parse("04 29 05 'READY' 0B 'Socket-Type' 00 00 00 06 'DEALER' 08 'Identity' 00 00 00 00")),
            WireBytes.ToHex(frame));
        Assert.Null(TakeCommandFrame(dealer));
    }

    [Fact]
    public void Handshake_DealerToRouter_BothReadyWithPeerMetadata()
    {
        using var dealer = new NullMechanism(new MechanismSettings { SocketType = SocketType.Dealer, RoutingId = "me"u8.ToArray() });
        using var router = new NullMechanism(Settings(SocketType.Router));

        Run(dealer, router);

        Assert.Equal(MechanismStatus.Ready, dealer.Status);
        Assert.Equal(MechanismStatus.Ready, router.Status);
        Assert.Equal("ROUTER", dealer.PeerMetadata.SocketType);
        Assert.Equal("DEALER", router.PeerMetadata.SocketType);
        Assert.Equal("me"u8.ToArray(), router.PeerMetadata.Identity);
        Assert.Equal("DEALER"u8.ToArray(), router.PeerMetadata.Properties["socket-type"]);
        Assert.False(router.EncryptsTraffic);
    }

    [Fact]
    public void ProcessCommand_PeerReadyBeforeOwnReadyWritten_ReadyOnlyAfterWrite()
    {
        using var pull = new NullMechanism(Settings(SocketType.Pull));
        using var push = new NullMechanism(Settings(SocketType.Push));

        pull.ProcessCommand(TakeCommandBody(push)!);
        Assert.Equal(MechanismStatus.Handshaking, pull.Status);

        Assert.NotNull(TakeCommandBody(pull));
        Assert.Equal(MechanismStatus.Ready, pull.Status);
    }

    [Theory]
    [InlineData("05 'READY' 0B 'Socket-Type' 00 00 00 04 'PUSH'")]
    [InlineData("05 'READY' 0B 'Socket-Type' 00 00 00 06 'dealer'")]
    [InlineData("05 'READY' 0B 'Socket-Type' 00 00 00 06 'STREAM'")]
    public void ProcessCommand_IncompatibleSocketType_FailsWithoutEvent(string body)
    {
        using var dealer = new NullMechanism(Settings(SocketType.Dealer));

        dealer.ProcessCommand(WireBytes.Parse(body));

        // libzmq's NULL raises no handshake event for bad metadata, only DISCONNECTED (docs/libzmq-behaviour.md L6).
        Assert.Equal(MechanismStatus.Error, dealer.Status);
        Assert.Equal(MechanismError.SilentProtocol(ZmqConstants.ZMQ_PROTOCOL_ERROR_ZMTP_INVALID_METADATA), dealer.Error);
    }

    [Fact]
    public void ProcessCommand_MalformedMetadata_FailsWithoutEvent()
    {
        using var dealer = new NullMechanism(Settings(SocketType.Dealer));

        dealer.ProcessCommand(WireBytes.Parse("05 'READY' 0B 'Socket-Type' 00 00 00 09 'ROUTER'"));

        Assert.Equal(MechanismStatus.Error, dealer.Status);
        Assert.Equal(MechanismError.SilentProtocol(ZmqConstants.ZMQ_PROTOCOL_ERROR_ZMTP_INVALID_METADATA), dealer.Error);
    }

    [Fact]
    public void ProcessCommand_MissingSocketType_IsAccepted()
    {
        using var dealer = new NullMechanism(Settings(SocketType.Dealer));
        TakeCommandBody(dealer);

        dealer.ProcessCommand(WireBytes.Parse("05 'READY'"));

        Assert.Equal(MechanismStatus.Ready, dealer.Status);
        Assert.Null(dealer.PeerMetadata.SocketType);
    }

    [Theory]
    [InlineData("300", 300)]
    [InlineData("400", 400)]
    [InlineData("500", 500)]
    public void ProcessCommand_ErrorWithZapStatus_FailsWithAuth(string reason, int expected)
    {
        using var dealer = new NullMechanism(Settings(SocketType.Dealer));

        dealer.ProcessCommand(ErrorBody(reason));

        Assert.Equal(MechanismStatus.Error, dealer.Status);
        Assert.Equal(MechanismError.Auth(expected), dealer.Error);
    }

    [Theory]
    [InlineData("")]
    [InlineData("Bad-Socket-Type")]
    [InlineData("200")]
    [InlineData("4000")]
    public void ProcessCommand_ErrorWithOtherReason_FailsWithoutEvent(string reason)
    {
        using var dealer = new NullMechanism(Settings(SocketType.Dealer));

        dealer.ProcessCommand(ErrorBody(reason));

        Assert.Equal(MechanismStatus.Error, dealer.Status);
        Assert.True(dealer.Error.IsSilent);
    }

    [Fact]
    public void ProcessCommand_TruncatedError_FailsWithMalformedError()
    {
        using var dealer = new NullMechanism(Settings(SocketType.Dealer));

        dealer.ProcessCommand(WireBytes.Parse("05 'ERROR' 05 '40'"));

        Assert.Equal(MechanismError.Protocol(ZmqConstants.ZMQ_PROTOCOL_ERROR_ZMTP_MALFORMED_COMMAND_ERROR), dealer.Error);
    }

    [Theory]
    [InlineData("05 'HELLO' 00 00")]
    [InlineData("00")]
    [InlineData("")]
    public void ProcessCommand_UnknownCommand_FailsWithUnexpectedCommand(string body)
    {
        using var dealer = new NullMechanism(Settings(SocketType.Dealer));

        dealer.ProcessCommand(WireBytes.Parse(body));

        Assert.Equal(MechanismError.Protocol(ZmqConstants.ZMQ_PROTOCOL_ERROR_ZMTP_UNEXPECTED_COMMAND), dealer.Error);
    }

    [Fact]
    public void ProcessCommand_SecondReady_FailsWithUnexpectedCommand()
    {
        using var dealer = new NullMechanism(Settings(SocketType.Dealer));
        dealer.ProcessCommand(WireBytes.Parse("05 'READY' 0B 'Socket-Type' 00 00 00 06 'ROUTER'"));

        dealer.ProcessCommand(WireBytes.Parse("05 'READY' 0B 'Socket-Type' 00 00 00 06 'ROUTER'"));

        Assert.Equal(MechanismError.Protocol(ZmqConstants.ZMQ_PROTOCOL_ERROR_ZMTP_UNEXPECTED_COMMAND), dealer.Error);
    }

    [Fact]
    public void Constructor_ZapDomainWithoutHandler_SendsReadyAtOnce()
    {
        using var router = new NullMechanism(new MechanismSettings { SocketType = SocketType.Router, ZapDomain = "global"u8.ToArray() });

        Assert.Equal(MechanismStatus.Handshaking, router.Status);
        Assert.Null(router.TakeZapRequest());
        Assert.NotNull(TakeCommandBody(router));
    }

    [Fact]
    public void Constructor_ZapDomainWithHandler_WaitsForPeerReadyBeforeAskingZap()
    {
        using var router = new NullMechanism(ZapSettings());

        // Nothing goes out and ZAP is not asked until the client's READY is in, so a refusal's ERROR never reaches
        // a client that has not sent READY (a libzmq client would take the close for a lost connection and reconnect).
        Assert.Equal(MechanismStatus.Handshaking, router.Status);
        Assert.Null(TakeCommandBody(router));
        Assert.Null(router.TakeZapRequest());
    }

    [Fact]
    public void ProcessCommand_PeerReadyWithZap_AsksZapBeforeOwnReady()
    {
        using var router = ZapRouterWithPeerReady();

        Assert.Equal(MechanismStatus.WaitingForZap, router.Status);
        Assert.Null(TakeCommandBody(router));
        IReadOnlyList<byte[]>? request = router.TakeZapRequest();

        Assert.NotNull(request);
        Assert.Equal(["1.0", "1", "global", "10.0.0.7", "R1", "NULL"], request.Select(f => Encoding.ASCII.GetString(f)));
        Assert.Null(router.TakeZapRequest());
    }

    [Fact]
    public void ProcessZapReply_200_SendsReadyAndCarriesUserIdAndMetadata()
    {
        using var router = new NullMechanism(ZapSettings());
        using var dealer = new NullMechanism(Settings(SocketType.Dealer));
        byte[] metadata = new byte[ZmtpMetadata.GetPropertyLength(5, 2)];
        ZmtpMetadata.WriteProperty(metadata, "X-Key"u8, "v1"u8);

        Run(dealer, router, _ => Reply("200", "alice", metadata));

        Assert.Equal(MechanismStatus.Ready, router.Status);
        Assert.Equal(MechanismStatus.Ready, dealer.Status);
        Assert.Equal("alice", router.PeerMetadata.UserId);
        Assert.Equal("alice"u8.ToArray(), router.PeerMetadata.Properties["User-Id"]);
        Assert.Equal("v1"u8.ToArray(), router.PeerMetadata.Properties["X-Key"]);
    }

    [Fact]
    public void ProcessZapReply_PeerReadyClashesWithZapAndAddress_ZapAndAddressWin()
    {
        // libzmq inserts the peer address, then ZAP's properties, then the peer's, first one kept.
        using var router = new NullMechanism(ZapSettings());
        using var dealer = new NullMechanism(Settings(SocketType.Dealer));
        byte[] metadata = new byte[ZmtpMetadata.GetPropertyLength(5, 3)];
        ZmtpMetadata.WriteProperty(metadata, "X-Key"u8, "zap"u8);
        byte[] forged = WireBytes.Parse(
            "05 'READY' 0B 'Socket-Type' 00 00 00 06 'DEALER' 07 'User-Id' 00 00 00 07 'mallory' "
            + "05 'x-key' 00 00 00 04 'peer' 0C 'Peer-Address' 00 00 00 04 'evil' 05 'X-Own' 00 00 00 03 'yes'");

        Run(dealer, router, _ => Reply("200", "alice", metadata), (side, body) => side == "client" ? forged : body);

        Assert.Equal(MechanismStatus.Ready, router.Status);
        Assert.Equal("alice", router.PeerMetadata.Get("User-Id"));
        Assert.Equal("zap", router.PeerMetadata.Get("X-Key"));
        Assert.Equal("10.0.0.7", router.PeerMetadata.Get("Peer-Address"));
        Assert.Equal("yes", router.PeerMetadata.Get("X-Own"));
        Assert.Equal("DEALER", router.PeerMetadata.Get("Socket-Type"));
    }

    [Fact]
    public void ProcessZapReply_EmptyUserId_UserIdPropertyIsEmpty()
    {
        // libzmq keeps the reply's user id even when empty: zmq_msg_gets("User-Id") gives "".
        using var router = new NullMechanism(ZapSettings());
        using var dealer = new NullMechanism(Settings(SocketType.Dealer));

        Run(dealer, router, _ => Reply("200"));

        Assert.Equal(string.Empty, router.PeerMetadata.Get("User-Id"));
    }

    [Fact]
    public void Handshake_NoZap_NoUserIdAndAddressFromSettings()
    {
        using var dealer = new NullMechanism(new MechanismSettings { SocketType = SocketType.Dealer, RoutingId = "me"u8.ToArray() });
        using var router = new NullMechanism(Settings(SocketType.Router));

        Run(dealer, router);

        Assert.Null(router.PeerMetadata.Get("User-Id"));
        Assert.Equal("127.0.0.1", router.PeerMetadata.Get("Peer-Address"));
        Assert.Equal("me", router.PeerMetadata.Get("Identity"));
        Assert.Equal("me", router.PeerMetadata.Get("routing-id"));
        Assert.Null(dealer.PeerMetadata.Get("Peer-Address"));
    }

    [Theory]
    [InlineData("400")]
    [InlineData("500")]
    public void ProcessZapReply_400Or500_SendsErrorWithStatusThenFails(string status)
    {
        using var router = ZapRouterWithPeerReady();
        router.TakeZapRequest();

        router.ProcessZapReply(Reply(status));

        Assert.Equal(MechanismStatus.Handshaking, router.Status);
        Assert.Equal(WireBytes.ToHex(WireBytes.Parse("04 0A 05 'ERROR' 03 '" + status + "'")), WireBytes.ToHex(TakeCommandFrame(router)));
        Assert.Equal(MechanismStatus.Error, router.Status);
        Assert.Equal(MechanismError.Auth(int.Parse(status, System.Globalization.CultureInfo.InvariantCulture)), router.Error);
    }

    [Fact]
    public void ProcessZapReply_300_FailsWithoutError()
    {
        using var router = ZapRouterWithPeerReady();
        router.TakeZapRequest();

        router.ProcessZapReply(Reply("300"));

        Assert.Equal(MechanismStatus.Error, router.Status);
        Assert.Equal(MechanismError.Auth(300), router.Error);
        Assert.Null(TakeCommandFrame(router));
    }

    [Fact]
    public void ProcessZapReply_Malformed_FailsWithZapProtocolError()
    {
        using var router = ZapRouterWithPeerReady();
        router.TakeZapRequest();

        router.ProcessZapReply(Reply("200").Take(6).ToArray());

        Assert.Equal(MechanismError.Protocol(ZmqConstants.ZMQ_PROTOCOL_ERROR_ZAP_MALFORMED_REPLY), router.Error);
        Assert.Null(TakeCommandFrame(router));
    }

    [Fact]
    public void Handshake_DealerAndZapDealer_BothReadyAfterZap()
    {
        using var router = new NullMechanism(ZapSettings());
        using var dealer = new NullMechanism(Settings(SocketType.Dealer));
        int requests = 0;

        Run(dealer, router, _ =>
        {
            requests++;
            return Reply("200");
        });

        Assert.Equal(1, requests);
        Assert.Equal(MechanismStatus.Ready, router.Status);
    }

    internal static byte[] ErrorBody(string reason) =>
        [.. "\u0005ERROR"u8, (byte)reason.Length, .. Encoding.ASCII.GetBytes(reason)];

    /// <summary>A ROUTER with a ZAP domain and handler that has taken a DEALER's READY (and so has asked ZAP).</summary>
    private static NullMechanism ZapRouterWithPeerReady()
    {
        var router = new NullMechanism(ZapSettings());
        router.ProcessCommand(WireBytes.Parse("05 'READY' 0B 'Socket-Type' 00 00 00 06 'DEALER'"));
        return router;
    }

    private static MechanismSettings ZapSettings() => new()
    {
        SocketType = SocketType.Router,
        ZapDomain = "global"u8.ToArray(),
        IsZapHandlerBound = static () => true,
        PeerAddress = "10.0.0.7",
        RoutingId = "R1"u8.ToArray(),
    };
}
