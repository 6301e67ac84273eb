using System.Buffers.Binary;
using System.Text;
using Managed.Zmq.Security;
using Managed.Zmq.Security.Crypto;
using Managed.Zmq.Tests.Security.Crypto;
using Managed.Zmq.Tests.Security.Support;
using Managed.Zmq.Tests.Wire.Support;
using Managed.Zmq.Wire;
using static Managed.Zmq.Tests.Security.Support.MechanismHarness;

namespace Managed.Zmq.Tests.Security;

/// <summary>
/// CurveZMQ (RFC 26, as libzmq reads it: docs/libzmq-behaviour.md L9) client and server with no sockets:
/// handshakes, ZAP and metadata here; traffic in CurveMechanismTests.Traffic.cs, refused handshake commands in
/// CurveMechanismTests.HandshakeFailures.cs.
/// </summary>
public sealed partial class CurveMechanismTests
{
    [Fact]
    public void Handshake_NoZapHandler_BothReadyWithExactCommandSizes()
    {
        using var client = Client();
        using var server = Server();
        var sizes = new List<string>();

        Run(client, server, tamper: (side, body) =>
        {
            sizes.Add(Encoding.ASCII.GetString(body, 1, body[0]) + ":" + body.Length);
            return body;
        });

        Assert.Equal(MechanismStatus.Ready, client.Status);
        Assert.Equal(MechanismStatus.Ready, server.Status);
        int metadata = ZmtpReady.GetMetadataLength(SocketType.Dealer, []);
        int serverMetadata = ZmtpReady.GetMetadataLength(SocketType.Router, []);
        Assert.Equal(["HELLO:200", "WELCOME:168", "INITIATE:" + (257 + metadata), "READY:" + (30 + serverMetadata)], sizes);
        Assert.Equal("ROUTER", client.PeerMetadata.SocketType);
        Assert.Equal("DEALER", server.PeerMetadata.SocketType);
        Assert.True(client.EncryptsTraffic);
    }

    [Fact]
    public void WriteNextCommand_Hello_HasVersionPaddingAndNonceOne()
    {
        using var client = Client();

        byte[] hello = TakeCommandBody(client)!;

        Assert.Equal(200, hello.Length);
        Assert.Equal(WireBytes.ToHex(WireBytes.Parse("05 'HELLO' 01 00")), WireBytes.ToHex(hello.AsSpan(0, 8)));
        Assert.All(hello.AsSpan(8, 72).ToArray(), b => Assert.Equal(0, b));
        Assert.Equal(1UL, BinaryPrimitives.ReadUInt64BigEndian(hello.AsSpan(112, 8)));
    }

    [Fact]
    public void Handshake_AndTraffic_UseLibzmqNoncePrefixesAndCounters()
    {
        var clientCrypto = new RecordingCurveCrypto();
        var serverCrypto = new RecordingCurveCrypto();
        using var client = Client(crypto: clientCrypto);
        using var server = Server(crypto: serverCrypto);
        Run(client, server);

        RoundTrip(client, server, "a"u8.ToArray(), ZmtpFrameFlags.None);
        RoundTrip(server, client, "b"u8.ToArray(), ZmtpFrameFlags.None);

        Assert.Equal(
            ["CurveZMQHELLO---:0000000000000001", "VOUCH---", "CurveZMQINITIATE:0000000000000002", "CurveZMQMESSAGEC:0000000000000003"],
            clientCrypto.SealNonces);
        Assert.Equal(
            ["COOKIE--", "WELCOME-", "CurveZMQREADY---:0000000000000001", "CurveZMQMESSAGES:0000000000000002"],
            serverCrypto.SealNonces);
    }

    [Fact]
    public void Handshake_ZapHandler200_SendsClientPermanentKeyAndCompletes()
    {
        using var client = Client();
        using var server = Server(zap: true);
        IReadOnlyList<byte[]>? request = null;

        Run(client, server, r =>
        {
            request = r;
            return Reply("200", "client-1");
        });

        Assert.Equal(MechanismStatus.Ready, server.Status);
        Assert.Equal(MechanismStatus.Ready, client.Status);
        Assert.Equal(["1.0", "1", "", "127.0.0.1", "", "CURVE"], request!.Take(6).Select(f => Encoding.ASCII.GetString(f)));
        Assert.Equal(CurveTestKeys.ClientPublic, request![6]);
        Assert.Equal("client-1", server.PeerMetadata.UserId);
    }

    [Theory]
    [InlineData("400", 400)]
    [InlineData("500", 500)]
    public void Handshake_ZapRefuses_ClearTextErrorAndBothFailWithAuth(string status, int expected)
    {
        using var client = Client();
        using var server = Server(zap: true);
        string? errorSeen = null;

        Run(client, server, _ => Reply(status), (side, body) =>
        {
            if (IsCommand(body, "ERROR"))
            {
                errorSeen = WireBytes.ToHex(body);
            }

            return body;
        });

        Assert.Equal(WireBytes.ToHex(WireBytes.Parse("05 'ERROR' 03 '" + status + "'")), errorSeen);
        Assert.Equal(MechanismError.Auth(expected), server.Error);
        Assert.Equal(MechanismError.Auth(expected), client.Error);
    }

    [Fact]
    public void Handshake_Zap300_ServerFailsWithoutErrorCommand()
    {
        using var client = Client();
        using var server = Server(zap: true);

        Run(client, server, _ => Reply("300"));

        Assert.Equal(MechanismError.Auth(300), server.Error);
        Assert.Equal(MechanismStatus.Handshaking, client.Status);
    }

    [Fact]
    public void Handshake_ZapReplyMalformed_ServerFailsWithZapError()
    {
        using var client = Client();
        using var server = Server(zap: true);

        Run(client, server, _ =>
        {
            byte[][] reply = Reply("200");
            reply[2] = "7"u8.ToArray();
            return reply;
        });

        Assert.Equal(MechanismError.Protocol(ZmqConstants.ZMQ_PROTOCOL_ERROR_ZAP_BAD_REQUEST_ID), server.Error);
    }

    [Fact]
    public void Create_Settings_PicksMechanismAndRole()
    {
        using IMechanism nullMechanism = MechanismFactory.Create(Settings(SocketType.Pair));
        using IMechanism plainClient = MechanismFactory.Create(Settings(SocketType.Pair, ZmtpMechanism.Plain));
        using IMechanism plainServer = MechanismFactory.Create(Settings(SocketType.Pair, ZmtpMechanism.Plain, asServer: true));
        using IMechanism curveClient = Client();
        using IMechanism curveServer = MechanismFactory.Create(ServerSettings(null, zap: false));

        Assert.IsType<NullMechanism>(nullMechanism);
        Assert.IsType<PlainClient>(plainClient);
        Assert.IsType<PlainServer>(plainServer);
        Assert.IsType<CurveServer>(curveServer);
        Assert.Throws<ArgumentException>(() => MechanismFactory.Create(Settings(SocketType.Pair, ZmtpMechanism.Gssapi)));
    }

    [Fact]
    public void EncodeDecode_AfterDispose_RefusedRatherThanUsingWipedKeys()
    {
        var client = Client();
        using var server = Server();
        Run(client, server);
        byte[] message = Encode(client, "before"u8.ToArray(), ZmtpFrameFlags.None);
        var frame = new byte[16];
        int header = ZmtpFrame.WriteHeader(frame, 5, ZmtpFrameFlags.None);

        client.Dispose();
        server.Dispose();

        Assert.Equal(-2, client.Encode(frame.AsSpan(0, header + 5), new byte[256]));
        Assert.Equal(-2, server.Decode(message, new byte[256]));
    }

    private static void RoundTrip(IMechanism from, IMechanism to, byte[] body, ZmtpFrameFlags flags)
    {
        var frame = new byte[ZmtpFrame.GetHeaderLength(body.Length) + body.Length];
        int header = ZmtpFrame.WriteHeader(frame, body.Length, flags);
        body.CopyTo(frame, header);

        byte[] message = Encode(from, body, flags);
        var decoded = new byte[frame.Length];
        Assert.Equal(frame.Length, to.Decode(message, decoded));
        Assert.Equal(WireBytes.ToHex(frame), WireBytes.ToHex(decoded));
    }

    /// <summary>Encodes one frame and returns the MESSAGE body (what Decode takes).</summary>
    private static byte[] Encode(IMechanism from, byte[] body, ZmtpFrameFlags flags)
    {
        var frame = new byte[ZmtpFrame.GetHeaderLength(body.Length) + body.Length];
        int header = ZmtpFrame.WriteHeader(frame, body.Length, flags);
        body.CopyTo(frame, header);
        var encoded = new byte[from.GetEncodedLength(body.Length)];
        Assert.Equal(encoded.Length, from.Encode(frame, encoded));
        Assert.Equal(ZmtpStatus.Done, ZmtpFrame.TryReadFrame(encoded, out ZmtpFrameHeader encodedHeader, out ReadOnlySpan<byte> message));
        Assert.Equal(ZmtpFrameFlags.None, encodedHeader.Flags & ~ZmtpFrameFlags.Long);
        return message.ToArray();
    }

    private static bool IsCommand(byte[] body, string name) =>
        body.Length > name.Length && body[0] == name.Length && Encoding.ASCII.GetString(body, 1, name.Length) == name;

    private static void AssertServerRejects(int expected, string side, string command, Action<byte[]>? change, Func<byte[], byte[]>? replace = null)
    {
        using var client = Client();
        using var server = Server();

        Run(client, server, tamper: (from, body) =>
        {
            if (from == side && IsCommand(body, command))
            {
                change?.Invoke(body);
                return replace is null ? body : replace(body);
            }

            return body;
        });

        Assert.Equal(MechanismStatus.Error, server.Status);
        Assert.Equal(MechanismError.Protocol(expected), server.Error);
    }

    private static void AssertClientRejects(int expected, string command, Func<byte[], byte[]> replace)
    {
        using var client = Client();
        using var server = Server();

        Run(client, server, tamper: (from, body) => from == "server" && IsCommand(body, command) ? replace(body) : body);

        Assert.Equal(MechanismStatus.Error, client.Status);
        Assert.Equal(MechanismError.Protocol(expected), client.Error);
    }

    [Fact]
    public void Handshake_InitiateWithIncompatibleSocketType_ServerFailsWithoutEvent()
    {
        using var client = new CurveClient(ClientSettings(SocketType.Pub));
        using var server = Server();

        Run(client, server);

        // libzmq's CURVE server raises no handshake event for bad metadata (docs/libzmq-behaviour.md L6).
        Assert.Equal(MechanismStatus.Error, server.Status);
        Assert.Equal(MechanismError.SilentProtocol(ZmqConstants.ZMQ_PROTOCOL_ERROR_ZMTP_INVALID_METADATA), server.Error);
    }

    [Fact]
    public void Handshake_ReadyWithOverlongIdentity_ClientFailsWithInvalidMetadata()
    {
        using var client = Client();
        using var server = new CurveServer(ServerSettings(null, zap: false, routingId: new byte[256]));

        Run(client, server);

        // The client's READY check is the one libzmq reports (docs/libzmq-behaviour.md L6).
        Assert.Equal(MechanismStatus.Ready, server.Status);
        Assert.Equal(MechanismStatus.Error, client.Status);
        Assert.Equal(MechanismError.Protocol(ZmqConstants.ZMQ_PROTOCOL_ERROR_ZMTP_INVALID_METADATA), client.Error);
    }

    private static CurveClient Client(byte[]? serverKey = null, byte[]? publicKey = null, ICurveCryptoProvider? crypto = null) =>
        new(ClientSettings(SocketType.Dealer, serverKey, publicKey, crypto));

    private static MechanismSettings ClientSettings(SocketType type, byte[]? serverKey = null, byte[]? publicKey = null, ICurveCryptoProvider? crypto = null) => new()
    {
        SocketType = type,
        Mechanism = ZmtpMechanism.Curve,
        CurvePublicKey = publicKey ?? CurveTestKeys.ClientPublic,
        CurveSecretKey = CurveTestKeys.ClientSecret,
        CurveServerKey = serverKey ?? CurveTestKeys.ServerPublic,
        CurveCrypto = crypto ?? ManagedCurveCrypto.Instance,
    };

    private static CurveServer Server(bool zap = false, ICurveCryptoProvider? crypto = null) => new(ServerSettings(crypto, zap));

    private static MechanismSettings ServerSettings(ICurveCryptoProvider? crypto, bool zap, byte[]? routingId = null) => new()
    {
        SocketType = SocketType.Router,
        RoutingId = routingId ?? [],
        Mechanism = ZmtpMechanism.Curve,
        AsServer = true,
        CurvePublicKey = CurveTestKeys.ServerPublic,
        CurveSecretKey = CurveTestKeys.ServerSecret,
        IsZapHandlerBound = () => zap,
        PeerAddress = "127.0.0.1",
        CurveCrypto = crypto ?? ManagedCurveCrypto.Instance,
    };
}
