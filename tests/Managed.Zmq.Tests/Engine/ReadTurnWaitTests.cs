using Managed.Zmq.Internal;
using Managed.Zmq.Tests.Support;

namespace Managed.Zmq.Tests.Engine;

/// <summary>
/// How long a Recv waits on its read turn (docs/ARCHITECTURE.md, the read turn): until the reply however slow the peer,
/// with the I/O thread looking once at a turn borrowed that long, and a close of the connection ending the wait itself.
/// The turn's reads and hand-backs: <see cref="ReadTurnTests"/>; news during the wait: <see cref="ReadTurnNewsTests"/>.
/// </summary>
public sealed class ReadTurnWaitTests : TransportSockets
{
    /// <summary>Tries of a test that needs the Recv to take its turn, which the read loop may hold at that moment.</summary>
    private const int TurnTries = 20;

    /// <summary>How long a test tries round trips until the I/O thread's check of an unwatched turn is armed.</summary>
    private const int ArmingDeadline = 20_000;

    /// <summary>
    /// A reply slower than the turn's budget (which applies only to a thread without its wake-up channel) is read on the
    /// turn, on one borrow: the wait ends on the reply, on news or at the deadline, so a slow peer does not cost the I/O
    /// thread a read and a wake-up of the Recv's thread besides.
    /// </summary>
    [Theory]
    [TransportCases(Transport.Tcp, Transport.Ipc)]
    public void Recv_ReplySlowerThanTheTurnBudget_ReadOnOneBorrowOfTheTurn(Transport transport)
    {
        var rep = Create(SocketType.Rep);
        var clientContext = NewContext();
        var req = Create(SocketType.Req, clientContext);
        req.Connect(TestEndpoint.Bind(rep, transport));
        var thread = clientContext.NextIoThread();

        // No deadline, as a Recv has by default: the turn's wait is then bounded by nothing but the reply.
        req.SetOption(SocketOption.Rcvtimeo, -1);
        for (int i = 0; i < TurnTries; i++)
        {
            req.Send($"q{i}");
            Assert.Equal($"q{i}", rep.RecvString());
            var meters = req.Core.Meters;
            long waits = Volatile.Read(ref meters.ReadTurnWaits);
            long reads = Volatile.Read(ref meters.ReadTurnReads);
            long interrupts = Volatile.Read(ref meters.ReadTurnInterrupts);
            long declines = Volatile.Read(ref meters.ReadTurnDeclines);
            long runOuts = Volatile.Read(ref meters.ReadTurnRunOuts);
            bool onTurn = false;
            var slowPeer = BackgroundCall.Start(() =>
            {
                onTurn = SpinWait.SpinUntil(() => Volatile.Read(ref meters.ReadTurnWaits) > waits, Timeout);

                // The peer answers only once a timer of three budgets, armed after the wait began, has run.
                IoThreadProbe.WaitForTimer(thread, 3 * Tuning.Blocking.ReadTurnMicroseconds / 1000, Timeout);
                rep.Send($"r{i}");
            });
            // The Recv has no deadline of its own (the path this test is about), so it runs on its own thread: a reply
            // that never came would fail the test here instead of hanging the run.
            string? reply = null;
            var recv = BackgroundCall.Start(() => reply = req.RecvString());
            Assert.True(recv.Wait(3 * Timeout), "the Recv did not return the slow peer's reply");
            Assert.Equal($"r{i}", reply);
            Assert.True(slowPeer.Wait(Timeout), "the slow peer did not answer");
            if (!onTurn || Volatile.Read(ref meters.ReadTurnDeclines) != declines)
            {
                // The turn was not to be had (the read loop was receiving): this try proves nothing.
                continue;
            }

            long moreWaits = Volatile.Read(ref meters.ReadTurnWaits) - waits;
            long moreReads = Volatile.Read(ref meters.ReadTurnReads) - reads;
            long moreInterrupts = Volatile.Read(ref meters.ReadTurnInterrupts) - interrupts;
            Assert.Equal(runOuts, Volatile.Read(ref meters.ReadTurnRunOuts));
            Assert.True(moreReads > 0, "the read loop read the reply: the turn was given back before it came");
            Assert.True(moreWaits <= moreReads + moreInterrupts, $"{moreWaits} waits for {moreReads} reads and {moreInterrupts} interrupts");
            return;
        }

        Assert.Fail($"in {TurnTries} tries, the Recv never took its turn");
    }

    /// <summary>
    /// A connection the I/O thread closes while a Recv waits on its turn (here our heartbeat's timeout, the peer being
    /// silent): the close interrupts the wait itself, since the pipe's news cannot come before the turn is back, and a
    /// socket's shutdown does not wake a wait on it on every system.
    /// </summary>
    [Fact]
    public void Recv_ConnectionClosedDuringTheTurnsWait_CloseInterruptsTheWait()
    {
        for (int i = 0; i < TurnTries; i++)
        {
            var context = NewContext();
            using var listener = new RawListener();
            var req = Create(SocketType.Req, context);
            req.SetOption(SocketOption.Heartbeat_Ivl, 20);
            req.SetOption(SocketOption.Heartbeat_Timeout, 60);
            req.SetOption(SocketOption.Rcvtimeo, -1);
            using var monitor = MonitorProbe.Attach(context, req);
            using var rep = ScriptedRep.Accept(listener, req);
            req.Send("q");
            Assert.Equal(Bytes.Of("q"), ScriptedRep.ReadRequest(rep));

            var meters = req.Core.Meters;
            var call = BackgroundCall.Start(() => AssertZmqError(ZmqConstants.ETERM, () => req.RecvString()));
            monitor.WaitFor(SocketMonitorEvent.Disconnected);
            bool interrupted = Volatile.Read(ref meters.ReadTurnInterrupts) > 0;
            context.Shutdown();
            Assert.True(call.Wait(2 * Timeout), "the Recv did not end");
            if (interrupted)
            {
                return;
            }
        }

        Assert.Fail($"in {TurnTries} tries, no close interrupted the turn's wait");
    }

    [Theory]
    [InlineData(long.MaxValue, 1_000L, int.MaxValue)]
    [InlineData(long.MaxValue, long.MaxValue / 2, int.MaxValue)]
    [InlineData(5_000L + int.MaxValue, 5_000L, int.MaxValue)]
    [InlineData(1_020L, 1_000L, 20_000)]
    [InlineData(1_001L, 1_000L, 1_000)]
    public void MicrosecondsUntil_AnyDeadline_PositiveAndAtMostIntMax(long until, long now, int expected)
    {
        Assert.Equal(expected, Managed.Zmq.Sockets.SocketCore.MicrosecondsUntil(until, now));
    }

    /// <summary>
    /// A Recv still on its turn when the I/O thread's check of an unwatched turn comes: the I/O thread watches the
    /// connection again instead of looking again every period, so a long wait costs it one look, and no timer is left;
    /// the reply is still read on the turn.
    /// </summary>
    [Theory]
    [TransportCases(Transport.Tcp, Transport.Ipc)]
    public void Recv_StillOnItsTurnAtTheCheck_WatchedAgainWithNoTimerLeft(Transport transport)
    {
        // The client alone in its context, whose one I/O thread is then the connection's with no other timer.
        var clientContext = NewContext();
        var rep = Create(SocketType.Rep);
        var req = Create(SocketType.Req, clientContext);
        req.SetOption(SocketOption.Rcvtimeo, 4 * Timeout);
        req.Connect(TestEndpoint.Bind(rep, transport));
        var thread = clientContext.NextIoThread();
        var meters = req.Core.Meters;

        // Arming needs the I/O thread to see a reply before the Recv has read it, a race the Recv wins every time on some
        // runs of a loaded machine: try for a while, not a number of times.
        var clock = System.Diagnostics.Stopwatch.StartNew();
        for (int i = 0; clock.ElapsedMilliseconds < ArmingDeadline; i++)
        {
            req.Send($"q{i}");
            Assert.Equal($"q{i}", rep.RecvString());

            // The check is armed when the I/O thread saw input while the turn was borrowed: the Recv borrows the turn
            // unwatched then. Otherwise (the turn is watched), answer and try again.
            if (IoThreadProbe.PendingTimers(thread, Timeout) == 0)
            {
                rep.Send($"r{i}");
                Assert.Equal($"r{i}", req.RecvString());
                continue;
            }

            long waits = Volatile.Read(ref meters.ReadTurnWaits);
            long reads = Volatile.Read(ref meters.ReadTurnReads);
            var peer = BackgroundCall.Start(() =>
            {
                Assert.True(SpinWait.SpinUntil(() => Volatile.Read(ref meters.ReadTurnWaits) > waits, Timeout), "the Recv did not take its turn");
                Eventually.True(() => IoThreadProbe.PendingTimers(thread, Timeout) == 0, "the check was armed again", Timeout);
                rep.Send($"r{i}");
            });
            Assert.Equal($"r{i}", req.RecvString());
            Assert.True(peer.Wait(2 * Timeout), "the peer did not answer");
            Assert.True(Volatile.Read(ref meters.ReadTurnReads) > reads, "the read loop read the reply: the turn was given back before it came");
            return;
        }

        Assert.Fail($"in {ArmingDeadline} ms the check was never armed");
    }
}
