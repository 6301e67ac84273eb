using Managed.Zmq.Tests.Support;

namespace Managed.Zmq.Tests.Engine;

/// <summary>
/// Large frames on the read turn (docs/ARCHITECTURE.md): a Recv awaiting a reply, or receiving a stream of large
/// messages, reads a large frame's body itself, into a buffer of its own, as the read loop would. A body whose rest does not come before the Recv's wait ends, or after
/// which comes more than plain data, goes back to the read loop, which goes on from where the Recv stopped.
/// </summary>
public sealed class ReadTurnLargeFrameTests : TransportSockets
{
    private const int Large = 64 * 1024;

    [Theory]
    [TransportCases(Transport.Tcp, Transport.Ipc)]
    public void Recv_LargeReplies_ReadOnTheTurnWholeWithoutHandBack(Transport transport)
    {
        var server = Create(SocketType.Dealer);
        var client = Create(SocketType.Dealer);
        client.Connect(TestEndpoint.Bind(server, transport));
        ReachReadTurn(client, () => Assert.Equal("warm", server.RecvString()), () => server.Send("up"));
        long turnReads = client.Core.Meters.ReadTurnReads;

        int[] sizes = [Large, Large + 1, 3 * Large + 5, 1024 * 1024];
        for (int i = 0; i < 40; i++)
        {
            byte[] reply = Bytes.Pattern(sizes[i % sizes.Length], i);
            long waits = client.Core.Meters.ReadTurnWaits;
            client.Send($"q{i}");
            Assert.Equal($"q{i}", server.RecvString());

            // Every other reply goes once the client waits on its turn, so that some are read there however the threads
            // are scheduled (on a loaded machine the read loop may otherwise take every reply before the Recv waits).
            var replier = BackgroundCall.Start(() =>
            {
                if (i % 2 == 0)
                {
                    SpinWait.SpinUntil(() => Volatile.Read(ref client.Core.Meters.ReadTurnWaits) > waits, Timeout);
                }

                server.Send(reply);
            });
            Assert.Equal(reply, client.RecvBytes());
            Assert.True(replier.Wait(Timeout), "the reply was not sent");
        }

        // The first reply at least waited for the client's turn, left away by the last warm-up reply. A body goes back
        // to the loop only if its wait was ended early: by an interrupt meant for an earlier wait of this thread (news
        // for either socket, which the thread shares), at most once per such interrupt.
        Assert.True(client.Core.Meters.ReadTurnReads > turnReads, "no large reply was read on the turn");
        Assert.True(client.Core.Meters.ReadTurnHandBacks <= 2, $"{client.Core.Meters.ReadTurnHandBacks} large replies went back to the read loop");
    }

    /// <summary>
    /// A stream of large messages: each would take a hand-off of its own from the I/O thread, so the receiver reads them
    /// on its turn as it reads a reply, and every message arrives whole and in order, the small ones between them too.
    /// </summary>
    [Theory]
    [TransportCases(Transport.Tcp, Transport.Ipc)]
    public void Recv_StreamOfLargeMessages_ReadOnTheTurnWholeAndInOrder(Transport transport)
    {
        var (push, pull) = LargeStream(transport);
        var sender = SendStream(push, 300);

        for (int i = 0; i < 300; i++)
        {
            Assert.Equal(StreamMessage(i), pull.RecvBytes());
        }

        Assert.True(sender.Wait(2 * Timeout), "the sender did not end");
    }

    [Theory]
    [TransportCases(Transport.Tcp, Transport.Ipc)]
    public void Poll_AfterLargeStreamReadOnTheTurn_SeesTheNextMessage(Transport transport)
    {
        var (push, pull) = LargeStream(transport);
        using var poller = new Poller(1);
        int index = poller.Add(pull, PollEvents.In);
        for (int i = 0; i < 50; i++)
        {
            // The last Recv may have read on its turn and left it away: the Poller must take it back to hear this one.
            byte[] next = StreamMessage(i);
            push.Send(next);
            Assert.Equal(1, poller.Poll(Timeout));
            Assert.True(poller.IsReadable(index));
            Assert.Equal(next, pull.RecvBytes());
        }
    }

    [Theory]
    [TransportCases(Transport.Tcp, Transport.Ipc)]
    public void Recv_StreamTurnsFromLargeToSmall_ReadsGoBackToTheReadLoop(Transport transport)
    {
        var (push, pull) = LargeStream(transport);
        push.Send("first small");
        Assert.Equal("first small", pull.RecvString());
        long turnReads = pull.Core.Meters.ReadTurnReads;
        for (int i = 0; i < 200; i++)
        {
            push.Send($"m{i}");
            Assert.Equal($"m{i}", pull.RecvString());
        }

        // Once a small message is in, the receiver no longer borrows: the I/O thread reads ahead again.
        Assert.Equal(turnReads, pull.Core.Meters.ReadTurnReads);
    }

    [Theory]
    [TransportCases(Transport.Tcp, Transport.Ipc)]
    public void Recv_LargeStreamWithReceiveHighWaterMarkTwo_EveryMessageWholeAndInOrder(Transport transport)
    {
        var pull = Create(SocketType.Pull);
        pull.SetOption(SocketOption.Rcvhwm, 2);
        var push = Create(SocketType.Push);
        push.Connect(TestEndpoint.Bind(pull, transport));
        var sender = SendStream(push, 200);

        for (int i = 0; i < 200; i++)
        {
            Assert.Equal(StreamMessage(i), pull.RecvBytes());
        }

        Assert.True(sender.Wait(2 * Timeout), "the sender did not end");
    }

    /// <summary>
    /// The DEALER asks, and the peer answers with the header and a part of a large reply's body, which the read loop
    /// begins and then offers to the read turn: the reply, its whole frame, and where the part sent ends.
    /// </summary>
    private static (byte[] Reply, byte[] Frame, int Cut) SendBodyTheLoopBegins(Socket dealer, RawPeer peer, ConnectionReads reads, int i)
    {
        byte[] reply = Bytes.Pattern(4 * Large + i, i);
        byte[] frame = ZmtpBytes.Frame(0, reply);
        int cut = 9 + Large / 2 + 1000 * i;
        Ask(dealer, peer, $"q{i}");
        peer.Send(frame[..cut]);
        Eventually.True(() => reads.OffersLargeFrame, "the read loop began the body and offers its rest");
        return (reply, frame, cut);
    }

    /// <summary>Closes <paramref name="dealer"/>, then its own <paramref name="context"/>, from another thread: both end.</summary>
    private static void AssertClosesWithItsContext(Socket dealer, Context context)
    {
        var ending = BackgroundCall.Start(() =>
        {
            dealer.Dispose();
            context.Dispose();
        });
        Assert.True(ending.Wait(2 * Timeout), "closing the socket and its context did not end");
    }

    /// <summary>Sends the first <paramref name="count"/> messages of <see cref="StreamMessage"/> from another thread.</summary>
    private static BackgroundCall SendStream(Socket push, int count) => BackgroundCall.Start(() =>
    {
        for (int i = 0; i < count; i++)
        {
            push.Send(StreamMessage(i));
        }
    });

    /// <summary>The DEALER sends <paramref name="request"/>, and the scripted peer reads it.</summary>
    private static void Ask(Socket dealer, RawPeer peer, string request)
    {
        dealer.Send(request);
        Assert.Equal(Bytes.Of(request), peer.ReadFrame().Body);
    }

    /// <summary>The <paramref name="i"/>th message of a stream: large, but every tenth small.</summary>
    private static byte[] StreamMessage(int i) => i % 10 == 9 ? Bytes.Of($"small{i}") : Bytes.Pattern(Large + i, i);

    /// <summary>
    /// A PUSH and a PULL whose receiver has read a large message on its turn (whether it does is a race between its
    /// thread and the I/O thread): the turn is then away, and the next message waits for the next Recv or a Poller.
    /// </summary>
    private (Socket Push, Socket Pull) LargeStream(Transport transport)
    {
        var pull = Create(SocketType.Pull);
        var push = Create(SocketType.Push);
        push.Connect(TestEndpoint.Bind(pull, transport));
        for (int i = 0; i < 10_000 && pull.Core.Meters.ReadTurnReads == 0; i++)
        {
            push.Send(Bytes.Pattern(Large, i));
            Assert.Equal(Bytes.Pattern(Large, i), pull.RecvBytes());
        }

        Assert.True(pull.Core.Meters.ReadTurnReads > 0, "the receiver never read on its turn");
        return (push, pull);
    }

    [Fact]
    public void Recv_LargeMultipartReply_BothLargeFramesInOrder()
    {
        using var listener = new RawListener();
        var (dealer, peer) = DealerToRawPeer(listener);
        using var _ = peer;
        for (int i = 0; i < 10; i++)
        {
            byte[] first = Bytes.Pattern(Large + i, i);
            byte[] second = Bytes.Pattern(2 * Large - i, i + 1);
            Ask(dealer, peer, $"q{i}");
            peer.Send(ZmtpBytes.Concat(ZmtpBytes.Frame(ZmtpBytes.FlagMore, first), ZmtpBytes.Frame(0, second)));

            Assert.Equal(first, dealer.RecvBytes());
            Assert.True(dealer.HasMore);
            Assert.Equal(second, dealer.RecvBytes());
            Assert.False(dealer.HasMore);
        }
    }

    /// <summary>
    /// Large frames with small messages and PINGs between them, in one write: what follows a large frame is parsed on the
    /// turn only while it is plain data, and a PING goes back to the read loop, which answers it once.
    /// </summary>
    [Fact]
    public void Recv_LargeRepliesWithSmallMessagesAndPingsBetween_AllInOrderAndEachPingAnswered()
    {
        using var listener = new RawListener();
        var (dealer, peer) = DealerToRawPeer(listener);
        using var _ = peer;
        for (int i = 0; i < 20; i++)
        {
            byte[] a = Bytes.Pattern(Large + 3 * i, i);
            byte[] c = Bytes.Pattern(Large / 2 + 7 * i, i + 2);
            Ask(dealer, peer, $"q{i}");
            peer.Send(ZmtpBytes.Concat(
                ZmtpBytes.Frame(0, a), ZmtpBytes.Message($"b{i}"), ZmtpBytes.Ping(0, Bytes.Of($"p{i}")),
                ZmtpBytes.Frame(0, c), ZmtpBytes.Message($"d{i}")));

            Assert.Equal(a, dealer.RecvBytes());
            Assert.Equal($"b{i}", dealer.RecvString());
            Assert.Equal(c, dealer.RecvBytes());
            Assert.Equal($"d{i}", dealer.RecvString());
            var (flags, pong) = peer.ReadFrame();
            Assert.Equal(ZmtpBytes.FlagCommand, flags);
            Assert.Equal(ZmtpBytes.Command("PONG", Bytes.Of($"p{i}"))[2..], pong);
        }
    }

    /// <summary>
    /// A large reply whose rest comes only after the Recv gave up: the part the Recv read is kept, and the read loop
    /// receives the rest behind it, so the next Recv gets the reply whole.
    /// </summary>
    [Fact]
    public void Recv_LargeReplyRestAfterTimeout_NextRecvGetsItWhole()
    {
        using var listener = new RawListener();
        var (dealer, peer) = DealerToRawPeer(listener);
        using var _ = peer;
        for (int i = 0; i < 5; i++)
        {
            byte[] reply = Bytes.Pattern(4 * Large + i, i);
            byte[] frame = ZmtpBytes.Frame(0, reply);
            int cut = 9 + Large / 2 + 1000 * i;
            Ask(dealer, peer, $"q{i}");
            peer.Send(frame[..cut]);

            dealer.SetOption(SocketOption.Rcvtimeo, 50);
            AssertZmqError(ZmqConstants.EAGAIN, () => dealer.RecvBytes());
            dealer.SetOption(SocketOption.Rcvtimeo, Timeout);
            peer.Send(frame[cut..]);

            Assert.Equal(reply, dealer.RecvBytes());
        }
    }

    /// <summary>
    /// The read loop began a large reply's body before the Recv came (the stream's segments need not end where frames do,
    /// so in a stream of large messages every receive of the loop's is a body's rest): the Recv takes the body over and
    /// reads its rest on the turn, rather than wait for the I/O thread to hand the message over.
    /// </summary>
    [Fact]
    public void Recv_BodyTheReadLoopBegan_TakenOverOnTheTurnAndWhole()
    {
        using var listener = new RawListener();
        using var reads = new ConnectionReads(listener.Endpoint);
        var (dealer, peer) = DealerToRawPeer(listener);
        using var _ = peer;
        for (int i = 0; i < 5; i++)
        {
            var (reply, frame, cut) = SendBodyTheLoopBegins(dealer, peer, reads, i);

            // The rest goes once the Recv waits on its turn; the body is then the Recv's, unless the I/O thread's receive
            // was served first, a race the count below allows for.
            long waits = dealer.Core.Meters.ReadTurnWaits;
            var sender = BackgroundCall.Start(() =>
            {
                SpinWait.SpinUntil(() => Volatile.Read(ref dealer.Core.Meters.ReadTurnWaits) > waits, Timeout);
                peer.Send(frame[cut..]);
            });
            Assert.Equal(reply, dealer.RecvBytes());
            Assert.True(sender.Wait(Timeout), "the rest was not sent");
        }

        // As in Recv_LargeReplies_ReadOnTheTurnWholeWithoutHandBack: only an interrupt meant for an earlier wait may send
        // a body back.
        Assert.True(reads.LargeFramesTakenOver > 0, "no Recv took over a body the read loop began");
        Assert.True(dealer.Core.Meters.ReadTurnHandBacks <= 2, $"{dealer.Core.Meters.ReadTurnHandBacks} large replies went back to the read loop");

        // The turn goes on as usual after a body taken over: a small reply, then a large one.
        Ask(dealer, peer, "small");
        peer.Send(ZmtpBytes.Message("after"));
        Assert.Equal("after", dealer.RecvString());
        Ask(dealer, peer, "large");
        peer.Send(ZmtpBytes.Frame(0, Bytes.Pattern(Large, 7)));
        Assert.Equal(Bytes.Pattern(Large, 7), dealer.RecvBytes());
    }

    /// <summary>
    /// A body the read loop began, taken over by a Recv whose deadline then passes before the rest comes: the Recv hands
    /// it back with what it read, and the next Recv gets the reply whole.
    /// </summary>
    [Fact]
    public void Recv_BodyTheReadLoopBeganRestAfterTimeout_HandedBackAndNextRecvGetsItWhole()
    {
        using var listener = new RawListener();
        using var reads = new ConnectionReads(listener.Endpoint);
        var (dealer, peer) = DealerToRawPeer(listener);
        using var _ = peer;
        for (int i = 0; i < 5; i++)
        {
            var (reply, frame, cut) = SendBodyTheLoopBegins(dealer, peer, reads, i);

            // Nothing more comes before the deadline: the Recv takes the offer (nothing else can move the turn meanwhile)
            // and hands the body back. It may take it once more if its deadline's coarse clock lets it try again after
            // the loop offered the body anew.
            long takenOver = reads.LargeFramesTakenOver;
            long handBacks = dealer.Core.Meters.ReadTurnHandBacks;
            dealer.SetOption(SocketOption.Rcvtimeo, 50);
            AssertZmqError(ZmqConstants.EAGAIN, () => dealer.RecvBytes());
            dealer.SetOption(SocketOption.Rcvtimeo, Timeout);
            Assert.True(reads.LargeFramesTakenOver > takenOver, "the Recv did not take the offered body");
            Assert.True(dealer.Core.Meters.ReadTurnHandBacks > handBacks, "the Recv did not hand the body back");

            peer.Send(frame[cut..]);
            Assert.Equal(reply, dealer.RecvBytes());
        }
    }

    /// <summary>The socket closed while its read loop offers a large body it began: nothing hangs.</summary>
    [Fact]
    public void Dispose_WhileTheReadLoopOffersABodyItBegan_SocketAndContextEnd()
    {
        for (int i = 0; i < 5; i++)
        {
            var context = NewContext();
            using var listener = new RawListener();
            using var reads = new ConnectionReads(listener.Endpoint);
            var (dealer, peer) = DealerToRawPeer(listener, Create(SocketType.Dealer, context));
            using var _ = peer;
            SendBodyTheLoopBegins(dealer, peer, reads, i);

            AssertClosesWithItsContext(dealer, context);
        }
    }

    /// <summary>
    /// A message, then a whole large one in the same write: the Recv takes the first and leaves the second's body; a Recv
    /// that must not wait then reads it on the turn left away (or the read loop does), whole.
    /// </summary>
    [Fact]
    public void TryRecv_LargeFrameWaitingOnATurnLeftAway_DeliveredWhole()
    {
        using var listener = new RawListener();
        var (dealer, peer) = DealerToRawPeer(listener);
        using var _ = peer;
        for (int i = 0; i < 10; i++)
        {
            byte[] large = Bytes.Pattern(2 * Large + i, i);
            Ask(dealer, peer, $"q{i}");
            peer.Send(ZmtpBytes.Concat(ZmtpBytes.Message($"small{i}"), ZmtpBytes.Frame(0, large)));
            Assert.Equal($"small{i}", dealer.RecvString());

            byte[] buffer = new byte[large.Length];
            int size = 0;
            Eventually.True(() => dealer.TryRecv(buffer, out size), "a Recv that must not wait gets the large message");
            Assert.Equal(large.Length, size);
            Assert.Equal(large, buffer);
        }
    }

    /// <summary>
    /// A message and a large one in the same write, read on the turn: the first Recv takes the message and leaves the
    /// large frame's body to the next Recv, which reads it on the turn too instead of handing it to the read loop.
    /// </summary>
    [Fact]
    public void Recv_MessageThenLargeMessageInOneWrite_BothReadOnTheTurnWithoutHandBack()
    {
        using var listener = new RawListener();
        var (dealer, peer) = DealerToRawPeer(listener);
        using var _ = peer;
        for (int i = 0; i < 10; i++)
        {
            byte[] large = Bytes.Pattern(2 * Large + i, i);
            Ask(dealer, peer, $"q{i}");
            long waits = dealer.Core.Meters.ReadTurnWaits;
            var call = BackgroundCall.Start(() =>
            {
                Assert.Equal($"small{i}", dealer.RecvString());
                Assert.Equal(large, dealer.RecvBytes());
            });

            // Sent once the Recv waits on its turn, so that its read, not the loop's, meets both messages.
            Eventually.True(() => Volatile.Read(ref dealer.Core.Meters.ReadTurnWaits) > waits, "the Recv waits on its turn");
            peer.Send(ZmtpBytes.Concat(ZmtpBytes.Message($"small{i}"), ZmtpBytes.Frame(0, large)));
            Assert.True(call.Wait(2 * Timeout), "the messages did not arrive");
        }

        // As in Recv_LargeReplies_ReadOnTheTurnWholeWithoutHandBack: only an interrupt meant for an earlier wait may send
        // a body back.
        Assert.True(dealer.Core.Meters.ReadTurnHandBacks <= 2, $"{dealer.Core.Meters.ReadTurnHandBacks} large messages went back to the read loop");
    }

    /// <summary>A PING between two large frames of one message: both frames arrive in order, and the PING is answered.</summary>
    [Fact]
    public void Recv_PingBetweenLargeFramesOfOneMessage_MessageWholeAndPingAnswered()
    {
        using var listener = new RawListener();
        var (dealer, peer) = DealerToRawPeer(listener);
        using var _ = peer;
        for (int i = 0; i < 10; i++)
        {
            byte[] first = Bytes.Pattern(Large + i, i);
            byte[] second = Bytes.Pattern(Large + 2 * i, i + 1);
            Ask(dealer, peer, $"q{i}");
            peer.Send(ZmtpBytes.Concat(ZmtpBytes.Frame(ZmtpBytes.FlagMore, first), ZmtpBytes.Ping(0, Bytes.Of($"p{i}")), ZmtpBytes.Frame(0, second)));

            Assert.Equal(first, dealer.RecvBytes());
            Assert.True(dealer.HasMore);
            Assert.Equal(second, dealer.RecvBytes());
            Assert.False(dealer.HasMore);
            var (flags, pong) = peer.ReadFrame();
            Assert.Equal(ZmtpBytes.FlagCommand, flags);
            Assert.Equal(ZmtpBytes.Command("PONG", Bytes.Of($"p{i}"))[2..], pong);
        }
    }

    /// <summary>A body begun on the turn and cut short by the Recv's deadline, then the socket closed: nothing hangs.</summary>
    [Fact]
    public void Dispose_WhileALargeBodyBegunOnTheTurnWaitsForItsRest_SocketAndContextEnd()
    {
        for (int i = 0; i < 5; i++)
        {
            var context = NewContext();
            using var listener = new RawListener();
            var (dealer, peer) = DealerToRawPeer(listener, Create(SocketType.Dealer, context));
            using var _ = peer;
            Ask(dealer, peer, "q");
            peer.Send(ZmtpBytes.Frame(0, Bytes.Pattern(4 * Large, i))[..(Large + 10 * i)]);
            dealer.SetOption(SocketOption.Rcvtimeo, 20);
            AssertZmqError(ZmqConstants.EAGAIN, () => dealer.RecvBytes());

            AssertClosesWithItsContext(dealer, context);
        }
    }

    /// <summary>
    /// A message queued, then the start of a large frame in the same read: the Recv takes the message without waiting for
    /// the large frame's rest, which here comes only after it.
    /// </summary>
    [Fact]
    public void Recv_SmallMessageThenStartOfLargeFrame_SmallDeliveredBeforeTheRestComes()
    {
        using var listener = new RawListener();
        var (dealer, peer) = DealerToRawPeer(listener);
        using var _ = peer;
        dealer.SetOption(SocketOption.Rcvtimeo, -1);
        for (int i = 0; i < 10; i++)
        {
            byte[] large = Bytes.Pattern(4 * Large + i, i);
            byte[] frame = ZmtpBytes.Frame(0, large);
            Ask(dealer, peer, $"q{i}");
            var call = BackgroundCall.Start(() => Assert.Equal($"small{i}", dealer.RecvString()));
            peer.Send(ZmtpBytes.Concat(ZmtpBytes.Message($"small{i}"), frame[..(500 + i)]));
            Assert.True(call.Wait(2 * Timeout), "the queued message waited for the large frame's rest");

            // This Recv too has no deadline: on its own thread, a rest that never came fails the test instead of hanging it.
            peer.Send(frame[(500 + i)..]);
            byte[]? received = null;
            var rest = BackgroundCall.Start(() => received = dealer.RecvBytes());
            Assert.True(rest.Wait(2 * Timeout), "the large frame did not arrive once its rest came");
            Assert.Equal(large, received);
        }
    }

    /// <summary>
    /// The context shut down while a large reply's body streams in: the Recv, which has no deadline, ends with ETERM
    /// though the peer then stalls mid-frame. The interrupt that brings the news may find input ready as well; the body's
    /// next wait must not swallow it.
    /// </summary>
    [Fact]
    public void Recv_ShutdownWhileLargeBodyStreamsIn_EndsWithEterm()
    {
        for (int t = 0; t < 5; t++)
        {
            var context = NewContext();
            using var listener = new RawListener();
            var (dealer, peer) = DealerToRawPeer(listener, Create(SocketType.Dealer, context));
            using var _ = peer;
            dealer.SetOption(SocketOption.Rcvtimeo, -1);
            Ask(dealer, peer, "q");
            byte[] frame = ZmtpBytes.Frame(0, Bytes.Pattern(4 * 1024 * 1024, t));
            var call = BackgroundCall.Start(() => AssertZmqError(ZmqConstants.ETERM, () => dealer.RecvBytes()));
            const int chunk = 16 * 1024;
            for (int sent = 0; sent < 3 * 1024 * 1024; sent += chunk)
            {
                peer.Send(frame[sent..(sent + chunk)]);
                if (sent == 1024 * 1024)
                {
                    context.Shutdown();
                }
            }

            Assert.True(call.Wait(2 * Timeout), "the Recv missed the shutdown while the body came in");
        }
    }

    [Fact]
    public void Recv_PeerClosesInsideALargeReply_DisconnectedAndNothingDelivered()
    {
        using var listener = new RawListener();
        var (dealer, peer) = DealerToRawPeer(listener);
        using var monitor = MonitorProbe.Attach(Context, dealer);
        byte[] frame = ZmtpBytes.Frame(0, Bytes.Pattern(4 * Large, 1));
        Ask(dealer, peer, "q");
        var call = BackgroundCall.Start(() => AssertZmqError(ZmqConstants.EAGAIN, () => dealer.RecvBytes()));
        peer.Send(frame[..(Large + 100)]);
        peer.Dispose();

        monitor.WaitFor(SocketMonitorEvent.Disconnected);
        Assert.True(call.Wait(2 * Timeout), "the Recv did not end");
        Assert.False(dealer.TryRecvString(out _));
    }

    /// <remarks>As libzmq: a frame beyond MAXMSGSIZE ends the connection (docs/libzmq-behaviour.md L10).</remarks>
    [Fact]
    public void Recv_LargeReplyBeyondMaxMessageSize_ConnectionEndedAndNothingDelivered()
    {
        using var listener = new RawListener();
        var dealer = Create(SocketType.Dealer);
        dealer.SetOption(SocketOption.Maxmsgsize, (long)Large);
        var (_, peer) = DealerToRawPeer(listener, dealer);
        using var __ = peer;
        dealer.SetOption(SocketOption.Rcvtimeo, 1000);
        Ask(dealer, peer, "q");
        var call = BackgroundCall.Start(() => AssertZmqError(ZmqConstants.EAGAIN, () => dealer.RecvBytes()));
        peer.Send(ZmtpBytes.Frame(0, Bytes.Pattern(Large + 1, 2)));

        Assert.True(peer.WaitUntilClosed());
        Assert.True(call.Wait(2 * Timeout), "the Recv did not end");
    }

    /// <summary>A DEALER connected to a scripted DEALER over TCP, its NULL handshake done, that has read a reply on its turn.</summary>
    private (Socket Dealer, RawPeer Peer) DealerToRawPeer(RawListener listener, Socket? dealer = null)
    {
        dealer ??= Create(SocketType.Dealer);
        dealer.Connect(listener.Endpoint);
        var peer = listener.Accept();
        peer.CompleteNullHandshake("DEALER");
        ReachReadTurn(dealer, () => Assert.Equal(Bytes.Of("warm"), peer.ReadFrame().Body), () => peer.Send(ZmtpBytes.Message("up")));
        return (dealer, peer);
    }

    /// <summary>
    /// Round trips until <paramref name="client"/> has read a reply on its turn (whether a reply is read there or by the
    /// read loop is a race between two threads); its turn is then away, and the next reply waits for its next Recv.
    /// </summary>
    private static void ReachReadTurn(Socket client, Action serverReceives, Action serverReplies)
    {
        for (int i = 0; i < 10_000 && client.Core.Meters.ReadTurnReads == 0; i++)
        {
            client.Send("warm");
            serverReceives();
            serverReplies();
            Assert.Equal("up", client.RecvString());
        }

        Assert.True(client.Core.Meters.ReadTurnReads > 0, "the client never read on its turn");
    }
}
