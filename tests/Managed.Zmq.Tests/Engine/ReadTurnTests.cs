using Managed.Zmq.Tests.Support;

namespace Managed.Zmq.Tests.Engine;

/// <summary>
/// The read turn (docs/ARCHITECTURE.md): a Recv awaiting a reply on a socket with one connection reads that
/// connection's OS socket itself while the read loop waits. Whatever it meets that is not a plain data frame (a PING,
/// a frame beyond MAXMSGSIZE, the end of the stream) goes back to the read loop, which handles it as if it had received
/// it (large frames: <see cref="ReadTurnLargeFrameTests"/>); a turn left away between two Recvs goes back to the loop when a Poller, ZMQ_EVENTS or a Recv
/// that must not wait asks for input. News no read brings during the turn: <see cref="ReadTurnNewsTests"/>.
/// </summary>
public sealed class ReadTurnTests : TransportSockets
{

    private (Socket Req, Socket Rep) ReqRep(Transport transport)
    {
        var rep = Create(SocketType.Rep);
        var req = Create(SocketType.Req);
        req.Connect(TestEndpoint.Bind(rep, transport));
        return (req, rep);
    }

    /// <summary>A REQ connected to a scripted REP over TCP, its NULL handshake done.</summary>
    private (Socket Req, RawPeer Rep) ReqToRawRep(RawListener listener)
    {
        var req = Create(SocketType.Req);
        return (req, ScriptedRep.Accept(listener, req));
    }

    /// <summary>The scripted peer's next frame is the PONG answering a PING with <paramref name="context"/>.</summary>
    private static void AssertPong(RawPeer peer, string context)
    {
        var (flags, pong) = peer.ReadFrame();
        Assert.Equal(ZmtpBytes.FlagCommand, flags);
        Assert.Equal(ZmtpBytes.Command("PONG", Bytes.Of(context))[2..], pong);
    }

    private static byte[] Reply(byte[] body) => ZmtpBytes.Concat(ZmtpBytes.Frame(ZmtpBytes.FlagMore, []), ZmtpBytes.Frame(0, body));

    [Theory]
    [TransportCases(Transport.Tcp, Transport.Ipc)]
    public void Recv_RequestAndReply_BothSidesReadOnTheirTurnAndEveryMessageArrivesWhole(Transport transport)
    {
        var (req, rep) = ReqRep(transport);
        ReadTurnRoundTrips.RunAndAssertBothSidesReadOnTheirTurn(req, rep);
    }

    [Theory]
    [TransportCases(Transport.Tcp, Transport.Ipc)]
    public void Recv_StreamOfSmallMessages_LeavesReadsToTheReadLoop(Transport transport)
    {
        var pull = Create(SocketType.Pull);
        var push = Create(SocketType.Push);
        push.Connect(TestEndpoint.Bind(pull, transport));
        for (int i = 0; i < 100; i++)
        {
            push.Send($"m{i}");
            Assert.Equal($"m{i}", pull.RecvString());
        }

        // A receiver that never sends has no reply due, and small messages come many to a receive: the I/O thread
        // reads ahead for it (large ones: ReadTurnLargeFrameTests).
        Assert.Equal(0, pull.Core.Meters.ReadTurnReads);
    }

    [Fact]
    public void Recv_PingBeforeReplyOnTheTurn_PongSentAndReplyDelivered()
    {
        using var listener = new RawListener();
        var (req, rep) = ReqToRawRep(listener);
        using var peer = rep;
        for (int i = 0; i < 20; i++)
        {
            req.Send($"q{i}");
            Assert.Equal(Bytes.Of($"q{i}"), ScriptedRep.ReadRequest(rep));
            byte[] reply = Bytes.Of($"r{i}");
            var call = BackgroundCall.Start(() => Assert.Equal($"r{i}", req.RecvString()));
            rep.Send(ZmtpBytes.Concat(ZmtpBytes.Ping(0, Bytes.Of($"p{i}")), Reply(reply)));
            Assert.True(call.Wait(2 * Timeout), "the Recv did not end");
            AssertPong(rep, $"p{i}");
        }
    }

    [Fact]
    public void Recv_PeerClosesWhileAReplyIsAwaited_DisconnectedReported()
    {
        using var listener = new RawListener();
        var (req, rep) = ReqToRawRep(listener);
        using var monitor = MonitorProbe.Attach(Context, req);
        req.SetOption(SocketOption.Rcvtimeo, 1000);
        req.Send("q");
        Assert.Equal(Bytes.Of("q"), ScriptedRep.ReadRequest(rep));
        var call = BackgroundCall.Start(() => AssertZmqError(ZmqConstants.EAGAIN, () => req.RecvString()));
        rep.Dispose();

        monitor.WaitFor(SocketMonitorEvent.Disconnected);
        Assert.True(call.Wait(2 * Timeout), "the Recv did not end");
    }

    /// <summary>
    /// A reply, a command and the end of the stream in one go: the command sends the bytes back to the read loop, which
    /// may meet the end before it hears of the hand-back; the reply must still arrive.
    /// </summary>
    [Fact]
    public void Recv_ReplyThenCommandThenEndOfStream_ReplyDelivered()
    {
        for (int i = 0; i < 20; i++)
        {
            using var listener = new RawListener();
            var (req, rep) = ReqToRawRep(listener);
            using var peer = rep;
            req.Send($"q{i}");
            Assert.Equal(Bytes.Of($"q{i}"), ScriptedRep.ReadRequest(rep));
            var call = BackgroundCall.Start(() => Assert.Equal($"r{i}", req.RecvString()));
            rep.Send(ZmtpBytes.Concat(Reply(Bytes.Of($"r{i}")), ZmtpBytes.Ping(0, Bytes.Of($"p{i}"))));
            rep.Dispose();
            Assert.True(call.Wait(2 * Timeout), "the Recv did not end");
        }
    }

    /// <summary>
    /// A reply and a PING, then more messages in a second write: the PING sends the bytes back to the read loop, which
    /// may receive the later messages before it hears of the hand-back. The PING is dropped from the queue once, and every
    /// message arrives whole and in order.
    /// </summary>
    [Fact]
    public void Recv_ReplyAndCommandThenMoreMessages_AllInOrderAndOnePong()
    {
        using var listener = new RawListener();
        var dealer = Create(SocketType.Dealer);
        dealer.Connect(listener.Endpoint);
        using var peer = listener.Accept();
        peer.CompleteNullHandshake("DEALER");
        for (int i = 0; i < 200; i++)
        {
            dealer.Send($"q{i}");
            Assert.Equal(Bytes.Of($"q{i}"), peer.ReadFrame().Body);
            var call = BackgroundCall.Start(() =>
            {
                Assert.Equal($"a{i}", dealer.RecvString());
                Assert.Equal($"b{i}", dealer.RecvString());
                Assert.Equal($"c{i}", dealer.RecvString());
            });
            peer.Send(ZmtpBytes.Concat(ZmtpBytes.Message($"a{i}"), ZmtpBytes.Ping(0, Bytes.Of($"p{i}"))));
            peer.Send(ZmtpBytes.Concat(ZmtpBytes.Message($"b{i}"), ZmtpBytes.Message($"c{i}")));
            Assert.True(call.Wait(2 * Timeout), "the messages did not all arrive");
            AssertPong(peer, $"p{i}");
        }
    }

    /// <remarks>As libzmq: a frame beyond MAXMSGSIZE ends the connection (docs/libzmq-behaviour.md L10).</remarks>
    [Fact]
    public void Recv_ReplyBeyondMaxMessageSize_ConnectionEndedAndNothingDelivered()
    {
        using var listener = new RawListener();
        var req = Create(SocketType.Req);
        req.SetOption(SocketOption.Maxmsgsize, 100L);
        req.SetOption(SocketOption.Rcvtimeo, 1000);
        using var rep = ScriptedRep.Accept(listener, req);
        req.Send("q");
        Assert.Equal(Bytes.Of("q"), ScriptedRep.ReadRequest(rep));
        var call = BackgroundCall.Start(() => AssertZmqError(ZmqConstants.EAGAIN, () => req.RecvBytes()));
        rep.Send(Reply(Bytes.Pattern(200, 3)));

        Assert.True(rep.WaitUntilClosed());
        Assert.True(call.Wait(2 * Timeout), "the Recv did not end");
    }

    [Theory]
    [TransportCases(Transport.Tcp, Transport.Ipc)]
    public void Poll_AfterRecvOnTheTurn_SeesTheNextMessage(Transport transport)
    {
        var (client, server) = DealerPair(transport);
        ReachReadTurn(client, server);
        using var poller = new Poller(1);
        int index = poller.Add(client, PollEvents.In);
        for (int i = 0; i < 50; i++)
        {
            // The turn may be away now: the Poller must take it back to hear the next one.
            RoundTripThenQueueNext(client, server, i);
            Assert.Equal(1, poller.Poll(Timeout));
            Assert.True(poller.IsReadable(index));
            Assert.True(client.TryRecvString(out string? next));
            Assert.Equal($"n{i}", next);
        }
    }

    [Theory]
    [TransportCases(Transport.Tcp, Transport.Ipc)]
    public void EventsAndRecvDontWait_AfterRecvOnTheTurn_SeeTheNextMessage(Transport transport)
    {
        var (client, server) = DealerPair(transport);
        ReachReadTurn(client, server);
        for (int i = 0; i < 50; i++)
        {
            RoundTripThenQueueNext(client, server, i);
            string? next = null;
            if (i % 2 == 0)
            {
                Eventually.True(() => (client.GetOption<int>(SocketOption.Events) & (int)PollEvents.In) != 0, "ZMQ_EVENTS reports the message");
                Assert.True(client.TryRecvString(out next));
            }
            else
            {
                Eventually.True(() => client.TryRecvString(out next), "a Recv that must not wait gets the message");
            }

            Assert.Equal($"n{i}", next);
        }
    }

    /// <summary>
    /// Round trips until the client has read a reply on its turn. Whether a given reply is read there or by the read loop
    /// is a race between the two threads (on a loaded machine the I/O thread may win many in a row); once the client has,
    /// its turn stays away and the next reply waits for it, so the first case a test runs after this starts on the turn.
    /// </summary>
    private static void ReachReadTurn(Socket client, Socket server)
    {
        for (int i = 0; i < 10_000 && client.Core.Meters.ReadTurnReads == 0; i++)
        {
            client.Send("warm");
            Assert.Equal("warm", server.RecvString());
            server.Send("up");
            Assert.Equal("up", client.RecvString());
        }

        Assert.True(client.Core.Meters.ReadTurnReads > 0, "the client never read on its turn");
    }

    /// <summary>A request and its reply (the client reads the reply on its turn), then one more message from the server, "n" and <paramref name="i"/>.</summary>
    private static void RoundTripThenQueueNext(Socket client, Socket server, int i)
    {
        client.Send($"q{i}");
        Assert.Equal($"q{i}", server.RecvString());
        server.Send($"r{i}");
        Assert.Equal($"r{i}", client.RecvString());
        server.Send($"n{i}");
    }

    private (Socket Client, Socket Server) DealerPair(Transport transport)
    {
        var server = Create(SocketType.Dealer);
        var client = Create(SocketType.Dealer);
        client.Connect(TestEndpoint.Bind(server, transport));
        return (client, server);
    }
}
