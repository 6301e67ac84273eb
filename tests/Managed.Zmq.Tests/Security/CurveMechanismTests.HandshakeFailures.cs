using Managed.Zmq.Security;
using Managed.Zmq.Security.Crypto;
using Managed.Zmq.Tests.Security.Crypto;
using Managed.Zmq.Tests.Wire.Support;
using static Managed.Zmq.Tests.Security.Support.MechanismHarness;

namespace Managed.Zmq.Tests.Security;

/// <summary>Handshake commands CURVE refuses: wrong sizes, tampered boxes and cookies, commands out of order.</summary>
public sealed partial class CurveMechanismTests
{
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
}
