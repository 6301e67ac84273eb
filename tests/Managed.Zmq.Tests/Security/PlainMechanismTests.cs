using System.Text;
using Managed.Zmq.Security;
using Managed.Zmq.Tests.Wire.Support;
using Managed.Zmq.Wire;
using static Managed.Zmq.Tests.Security.Support.MechanismHarness;

namespace Managed.Zmq.Tests.Security;

/// <summary>PLAIN (RFC 24; docs/libzmq-behaviour.md L8) client and server against each other and against malformed input.</summary>
public sealed class PlainMechanismTests
{
    [Fact]
    public void WriteNextCommand_Client_SendsExactHello()
    {
        using var client = Client("admin", "secret");

        Assert.Equal(
            WireBytes.ToHex(WireBytes.Parse("04 13 05 'HELLO' 05 'admin' 06 'secret'")),
            WireBytes.ToHex(TakeCommandFrame(client)));
        Assert.Null(TakeCommandFrame(client));
    }

    [Fact]
    public void Handshake_Zap200_BothReadyWithExactWelcome()
    {
        using var client = Client("admin", "secret");
        using var server = Server(handler: true);
        IReadOnlyList<byte[]>? seen = null;
        var bodies = new List<string>();

        Run(client, server, request =>
        {
            // Copied: the server wipes the password frame once ZAP has answered.
            seen = request.Select(frame => frame.ToArray()).ToList();
            return Reply("200", "admin");
        }, (side, body) =>
        {
            bodies.Add(side + ":" + Encoding.ASCII.GetString(body, 1, body[0]));
            if (side == "server" && body[0] == 7 && body[1] == (byte)'W')
            {
                Assert.Equal(WireBytes.ToHex(WireBytes.Parse("07 'WELCOME'")), WireBytes.ToHex(body));
            }

            return body;
        });

        Assert.Equal(["client:HELLO", "server:WELCOME", "client:INITIATE", "server:READY"], bodies);
        Assert.Equal(MechanismStatus.Ready, client.Status);
        Assert.Equal(MechanismStatus.Ready, server.Status);
        Assert.Equal(["1.0", "1", "dom", "127.0.0.1", "", "PLAIN", "admin", "secret"], seen!.Select(f => Encoding.ASCII.GetString(f)));
        Assert.Equal("admin", server.PeerMetadata.UserId);
        Assert.Equal("DEALER", server.PeerMetadata.SocketType);
        Assert.Equal("ROUTER", client.PeerMetadata.SocketType);
    }

    [Fact]
    public void Handshake_CredentialsAndDomainNotUtf8_ReachZapAsSet()
    {
        // Octets, as libzmq sends them: none is valid UTF-8, and 255 octets of 0xFF would not fit a one-octet
        // length if they were re-encoded as text.
        byte[] user = Enumerable.Repeat((byte)0xFF, 255).ToArray();
        byte[] password = [0xE9, 0x00, 0x80];
        byte[] domain = [0xC3, 0x28];
        using var client = Client(user, password);
        using var server = Server(handler: true, domain);
        IReadOnlyList<byte[]>? seen = null;

        Run(client, server, request =>
        {
            seen = request.Select(frame => frame.ToArray()).ToList();
            return Reply("200", "admin");
        });

        Assert.Equal(MechanismStatus.Ready, server.Status);
        Assert.Equal(domain, seen![2]);
        Assert.Equal(user, seen[6]);
        Assert.Equal(password, seen[7]);
    }

    [Fact]
    public void ProcessCommand_HelloWithoutZapHandler_FailsNoDetailEfault()
    {
        using var client = Client("admin", "secret");
        using var server = Server(handler: false);

        Run(client, server);

        Assert.Equal(MechanismStatus.Error, server.Status);
        Assert.Equal(MechanismError.NoDetail(ZmqConstants.EFAULT), server.Error);
        Assert.Equal(MechanismStatus.Handshaking, client.Status);
    }

    [Theory]
    [InlineData("05 'HELLO'")]
    [InlineData("05 'HELLO' 05 'admin'")]
    [InlineData("05 'HELLO' 05 'admin' 06 'secre'")]
    [InlineData("05 'HELLO' 05 'admin' 06 'secret' 00")]
    [InlineData("05 'HELLO' 09 'admin'")]
    public void ProcessCommand_MalformedHello_FailsWithMalformedHello(string body)
    {
        using var server = Server(handler: true);

        server.ProcessCommand(WireBytes.Parse(body));

        Assert.Equal(MechanismError.Protocol(ZmqConstants.ZMQ_PROTOCOL_ERROR_ZMTP_MALFORMED_COMMAND_HELLO), server.Error);
        Assert.Null(server.TakeZapRequest());
    }

    [Fact]
    public void ProcessCommand_EmptyCredentials_AreAccepted()
    {
        using var server = Server(handler: true);

        server.ProcessCommand(WireBytes.Parse("05 'HELLO' 00 00"));

        Assert.Equal(MechanismStatus.WaitingForZap, server.Status);
    }

    [Theory]
    [InlineData("08 'INITIATE'")]
    [InlineData("05 'READY'")]
    [InlineData("05 'ERROR' 03 '400'")]
    public void ProcessCommand_ServerExpectingHello_FailsOnAnythingElse(string body)
    {
        using var server = Server(handler: true);

        server.ProcessCommand(WireBytes.Parse(body));

        Assert.Equal(MechanismError.Protocol(ZmqConstants.ZMQ_PROTOCOL_ERROR_ZMTP_UNEXPECTED_COMMAND), server.Error);
    }

    [Fact]
    public void ProcessCommand_InitiateWhileWaitingForZap_FailsWithUnexpectedCommand()
    {
        using var server = Server(handler: true);
        server.ProcessCommand(WireBytes.Parse("05 'HELLO' 00 00"));

        server.ProcessCommand(WireBytes.Parse("08 'INITIATE'"));

        Assert.Equal(MechanismError.Protocol(ZmqConstants.ZMQ_PROTOCOL_ERROR_ZMTP_UNEXPECTED_COMMAND), server.Error);
    }

    [Fact]
    public void ProcessCommand_WelcomeWithData_FailsWithMalformedWelcome()
    {
        using var client = Client("a", "b");
        TakeCommandFrame(client);

        client.ProcessCommand(WireBytes.Parse("07 'WELCOME' 00"));

        Assert.Equal(MechanismError.Protocol(ZmqConstants.ZMQ_PROTOCOL_ERROR_ZMTP_MALFORMED_COMMAND_WELCOME), client.Error);
    }

    [Theory]
    [InlineData("05 'READY'")]
    [InlineData("08 'INITIATE'")]
    public void ProcessCommand_ClientExpectingWelcome_FailsOnAnythingElse(string body)
    {
        using var client = Client("a", "b");

        client.ProcessCommand(WireBytes.Parse(body));

        Assert.Equal(MechanismError.Protocol(ZmqConstants.ZMQ_PROTOCOL_ERROR_ZMTP_UNEXPECTED_COMMAND), client.Error);
    }

    [Fact]
    public void ProcessCommand_ReadyWithIncompatibleSocketType_FailsWithInvalidMetadata()
    {
        using var client = Client("a", "b");
        TakeCommandFrame(client);
        client.ProcessCommand(WireBytes.Parse("07 'WELCOME'"));
        TakeCommandFrame(client);

        client.ProcessCommand(WireBytes.Parse("05 'READY' 0B 'Socket-Type' 00 00 00 03 'PUB'"));

        Assert.Equal(MechanismError.Protocol(ZmqConstants.ZMQ_PROTOCOL_ERROR_ZMTP_INVALID_METADATA), client.Error);
    }

    [Fact]
    public void Handshake_InitiateWithIncompatibleSocketType_ServerFailsWithoutEvent()
    {
        using var client = Client("admin", "secret", SocketType.Pub);
        using var server = Server(handler: true);

        Run(client, server, _ => Reply("200", "admin"));

        // libzmq's PLAIN server raises no handshake event for bad metadata (docs/libzmq-behaviour.md L6); its client does.
        Assert.Equal(MechanismStatus.Error, server.Status);
        Assert.Equal(MechanismError.SilentProtocol(ZmqConstants.ZMQ_PROTOCOL_ERROR_ZMTP_INVALID_METADATA), server.Error);
    }

    [Theory]
    [InlineData("400", 400)]
    [InlineData("500", 500)]
    public void Handshake_ZapRefuses_ServerSendsErrorAndClientFailsWithAuth(string status, int expected)
    {
        using var client = Client("admin", "wrong");
        using var server = Server(handler: true);

        Run(client, server, _ => Reply(status));

        Assert.Equal(MechanismError.Auth(expected), server.Error);
        Assert.Equal(MechanismStatus.Error, client.Status);
        Assert.Equal(MechanismError.Auth(expected), client.Error);
    }

    [Fact]
    public void Handshake_Zap300_ServerFailsSilentlyAndClientWaits()
    {
        using var client = Client("admin", "wrong");
        using var server = Server(handler: true);

        Run(client, server, _ => Reply("300"));

        Assert.Equal(MechanismError.Auth(300), server.Error);
        Assert.Equal(MechanismStatus.Handshaking, client.Status);
    }

    private static PlainClient Client(string user, string password, SocketType type = SocketType.Dealer) =>
        Client(Encoding.UTF8.GetBytes(user), Encoding.UTF8.GetBytes(password), type);

    private static PlainClient Client(byte[] user, byte[] password, SocketType type = SocketType.Dealer) => new(new MechanismSettings
    {
        SocketType = type,
        Mechanism = ZmtpMechanism.Plain,
        PlainUsername = user,
        PlainPassword = password,
    });

    private static PlainServer Server(bool handler, byte[]? domain = null) => new(new MechanismSettings
    {
        SocketType = SocketType.Router,
        Mechanism = ZmtpMechanism.Plain,
        AsServer = true,
        ZapDomain = domain ?? "dom"u8.ToArray(),
        IsZapHandlerBound = () => handler,
        PeerAddress = "127.0.0.1",
    });
}
