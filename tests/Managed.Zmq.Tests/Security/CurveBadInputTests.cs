using System.Text;
using Managed.Zmq.Tests.Security.Support;
using Managed.Zmq.Tests.Support;

namespace Managed.Zmq.Tests.Security;

/// <summary>
/// Hostile or broken CURVE clients against our CURVE server over real TCP, each speaking the
/// protocol by hand (<see cref="RawCurveClient"/>). Every case must drop only that one connection,
/// raise the monitor event libzmq raises for it (docs/libzmq-behaviour.md L9, docs/libzmq-behaviour.md L23: HANDSHAKE_FAILED_PROTOCOL with the
/// protocol-error code, then DISCONNECTED), surface no exception on the user's thread, and leave
/// the server serving the next well-behaved client.
/// </summary>
public sealed class CurveBadInputTests
{
    private const int MalformedHello = 0x10000013, MalformedInitiate = 0x10000014, Cryptographic = 0x11000001,
        KeyExchange = 0x10000003, InvalidSequence = 0x10000002;

    private static void AssertDroppedAndStillServing(ServerUnderTest server, RawCurveClient bad, int protocolError)
    {
        // The monitor event is checked last, so that a missing event does not hide the rest.
        Assert.True(bad.WaitForClose(), "The server kept the bad connection open.");
        server.WaitFor(ServerUnderTest.Disconnected);
        server.AssertServesGoodClient("next good client");
        Assert.False(server.Socket.TryRecvString(out var extra), $"Something from the bad client was delivered: {extra}");
        server.WaitFor(ServerUnderTest.HandshakeFailedProtocol, protocolError);
    }

    [Fact]
    public void Hello_WrongSize_DropsConnectionWithMalformedHello()
    {
        using var server = new ServerUnderTest();
        using var bad = new RawCurveClient(server.Port, server.ServerPublic, RawCurveClient.NewKeys());
        bad.ExchangeGreetings();
        bad.SendCommand(bad.BuildHello()[..199]);
        AssertDroppedAndStillServing(server, bad, MalformedHello);
    }

    [Fact]
    public void Hello_OversizedByOne_DropsConnectionWithMalformedHello()
    {
        using var server = new ServerUnderTest();
        using var bad = new RawCurveClient(server.Port, server.ServerPublic, RawCurveClient.NewKeys());
        bad.ExchangeGreetings();
        bad.SendCommand([.. bad.BuildHello(), 0]);
        AssertDroppedAndStillServing(server, bad, MalformedHello);
    }

    [Fact]
    public void Hello_WrongVersion_DropsConnectionWithMalformedHello()
    {
        using var server = new ServerUnderTest();
        using var bad = new RawCurveClient(server.Port, server.ServerPublic, RawCurveClient.NewKeys());
        bad.ExchangeGreetings();
        bad.SendCommand(bad.BuildHello(major: 2, minor: 0));
        AssertDroppedAndStillServing(server, bad, MalformedHello);
    }

    [Fact]
    public void Hello_SignatureBoxTampered_DropsConnectionWithCryptographic()
    {
        using var server = new ServerUnderTest();
        using var bad = new RawCurveClient(server.Port, server.ServerPublic, RawCurveClient.NewKeys());
        bad.ExchangeGreetings();
        var hello = bad.BuildHello();
        hello[150] ^= 0x01;
        bad.SendCommand(hello);
        AssertDroppedAndStillServing(server, bad, Cryptographic);
    }

    [Fact]
    public void Initiate_Short_DropsConnectionWithMalformedInitiate()
    {
        using var server = new ServerUnderTest();
        using var bad = new RawCurveClient(server.Port, server.ServerPublic, RawCurveClient.NewKeys());
        bad.ExchangeGreetings();
        bad.SendCommand(bad.BuildHello());
        bad.ReadWelcome();
        bad.SendCommand(bad.BuildInitiate()[..256]);
        AssertDroppedAndStillServing(server, bad, MalformedInitiate);
    }

    [Fact]
    public void Initiate_VouchSignedByAnotherKey_DropsConnectionWithCryptographic()
    {
        using var server = new ServerUnderTest();
        using var bad = new RawCurveClient(server.Port, server.ServerPublic, RawCurveClient.NewKeys());
        bad.ExchangeGreetings();
        bad.SendCommand(bad.BuildHello());
        bad.ReadWelcome();
        bad.SendCommand(bad.BuildInitiate(vouchSigner: RawCurveClient.NewKeys().Secret));
        AssertDroppedAndStillServing(server, bad, Cryptographic);
    }

    [Fact]
    public void Initiate_VouchForAnotherTransientKey_DropsConnectionWithKeyExchange()
    {
        // The vouch opens (signed by C for S′) but vouches for a different C′: libzmq reports KEY_EXCHANGE.
        using var server = new ServerUnderTest();
        using var bad = new RawCurveClient(server.Port, server.ServerPublic, RawCurveClient.NewKeys());
        bad.ExchangeGreetings();
        bad.SendCommand(bad.BuildHello());
        bad.ReadWelcome();
        bad.SendCommand(bad.BuildInitiate(vouchedTransient: RawCurveClient.NewKeys().Public));
        AssertDroppedAndStillServing(server, bad, KeyExchange);
    }

    [Fact]
    public void Initiate_CookieTampered_DropsConnectionWithCryptographic()
    {
        using var server = new ServerUnderTest();
        using var bad = new RawCurveClient(server.Port, server.ServerPublic, RawCurveClient.NewKeys());
        bad.ExchangeGreetings();
        bad.SendCommand(bad.BuildHello());
        bad.ReadWelcome();
        var initiate = bad.BuildInitiate();
        initiate[9 + 40] ^= 0x80;
        bad.SendCommand(initiate);
        AssertDroppedAndStillServing(server, bad, Cryptographic);
    }

    [Fact]
    public void Message_ForgedBox_DropsConnectionWithCryptographicAfterGoodOne()
    {
        using var server = new ServerUnderTest();
        using var bad = new RawCurveClient(server.Port, server.ServerPublic, RawCurveClient.NewKeys());
        bad.Handshake();
        server.WaitFor(ServerUnderTest.HandshakeSucceeded);
        bad.SendMessageFrame(bad.BuildMessage(Encoding.UTF8.GetBytes("genuine")));
        Assert.Equal("genuine", server.Socket.RecvString());

        var forged = bad.BuildMessage(Encoding.UTF8.GetBytes("forged"));
        forged[^1] ^= 0x01;
        bad.SendMessageFrame(forged);
        AssertDroppedAndStillServing(server, bad, Cryptographic);
    }

    /// <summary>
    /// Our DEALER awaits the answer to what it sent, so its Recv reads and decrypts on its own thread (the read turn,
    /// docs/ARCHITECTURE.md): a forged box met there must end the connection just as the read loop would, with
    /// the same events, and the Recv must not deliver anything from it.
    /// </summary>
    [Fact]
    public void Message_ForgedBoxWhileAReplyIsAwaited_DropsConnectionWithCryptographic()
    {
        using var server = new ServerUnderTest(SocketType.Dealer);
        server.Socket.SetOption(SocketOption.Rcvtimeo, 500);
        for (int i = 1; i <= 5; i++)
        {
            using var bad = ConnectAndAsk(server, i);
            bad.SendMessageFrame(bad.BuildMessage(Encoding.UTF8.GetBytes($"genuine{i}")));
            Assert.Equal($"genuine{i}", server.Socket.RecvString());

            server.Socket.Send($"again{i}");
            Assert.NotNull(bad.ReadFrame(out _));
            var call = BackgroundCall.Start(() =>
            {
                var e = Assert.Throws<ZmqException>(() => server.Socket.RecvString());
                Assert.Equal(ZmqConstants.EAGAIN, e.ErrorNumber);
            });
            bad.SendMessageFrame(Forged(bad, $"forged{i}"));

            Assert.True(bad.WaitForClose(), "The server kept the bad connection open.");
            Assert.True(call.Wait(10_000), "the Recv did not end");
            server.WaitFor(ServerUnderTest.Disconnected, occurrence: i);
            server.WaitFor(ServerUnderTest.HandshakeFailedProtocol, Cryptographic, occurrence: i);
        }
    }

    /// <summary>
    /// A message and a PING in one write, then a forged box: the PING sends the decrypted bytes back to the read loop,
    /// which may receive the forged box before it hears of the hand-back. The message before the bad box must still be
    /// delivered, as it is without the turn (docs/libzmq-behaviour.md L15), and the bad box must end the connection.
    /// </summary>
    [Fact]
    public void Message_GoodAndPingThenForgedWhileAReplyIsAwaited_GoodDeliveredThenDropped()
    {
        using var server = new ServerUnderTest(SocketType.Dealer);
        server.Socket.SetOption(SocketOption.Rcvtimeo, 2000);
        for (int i = 1; i <= 30; i++)
        {
            using var bad = ConnectAndAsk(server, i);

            int round = i;
            var call = BackgroundCall.Start(() => Assert.Equal($"good{round}", server.Socket.RecvString()));
            byte[] ping = [4, .. "PING"u8, 0, 0, .. Encoding.UTF8.GetBytes($"p{i}")];
            bad.SendRaw([.. Frame(bad.BuildMessage(Encoding.UTF8.GetBytes($"good{i}"))), .. Frame(bad.BuildMessage(ping, flags: 0x02))]);
            bad.SendMessageFrame(Forged(bad, $"forged{i}"));

            Assert.True(call.Wait(10_000), "the Recv did not end");
            Assert.True(bad.WaitForClose(), "The server kept the bad connection open.");
            server.WaitFor(ServerUnderTest.HandshakeFailedProtocol, Cryptographic, occurrence: i);
        }
    }

    /// <summary>
    /// The <paramref name="i"/>th raw DEALER connected to <paramref name="server"/> (a DEALER), once the server has sent it
    /// a message: the server's next Recv awaits a reply, so it reads on its turn.
    /// </summary>
    private static RawCurveClient ConnectAndAsk(ServerUnderTest server, int i)
    {
        var bad = new RawCurveClient(server.Port, server.ServerPublic, RawCurveClient.NewKeys());
        bad.Handshake("DEALER");
        server.WaitFor(ServerUnderTest.HandshakeSucceeded, occurrence: i);
        server.Socket.Send($"ask{i}");
        Assert.NotNull(bad.ReadFrame(out _));
        return bad;
    }

    /// <summary>A MESSAGE body holding <paramref name="text"/> whose MAC is broken.</summary>
    private static byte[] Forged(RawCurveClient client, string text)
    {
        var forged = client.BuildMessage(Encoding.UTF8.GetBytes(text));
        forged[^1] ^= 0x01;
        return forged;
    }

    /// <summary>A short ZMTP frame holding a MESSAGE body (under 256 octets).</summary>
    private static byte[] Frame(byte[] body) => [0, (byte)body.Length, .. body];

    [Fact]
    public void Message_Replayed_DropsConnectionWithInvalidSequence()
    {
        using var server = new ServerUnderTest();
        using var bad = new RawCurveClient(server.Port, server.ServerPublic, RawCurveClient.NewKeys());
        bad.Handshake();
        var recorded = bad.BuildMessage(Encoding.UTF8.GetBytes("once"));
        bad.SendMessageFrame(recorded);
        Assert.Equal("once", server.Socket.RecvString());

        bad.SendMessageFrame(recorded);
        AssertDroppedAndStillServing(server, bad, InvalidSequence);
    }

    [Fact]
    public void Message_NonceGoesBackwards_DropsConnectionWithInvalidSequence()
    {
        using var server = new ServerUnderTest();
        using var bad = new RawCurveClient(server.Port, server.ServerPublic, RawCurveClient.NewKeys());
        bad.Handshake();

        // Gaps are allowed (docs/libzmq-behaviour.md L9): 10 after INITIATE's 2 is fine; 9 after 10 is not.
        bad.SendMessageFrame(bad.BuildMessage(Encoding.UTF8.GetBytes("ten"), nonce: 10));
        Assert.Equal("ten", server.Socket.RecvString());
        bad.SendMessageFrame(bad.BuildMessage(Encoding.UTF8.GetBytes("nine"), nonce: 9));
        AssertDroppedAndStillServing(server, bad, InvalidSequence);
    }

    [Fact]
    public void Message_NonceReusesInitiateNonce_DropsConnectionWithInvalidSequence()
    {
        using var server = new ServerUnderTest();
        using var bad = new RawCurveClient(server.Port, server.ServerPublic, RawCurveClient.NewKeys());
        bad.Handshake();
        bad.SendMessageFrame(bad.BuildMessage(Encoding.UTF8.GetBytes("stale"), nonce: 2));
        AssertDroppedAndStillServing(server, bad, InvalidSequence);
    }

    [Fact]
    public void Server_SeveralBadClientsInARow_StaysUsable()
    {
        using var server = new ServerUnderTest();
        for (var i = 0; i < 5; i++)
        {
            using var bad = new RawCurveClient(server.Port, server.ServerPublic, RawCurveClient.NewKeys());
            bad.ExchangeGreetings();
            bad.SendCommand(bad.BuildHello()[..(100 + i)]);
            Assert.True(bad.WaitForClose(), $"bad client {i} was not dropped");
            server.WaitFor(ServerUnderTest.HandshakeFailedProtocol, MalformedHello, occurrence: i + 1);
        }

        server.AssertServesGoodClient("after five bad clients");
        // The monitor thread may not have read the good client's event yet when its message has
        // already arrived: wait for it, then check that it is the only success (no bad client got one).
        server.WaitFor(ServerUnderTest.HandshakeSucceeded);
        Assert.Equal(1, server.Count(ServerUnderTest.HandshakeSucceeded));
    }
}
