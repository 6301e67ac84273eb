using Managed.Zmq.Tests.Support;
using Managed.Zmq.Threading;

namespace Managed.Zmq.Tests.Engine;

/// <summary>
/// News no socket read brings, during a Recv's read turn (docs/ARCHITECTURE.md, the read turn): a wait on the one
/// connection's OS socket cannot be woken by a context shut down or a second peer, so whoever brings such news interrupts
/// the wait, and the Recv ends the turn then; with no news the turn stays borrowed for the whole wait. A thread whose
/// wake-up channel could not be made keeps a budget on its turn instead, so news still reaches it.
/// </summary>
/// <remarks>
/// Whether the news comes while the Recv waits on its turn is a race (the turn may not be to be had, or the news may come
/// before the wait), so the tests that need it try a few times and need one try in which it did; every try's Recv must
/// end as the news says, whichever way it ended. Without timing, the tests show the path through the socket's meters (the
/// waits the news interrupted, the borrows of the turn), not how much sooner the Recv ends (BENCHMARKS.md has that).
/// </remarks>
public sealed class ReadTurnNewsTests : TransportSockets
{
    private const int Tries = 20;

    [Theory]
    [TransportCases(Transport.Tcp, Transport.Ipc)]
    public void Recv_ContextShutDownWhileAwaitingAReply_EndsWithETERM(Transport transport)
    {
        var context = NewContext();
        var (req, _) = ReqAwaitingReply(context, transport);

        var call = BackgroundCall.Start(() => AssertZmqError(ZmqConstants.ETERM, () => req.RecvString()));
        context.Shutdown();
        Assert.True(call.Wait(2 * Timeout), "the Recv did not end");
    }

    [Theory]
    [TransportCases(Transport.Tcp, Transport.Ipc)]
    public void Recv_ContextShutDownDuringTheTurnsWait_TurnEndsOnTheNewsAndRecvThrowsETERM(Transport transport)
    {
        AssertInSomeTry("no read turn ended on the shutdown", _ =>
        {
            var context = NewContext();
            var (req, rep) = ReqAwaitingReply(context, transport);

            var call = BackgroundCall.Start(() => AssertZmqError(ZmqConstants.ETERM, () => req.RecvString()));
            WaitForTurnWait(req, 0);
            context.Shutdown();
            Assert.True(call.Wait(2 * Timeout), "the Recv did not end");
            bool endedOnNews = Volatile.Read(ref req.Core.Meters.ReadTurnInterrupts) > 0;
            EndTry(context, req, rep);
            return endedOnNews;
        });
    }

    [Theory]
    [TransportCases(Transport.Tcp, Transport.Ipc)]
    public void Recv_SecondPeerSendsDuringTheTurnsWait_TurnEndsOnTheNewsAndItsMessageArrives(Transport transport)
    {
        AssertInSomeTry("no read turn ended on the second peer", i =>
        {
            var context = NewContext();
            var client = Create(SocketType.Dealer, context);
            string endpoint = TestEndpoint.Bind(client, transport);
            var first = Create(SocketType.Dealer, context);
            first.Connect(endpoint);
            first.Send("attached");
            Assert.Equal("attached", client.RecvString());
            client.Send("q");
            Assert.Equal("q", first.RecvString());

            // The first peer never answers: only the second one's message can end this Recv.
            long waits = Volatile.Read(ref client.Core.Meters.ReadTurnWaits);
            string? received = null;
            var call = BackgroundCall.Start(() => received = client.RecvString());
            WaitForTurnWait(client, waits);
            var second = Create(SocketType.Dealer, context);
            second.Connect(endpoint);
            second.Send($"second {i}");
            Assert.True(call.Wait(2 * Timeout), "the Recv did not end");
            Assert.Equal($"second {i}", received);
            bool endedOnNews = Volatile.Read(ref client.Core.Meters.ReadTurnInterrupts) > 0;
            EndTry(context, client, first, second);
            return endedOnNews;
        });
    }

    [Theory]
    [TransportCases(Transport.Tcp, Transport.Ipc)]
    public void Recv_ReplyWhileTheTurnWaits_ReadOnOneBorrowOfTheTurn(Transport transport)
    {
        AssertInSomeTry("no reply was read on the turn", i =>
        {
            var context = NewContext();
            var (req, rep) = ReqAwaitingReply(context, transport);

            long waits = Volatile.Read(ref req.Core.Meters.ReadTurnWaits);
            long reads = Volatile.Read(ref req.Core.Meters.ReadTurnReads);
            string? reply = null;
            var call = BackgroundCall.Start(() => reply = req.RecvString());
            bool waiting = WaitForTurnWait(req, waits);
            rep.Send($"r{i}");
            Assert.True(call.Wait(2 * Timeout), "the Recv did not end");
            Assert.Equal($"r{i}", reply);

            // The turn is borrowed again only after a read on it (a reply that came in two pieces): never for a wait that
            // ended with nothing read, which would give it back to the read loop and cost the I/O thread a wake-up.
            long moreWaits = Volatile.Read(ref req.Core.Meters.ReadTurnWaits) - waits;
            long moreReads = Volatile.Read(ref req.Core.Meters.ReadTurnReads) - reads;
            Assert.True(moreWaits <= moreReads + 1, $"{moreWaits} waits for {moreReads} reads on the turn");
            EndTry(context, req, rep);
            return waiting && moreReads > 0;
        });
    }

    /// <summary>
    /// A thread whose wake-up channel could not be made (no descriptors left) waits on its turn for the budget at most, so
    /// news still reaches its Recv: a shutdown ends it with ETERM.
    /// </summary>
    [Theory]
    [TransportCases(Transport.Tcp, Transport.Ipc)]
    public void Recv_ThreadWithoutItsWakeupChannel_ShutdownEndsItWithETERM(Transport transport)
    {
        AssertInSomeTry("the Recv never waited on its turn", _ =>
        {
            var context = NewContext();
            var (req, rep) = ReqAwaitingReply(context, transport);
            long waits = Volatile.Read(ref req.Core.Meters.ReadTurnWaits);
            var call = BackgroundCall.Start(() =>
            {
                InterruptibleWait.GoWithoutForCurrentThread();
                AssertZmqError(ZmqConstants.ETERM, () => req.RecvString());
            });
            bool waiting = WaitForTurnWait(req, waits);
            context.Shutdown();
            Assert.True(call.Wait(2 * Timeout), "the Recv did not end");
            EndTry(context, req, rep);
            return waiting;
        });
    }

    /// <summary>
    /// Without its wake-up channel a thread gives the turn back once the budget is spent: a reply slower than that is read
    /// by the read loop, and delivered.
    /// </summary>
    [Theory]
    [TransportCases(Transport.Tcp, Transport.Ipc)]
    public void Recv_ThreadWithoutItsWakeupChannel_SlowReplyReadByTheReadLoop(Transport transport)
    {
        AssertInSomeTry("the Recv never waited on its turn", i =>
        {
            var context = NewContext();
            var (req, rep) = ReqAwaitingReply(context, transport);
            long waits = Volatile.Read(ref req.Core.Meters.ReadTurnWaits);
            long reads = Volatile.Read(ref req.Core.Meters.ReadTurnReads);
            long runOuts = Volatile.Read(ref req.Core.Meters.ReadTurnRunOuts);
            string? reply = null;
            var call = BackgroundCall.Start(() =>
            {
                InterruptibleWait.GoWithoutForCurrentThread();
                reply = req.RecvString();
            });
            bool waiting = WaitForTurnWait(req, waits);

            // The peer answers once the turn has run out of its budget (if it was taken: else at once).
            if (waiting)
            {
                Assert.True(
                    SpinWait.SpinUntil(() => Volatile.Read(ref req.Core.Meters.ReadTurnRunOuts) > runOuts, Timeout),
                    "the turn did not run out of its budget");
            }

            rep.Send($"slow {i}");
            Assert.True(call.Wait(2 * Timeout), "the Recv did not end");
            Assert.Equal($"slow {i}", reply);
            Assert.Equal(reads, Volatile.Read(ref req.Core.Meters.ReadTurnReads));
            EndTry(context, req, rep);
            return waiting;
        });
    }

    /// <summary>
    /// Runs <paramref name="tryOnce"/> (given the try's number) until it returns true, at most <see cref="Tries"/> times;
    /// fails the test, saying that <paramref name="what"/>, if no try did.
    /// </summary>
    private static void AssertInSomeTry(string what, Func<int, bool> tryOnce)
    {
        for (int i = 0; i < Tries; i++)
        {
            if (tryOnce(i))
            {
                return;
            }
        }

        Assert.Fail($"in {Tries} tries, {what}");
    }

    /// <summary>A REQ that sent a request its REP has received: its next Recv awaits the reply on its turn.</summary>
    private (Socket Req, Socket Rep) ReqAwaitingReply(Context context, Transport transport)
    {
        var rep = Create(SocketType.Rep, context);
        var req = Create(SocketType.Req, context);
        req.SetOption(SocketOption.Rcvtimeo, -1);
        req.Connect(TestEndpoint.Bind(rep, transport));
        req.Send("q");
        Assert.Equal("q", rep.RecvString());
        return (req, rep);
    }

    /// <summary>
    /// Waits until <paramref name="socket"/>'s Recv has begun a wait on its turn since the count was
    /// <paramref name="before"/>. It may not (the turn was not to be had): false, and the try goes on and proves nothing.
    /// </summary>
    private static bool WaitForTurnWait(Socket socket, long before) =>
        SpinWait.SpinUntil(() => Volatile.Read(ref socket.Core.Meters.ReadTurnWaits) > before, Timeout);

    /// <summary>Closes a try's sockets and context now, so that tries do not pile up I/O threads (disposal is idempotent).</summary>
    private static void EndTry(Context context, params Socket[] sockets)
    {
        foreach (var socket in sockets)
        {
            socket.Dispose();
        }

        context.Dispose();
    }
}
