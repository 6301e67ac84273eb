using Managed.Zmq.Tests.Support;

namespace Managed.Zmq.Tests.Sockets;

/// <summary>
/// A pipe whose peer has gone with messages still queued is kept only while the pattern will read them: a peer that
/// sends to a socket which never reads its pipe, then leaves, must not leave its pipe and messages behind for the
/// socket's life (libzmq lets such pipes go at once).
/// </summary>
public sealed class PeerGonePipeTests : TransportSockets
{
    private const int Rounds = 5;

    public static TheoryData<Transport> Transports => new() { Transport.Tcp, Transport.Ipc, Transport.Inproc };

    /// <summary>Applies the socket's pending pipe news, then reads how many gone pipes it still keeps.</summary>
    private static int Draining(Socket socket)
    {
        socket.GetPeers();
        return socket.Core.DrainingPipeCount;
    }

    private static void AssertNoneDraining(Socket socket, string what) =>
        Eventually.True(() => Draining(socket) == 0, $"{what}: the gone peers' pipes were let go");

    /// <summary>Messages the socket's pipes have taken in, gone pipes' included: what came in before a peer left.</summary>
    private static long Received(Socket socket)
    {
        socket.GetPeers();
        return MetricsProbe.SocketTotals(socket).Values.Sum(t => t.MessagesReceived);
    }

    /// <summary>Lets the socket's queued messages go out before it closes (test sockets have Linger 0).</summary>
    private static void CloseAfterSending(Socket socket)
    {
        socket.SetOption(SocketOption.Linger, Timeout);
        socket.Dispose();
    }

    /// <summary>
    /// <see cref="Rounds"/> peers of <paramref name="type"/>, one after the other, connect to <paramref name="server"/>,
    /// send one message it never reads and leave, while its first peer stays.
    /// </summary>
    private void SendUnheardAndLeave(Socket server, string endpoint, SocketType type, long receivedBefore, Action<Socket>? configure = null)
    {
        for (int i = 1; i <= Rounds; i++)
        {
            var peer = Create(type);
            configure?.Invoke(peer);
            peer.Connect(endpoint);
            Assert.True(peer.Send("unheard"));
            long expected = receivedBefore + i;
            Eventually.True(() => Received(server) == expected, "the server took in the unheard message");
            CloseAfterSending(peer);
            Eventually.True(() => server.GetPeers().Count == 1, "the peer has gone");
        }
    }

    [Fact]
    public void PeerClosed_PushFromMisbehavingPeer_PipeLetGo()
    {
        // PUSH cannot receive: a peer that claims to be a PULL and sends anyway is never read.
        var push = Create(SocketType.Push);
        push.Bind("tcp://127.0.0.1:*");
        int port = RawPeer.PortOf(push.GetOptionString(SocketOption.Last_Endpoint));

        for (int i = 1; i <= Rounds; i++)
        {
            using (var rogue = RawPeer.Connect(port))
            {
                rogue.CompleteNullHandshake("PULL");
                rogue.Send(ZmtpBytes.Concat(ZmtpBytes.Message("unasked"), ZmtpBytes.Message("again")));
                int expected = 2 * i;
                Eventually.True(() => Received(push) == expected, "the PUSH took in what the rogue sent");
            }

            Eventually.True(() => push.GetPeers().Count == 0, "the rogue has gone");
        }

        AssertNoneDraining(push, "PUSH");
    }

    [Theory]
    [MemberData(nameof(Transports))]
    public void PeerClosed_PairSecondPeer_PipeLetGo(Transport transport)
    {
        var server = Create(SocketType.Pair);
        string endpoint = TestEndpoint.Bind(server, transport, "pair-second");
        var first = Create(SocketType.Pair);
        first.Connect(endpoint);
        first.Send("first");
        Assert.Equal("first", server.RecvString());

        SendUnheardAndLeave(server, endpoint, SocketType.Pair, receivedBefore: 1);

        AssertNoneDraining(server, "PAIR");
        first.Send("still");
        Assert.Equal("still", server.RecvString());
    }

    [Theory]
    [MemberData(nameof(Transports))]
    public void PeerClosed_RouterDuplicateId_PipeLetGo(Transport transport)
    {
        var router = Create(SocketType.Router);
        string endpoint = TestEndpoint.Bind(router, transport, "router-dup");
        var owner = Create(SocketType.Dealer);
        owner.SetOption(SocketOption.Routing_Id, "taken"u8.ToArray());
        owner.Connect(endpoint);
        owner.Send("owner");
        Assert.Equal("taken", router.RecvString());
        Assert.Equal("owner", router.RecvString());

        SendUnheardAndLeave(
            router, endpoint, SocketType.Dealer, receivedBefore: 1, copy => copy.SetOption(SocketOption.Routing_Id, "taken"u8.ToArray()));

        AssertNoneDraining(router, "ROUTER");
        owner.Send("still");
        Assert.Equal("taken", router.RecvString());
        Assert.Equal("still", router.RecvString());
    }

    [Theory]
    [MemberData(nameof(Transports))]
    public void PeerClosed_ReqLateReplyFromEarlierPeer_PipeLetGo(Transport transport)
    {
        for (int i = 0; i < Rounds; i++)
        {
            // The REQ's first request goes to a slow server; it moves on (relaxed) to a REP, and the slow server's
            // late reply comes in on a pipe the REQ no longer reads, just before that server leaves.
            var req = Create(SocketType.Req);
            req.SetOption(SocketOption.Req_Relaxed, 1);
            string endpoint = TestEndpoint.Bind(req, transport, "req-relaxed");
            var slow = Create(SocketType.Router);
            slow.Connect(endpoint);
            Eventually.True(() => req.GetPeers().Count == 1, "the slow server is connected");
            req.Send("first");
            byte[] id = slow.RecvBytes();
            Assert.Empty(slow.RecvBytes());
            Assert.Equal("first", slow.RecvString());

            var rep = Create(SocketType.Rep);
            rep.Connect(endpoint);
            Eventually.True(() => req.GetPeers().Count == 2, "the REP is connected");
            req.Send("second");
            Assert.Equal("second", rep.RecvString());

            slow.Send(id, SendFlags.SendMore);
            slow.Send(""u8.ToArray(), SendFlags.SendMore);
            slow.Send("late");
            Eventually.True(() => Received(req) == 1, "the late reply came in");
            CloseAfterSending(slow);
            Eventually.True(() => req.GetPeers().Count == 1, "the slow server has gone");

            AssertNoneDraining(req, "REQ");
            rep.Send("answer");
            Assert.Equal("answer", req.RecvString());
        }
    }

    [Fact]
    public void PeerClosed_StreamConnectionLost_PipeLetGo()
    {
        // A STREAM that connects with Immediate ends the pipe with its connection; what came in unread goes too.
        var stream = Create(SocketType.Stream);
        stream.SetOption(SocketOption.Immediate, 1);
        stream.SetOption(SocketOption.Reconnect_Ivl, -1);

        for (int i = 0; i < Rounds; i++)
        {
            using var listener = new RawListener();
            stream.Connect(listener.Endpoint);
            long before = Received(stream);
            using (var peer = listener.Accept())
            {
                peer.Send("never read"u8.ToArray());
                Eventually.True(() => Received(stream) > before, "the STREAM took in the bytes");
            }

            Eventually.True(() => stream.GetPeers().Count == 0, "the connection has gone");
        }

        AssertNoneDraining(stream, "STREAM");
    }
}
