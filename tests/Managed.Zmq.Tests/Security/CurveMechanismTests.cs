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

/// <summary>CurveZMQ (RFC 26, errata 2-6, L9) client and server with no sockets.</summary>
public sealed class CurveMechanismTests
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

    [Theory]
    [InlineData(0, 0)]
    [InlineData(5, 1)]
    [InlineData(200, 0)]
    [InlineData(300, 1)]
    [InlineData(70000, 0)]
    [InlineData(6, 4)]
    public void EncodeDecode_BothDirections_RoundTripBodyAndFlags(int length, byte frameFlags)
    {
        var flags = (ZmtpFrameFlags)frameFlags;
        using var client = Client();
        using var server = Server();
        Run(client, server);
        byte[] body = WireBytes.Pattern(length);

        for (int i = 0; i < 3; i++)
        {
            RoundTrip(client, server, body, flags);
            RoundTrip(server, client, body, flags);
        }
    }

    [Fact]
    public void Encode_Ping_PutsCommandFlagInsideTheBoxAndSendsAPlainMessageFrame()
    {
        using var client = Client();
        using var server = Server();
        Run(client, server);
        byte[] ping = WireBytes.Parse("04 'PING' 00 64");
        var frame = new byte[2 + ping.Length];
        ZmtpCommandCodec.WriteFrame(frame, "PING"u8, WireBytes.Parse("00 64"));

        var encoded = new byte[client.GetEncodedLength(ping.Length)];
        Assert.Equal(encoded.Length, client.Encode(frame, encoded));

        // The MESSAGE travels as a message frame (flags 0): COMMAND is payload flag 0x02 (L9).
        Assert.Equal(0x00, encoded[0]);
        Assert.Equal(8 + 8 + 16 + 1 + ping.Length, encoded[1]);
        Assert.Equal(WireBytes.ToHex(WireBytes.Parse("07 'MESSAGE' 00 00 00 00 00 00 00 03")), WireBytes.ToHex(encoded.AsSpan(2, 16)));
        var decoded = new byte[frame.Length];
        Assert.Equal(frame.Length, server.Decode(encoded.AsSpan(2), decoded));
        Assert.Equal(WireBytes.ToHex(frame), WireBytes.ToHex(decoded));
    }

    [Fact]
    public void Encode_DestinationTooSmall_ReturnsMinusOne()
    {
        using var client = Client();
        using var server = Server();
        Run(client, server);
        var frame = new byte[] { 0, 1, 42 };

        Assert.Equal(-1, client.Encode(frame, new byte[client.GetEncodedLength(1) - 1]));
        byte[] message = Encode(client, [42], ZmtpFrameFlags.None);
        Assert.Equal(-1, server.Decode(message, new byte[2]));
        Assert.Equal(3, server.Decode(message, new byte[3]));
    }

    [Fact]
    public void Decode_ReplayedMessage_FailsWithInvalidSequence()
    {
        using var client = Client();
        using var server = Server();
        Run(client, server);
        byte[] message = Encode(client, [1, 2, 3], ZmtpFrameFlags.None);
        Assert.True(server.Decode(message, new byte[16]) > 0);

        Assert.Equal(-2, server.Decode(message, new byte[16]));

        Assert.Equal(MechanismError.Protocol(ZmqConstants.ZMQ_PROTOCOL_ERROR_ZMTP_INVALID_SEQUENCE), server.Error);
        Assert.Equal(MechanismStatus.Error, server.Status);
    }

    [Fact]
    public void Decode_NonIncreasingNonce_FailsWithInvalidSequence()
    {
        using var client = Client();
        using var server = Server();
        Run(client, server);
        byte[] first = Encode(client, [1], ZmtpFrameFlags.None);
        byte[] second = Encode(client, [2], ZmtpFrameFlags.None);
        Assert.True(server.Decode(second, new byte[16]) > 0);

        Assert.Equal(-2, server.Decode(first, new byte[16]));

        Assert.Equal(MechanismError.Protocol(ZmqConstants.ZMQ_PROTOCOL_ERROR_ZMTP_INVALID_SEQUENCE), server.Error);
    }

    [Fact]
    public void Decode_GapInNonces_IsAccepted()
    {
        using var client = Client();
        using var server = Server();
        Run(client, server);
        Encode(client, [1], ZmtpFrameFlags.None);
        byte[] third = Encode(client, [3], ZmtpFrameFlags.None);

        Assert.True(server.Decode(third, new byte[16]) > 0);
    }

    [Theory]
    [InlineData(8)]
    [InlineData(16)]
    [InlineData(20)]
    [InlineData(32)]
    public void Decode_ForgedBox_FailsWithCryptographic(int offset)
    {
        using var client = Client();
        using var server = Server();
        Run(client, server);
        byte[] message = Encode(client, [1, 2, 3], ZmtpFrameFlags.None);
        message[offset] ^= 0x01;

        Assert.Equal(-2, server.Decode(message, new byte[16]));

        // A changed nonce (offset 8) still increases, so the box is what fails.
        Assert.Equal(MechanismError.Protocol(ZmqConstants.ZMQ_PROTOCOL_ERROR_ZMTP_CRYPTOGRAPHIC), server.Error);
    }

    [Fact]
    public void Decode_OwnMessageReflected_FailsBecauseThePrefixDiffers()
    {
        using var client = Client();
        using var server = Server();
        Run(client, server);
        byte[] message = Encode(client, [1], ZmtpFrameFlags.None);

        // Same session key both ways; only "CurveZMQMESSAGEC" vs "CurveZMQMESSAGES" keeps a reflected message out.
        Assert.Equal(-2, client.Decode(message, new byte[16]));
        Assert.Equal(MechanismError.Protocol(ZmqConstants.ZMQ_PROTOCOL_ERROR_ZMTP_CRYPTOGRAPHIC), client.Error);
    }

    [Fact]
    public void Decode_ShortMessage_FailsWithMalformedMessage()
    {
        using var client = Client();
        using var server = Server();
        Run(client, server);
        byte[] message = Encode(client, [], ZmtpFrameFlags.None);

        Assert.Equal(-2, server.Decode(message.AsSpan(0, 32), new byte[16]));
        Assert.Equal(MechanismError.Protocol(ZmqConstants.ZMQ_PROTOCOL_ERROR_ZMTP_MALFORMED_COMMAND_MESSAGE), server.Error);
    }

    [Fact]
    public void Decode_NotAMessage_FailsWithUnexpectedCommand()
    {
        using var client = Client();
        using var server = Server();
        Run(client, server);

        Assert.Equal(-2, server.Decode(WireBytes.Parse("04 'PING' 00 00"), new byte[16]));
        Assert.Equal(MechanismError.Protocol(ZmqConstants.ZMQ_PROTOCOL_ERROR_ZMTP_UNEXPECTED_COMMAND), server.Error);
    }

    [Theory]
    [InlineData(199)]
    [InlineData(201)]
    public void ProcessCommand_HelloOfWrongSize_FailsWithMalformedHello(int size)
    {
        using var client = Client();
        using var server = Server();
        byte[] hello = TakeCommandBody(client)!;
        var resized = new byte[size];
        hello.AsSpan(0, Math.Min(size, hello.Length)).CopyTo(resized);

        server.ProcessCommand(resized);

        Assert.Equal(MechanismError.Protocol(ZmqConstants.ZMQ_PROTOCOL_ERROR_ZMTP_MALFORMED_COMMAND_HELLO), server.Error);
    }

    [Theory]
    [InlineData(6, 2)]
    [InlineData(7, 1)]
    public void ProcessCommand_HelloWithWrongVersion_FailsWithMalformedHello(int offset, byte value)
    {
        AssertServerRejects(ZmqConstants.ZMQ_PROTOCOL_ERROR_ZMTP_MALFORMED_COMMAND_HELLO, "client", "HELLO", body => body[offset] = value);
    }

    [Fact]
    public void ProcessCommand_HelloPaddingNotZero_IsAccepted()
    {
        using var client = Client();
        using var server = Server();

        Run(client, server, tamper: (side, body) =>
        {
            if (IsCommand(body, "HELLO"))
            {
                body[20] = 0xFF;
            }

            return body;
        });

        Assert.Equal(MechanismStatus.Ready, server.Status);
    }

    [Theory]
    [InlineData(80)]
    [InlineData(112)]
    [InlineData(150)]
    public void ProcessCommand_HelloTampered_FailsWithCryptographic(int offset)
    {
        AssertServerRejects(ZmqConstants.ZMQ_PROTOCOL_ERROR_ZMTP_CRYPTOGRAPHIC, "client", "HELLO", body => body[offset] ^= 0x40);
    }

    [Fact]
    public void Handshake_ClientHasWrongServerKey_ServerFailsWithCryptographic()
    {
        var otherServerPublic = new byte[32];
        ManagedCurveCrypto.Instance.DerivePublicKey(Enumerable.Repeat((byte)7, 32).ToArray(), otherServerPublic);
        using var client = Client(serverKey: otherServerPublic);
        using var server = Server();

        Run(client, server);

        Assert.Equal(MechanismError.Protocol(ZmqConstants.ZMQ_PROTOCOL_ERROR_ZMTP_CRYPTOGRAPHIC), server.Error);
        Assert.Equal(MechanismStatus.Handshaking, client.Status);
    }

    [Fact]
    public void Constructor_SmallOrderServerKey_FailsWithCryptographic()
    {
        using var client = Client(serverKey: new byte[32]);

        Assert.Equal(MechanismError.Protocol(ZmqConstants.ZMQ_PROTOCOL_ERROR_ZMTP_CRYPTOGRAPHIC), client.Error);
        Assert.Null(TakeCommandFrame(client));
    }

    [Theory]
    [InlineData(167)]
    [InlineData(169)]
    public void ProcessCommand_WelcomeOfWrongSize_ClientFailsWithCryptographic(int size)
    {
        AssertClientRejects(ZmqConstants.ZMQ_PROTOCOL_ERROR_ZMTP_CRYPTOGRAPHIC, "WELCOME", body =>
        {
            var resized = new byte[size];
            body.AsSpan(0, Math.Min(size, body.Length)).CopyTo(resized);
            return resized;
        });
    }

    [Theory]
    [InlineData(8)]
    [InlineData(30)]
    [InlineData(167)]
    public void ProcessCommand_WelcomeTampered_ClientFailsWithCryptographic(int offset)
    {
        AssertClientRejects(ZmqConstants.ZMQ_PROTOCOL_ERROR_ZMTP_CRYPTOGRAPHIC, "WELCOME", body =>
        {
            body[offset] ^= 0x01;
            return body;
        });
    }

    [Fact]
    public void ProcessCommand_ShortInitiate_FailsWithMalformedInitiate()
    {
        AssertServerRejects(ZmqConstants.ZMQ_PROTOCOL_ERROR_ZMTP_MALFORMED_COMMAND_INITIATE, "client", "INITIATE", null, body => body[..256]);
    }

    [Theory]
    [InlineData(9)]
    [InlineData(40)]
    [InlineData(104)]
    public void ProcessCommand_InitiateWithTamperedCookie_FailsWithCryptographic(int offset)
    {
        AssertServerRejects(ZmqConstants.ZMQ_PROTOCOL_ERROR_ZMTP_CRYPTOGRAPHIC, "client", "INITIATE", body => body[offset] ^= 0x01);
    }

    [Fact]
    public void ProcessCommand_InitiateWithCookieOfAnotherConnection_FailsWithCryptographic()
    {
        // Run a first handshake to the point of INITIATE and keep its cookie.
        byte[]? foreignCookie = null;
        using (var otherClient = Client())
        using (var otherServer = Server())
        {
            Run(otherClient, otherServer, tamper: (side, body) =>
            {
                if (IsCommand(body, "INITIATE"))
                {
                    foreignCookie = body[9..105];
                }

                return body;
            });
        }

        AssertServerRejects(ZmqConstants.ZMQ_PROTOCOL_ERROR_ZMTP_CRYPTOGRAPHIC, "client", "INITIATE", body => foreignCookie!.CopyTo(body, 9));
    }

    [Theory]
    [InlineData(105)]
    [InlineData(113)]
    [InlineData(200)]
    public void ProcessCommand_InitiateBoxTampered_FailsWithCryptographic(int offset)
    {
        AssertServerRejects(ZmqConstants.ZMQ_PROTOCOL_ERROR_ZMTP_CRYPTOGRAPHIC, "client", "INITIATE", body => body[offset] ^= 0x01);
    }

    [Fact]
    public void Handshake_ClientPublicKeyDoesNotMatchItsSecret_VouchFailsWithCryptographic()
    {
        // The vouch is boxed with the client's secret key; the server opens it with the public key
        // the client claims, so a claimed key that is not the client's own fails.
        using var client = Client(publicKey: CurveTestKeys.ServerPublic);
        using var server = Server();

        Run(client, server);

        Assert.Equal(MechanismError.Protocol(ZmqConstants.ZMQ_PROTOCOL_ERROR_ZMTP_CRYPTOGRAPHIC), server.Error);
    }

    [Fact]
    public void ProcessCommand_ShortReady_ClientFailsWithMalformedReady()
    {
        AssertClientRejects(ZmqConstants.ZMQ_PROTOCOL_ERROR_ZMTP_MALFORMED_COMMAND_READY, "READY", body => body[..29]);
    }

    [Fact]
    public void ProcessCommand_ReadyTampered_ClientFailsWithCryptographic()
    {
        AssertClientRejects(ZmqConstants.ZMQ_PROTOCOL_ERROR_ZMTP_CRYPTOGRAPHIC, "READY", body =>
        {
            body[^1] ^= 0x01;
            return body;
        });
    }

    [Fact]
    public void ProcessCommand_ServerGetsInitiateFirst_FailsWithUnexpectedCommand()
    {
        using var server = Server();

        server.ProcessCommand(WireBytes.Parse("08 'INITIATE'"));

        Assert.Equal(MechanismError.Protocol(ZmqConstants.ZMQ_PROTOCOL_ERROR_ZMTP_UNEXPECTED_COMMAND), server.Error);
    }

    [Fact]
    public void ProcessCommand_ClientGetsReadyBeforeWelcome_FailsWithUnexpectedCommand()
    {
        using var client = Client();
        TakeCommandFrame(client);

        client.ProcessCommand(WireBytes.Parse("05 'READY' 00 00 00 00 00 00 00 01"));

        Assert.Equal(MechanismError.Protocol(ZmqConstants.ZMQ_PROTOCOL_ERROR_ZMTP_UNEXPECTED_COMMAND), client.Error);
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
        ZapHandlerPresent = zap,
        PeerAddress = "127.0.0.1",
        CurveCrypto = crypto ?? ManagedCurveCrypto.Instance,
    };
}
