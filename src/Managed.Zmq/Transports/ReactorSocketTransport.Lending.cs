using System.Net.Sockets;
using Managed.Zmq.Internal;

namespace Managed.Zmq.Transports;

/// <summary>
/// The read turn: while the engine's read loop waits for input, the socket's own thread may borrow the receive side
/// and read the OS socket itself (see docs/ARCHITECTURE.md, the read turn). Without it, a reply reaches a waiting
/// caller through two wake-ups (the I/O thread's, then the caller's); with it, through the caller's alone.
/// </summary>
internal sealed partial class ReactorSocketTransport
{
    /// <summary>
    /// Nothing to lend: no receive is pending (the read loop runs, or has not started), or one is, handed back, and the
    /// I/O thread is about to complete it with <see cref="IByteTransport.HandedBack"/> (the reactor serves none meanwhile).
    /// </summary>
    private const int TurnBusy = 0;

    /// <summary>
    /// A receive the loop alone may serve is pending (a large command's body, the handshake, a DISH's large body, a
    /// receive under CURVE that is not the plain one).
    /// </summary>
    private const int TurnLoopOnly = 1;

    /// <summary>
    /// A lendable receive is pending (the plain one, or a large body's rest the engine offers) and the reactor watches
    /// for it: a borrower may take it.
    /// </summary>
    private const int TurnLoop = 2;

    /// <summary>The I/O thread is receiving for the read loop; nobody may borrow.</summary>
    private const int TurnLoopReceiving = 3;

    /// <summary>Borrowed; the reactor may still be watching and sees <see cref="TurnLoop"/> again when it is returned.</summary>
    private const int TurnLent = 4;

    /// <summary>Borrowed, and the reactor stopped watching (input came while borrowed): a check timer runs.</summary>
    private const int TurnLentUnwatched = 5;

    /// <summary>
    /// Returned after a read by a caller likely to borrow again at once (the next Recv); nobody watches until it does, or
    /// until the check timer, a Poller or a heartbeat takes the turn back for the loop.
    /// </summary>
    private const int TurnAway = 6;

    /// <summary>Who has the receive side: one of the Turn constants.</summary>
    private int _turn;

    /// <summary>
    /// The borrower's last receive filled its buffer, so the kernel likely holds more: the next one receives before it
    /// waits. Written by borrowers (one at a time, through the turn) and cleared when the read loop's receive goes
    /// pending, which it does only once the kernel had nothing more (or a short read said so).
    /// </summary>
    private bool _lentReadFilled;

    /// <summary>Waits for input a borrower made (a test's measure; borrowers wait one at a time, so a plain increment suffices).</summary>
    internal long LentWaits { get; private set; }

    /// <summary>The check timer of a turn the reactor stopped watching for runs (I/O thread only).</summary>
    private bool _turnCheckArmed;

    /// <summary>The transport was closed while the turn was borrowed: the pending receive fails once it comes back.</summary>
    private bool _failWhenReturned;

    /// <summary>
    /// The wait of a borrower in <see cref="ReceiveLent"/>, for <see cref="Dispose"/> to end: the socket's shutdown wakes
    /// a wait on it on Linux, but not on every system, and the borrower's wait may have no deadline.
    /// </summary>
    private Threading.InterruptibleWait? _lentWait;

    public bool LendsReceive => true;

    /// <summary>A lendable receive is pending and nobody has borrowed it (a test's view of the turn, any thread).</summary>
    internal bool ReceiveLendable => Volatile.Read(ref _turn) == TurnLoop;

    public bool TryLendReceive(bool onlyIfAway)
    {
        if (Volatile.Read(ref _disposed))
        {
            return false;
        }

        // The turn itself says a plain receive is pending (TurnLoop, TurnAway): one atomic step checks and takes it.
        // A plain read first, so a Recv that must not wait costs no interlocked operation when nothing is away.
        int turn = Volatile.Read(ref _turn);
        if (turn == TurnAway)
        {
            return Interlocked.CompareExchange(ref _turn, TurnLentUnwatched, TurnAway) == TurnAway;
        }

        return !onlyIfAway && turn == TurnLoop && Interlocked.CompareExchange(ref _turn, TurnLent, TurnLoop) == TurnLoop;
    }

    public int ReceiveLent(Span<byte> buffer, int microseconds, Threading.InterruptibleWait? wait)
    {
        try
        {
            // A stream running ahead of its reader has input waiting: a receive that finds it saves the wait's system
            // call, as the read loop's receive does (_drained). A reply, or a stream that caught up, waits first. A receive
            // that does not wait leaves an interrupt (news) for the thread's next wait; the caller looks for news itself
            // before each read on the turn.
            bool receiveFirst = _lentReadFilled;
            if (microseconds > 0 && !receiveFirst && !WaitReadable(microseconds, wait))
            {
                return 0;
            }

            int received = _socket.Receive(buffer, SocketFlags.None, out var error);
            if (error == SocketError.WouldBlock && receiveFirst && microseconds > 0)
            {
                _lentReadFilled = false;
                if (!WaitReadable(microseconds, wait))
                {
                    return 0;
                }

                received = _socket.Receive(buffer, SocketFlags.None, out error);
            }

            if (error == SocketError.Success)
            {
                _lentReadFilled = received == buffer.Length;
                return received > 0 ? received : -1;
            }

            _lentReadFilled = false;
            return error == SocketError.WouldBlock ? 0 : -1;
        }
        catch (Exception ex) when (ex is ObjectDisposedException or SocketException)
        {
            // Closed by the I/O thread meanwhile: the read loop meets the end itself.
            return -1;
        }
    }

    /// <summary>
    /// The borrower's wait for input: through <paramref name="wait"/>, recorded for <see cref="Dispose"/> to interrupt (it
    /// records, then looks at <see cref="_disposed"/>; Dispose sets that, then looks at the record), else on the socket alone.
    /// </summary>
    private bool WaitReadable(int microseconds, Threading.InterruptibleWait? wait)
    {
        LentWaits++;
        if (wait is null)
        {
            return _socket.Poll(microseconds, SelectMode.SelectRead);
        }

        Volatile.Write(ref _lentWait, wait);
        try
        {
            Interlocked.MemoryBarrier();
            return !Volatile.Read(ref _disposed) && wait.WaitReadable(_socket, microseconds);
        }
        finally
        {
            Volatile.Write(ref _lentWait, null);
        }
    }

    /// <summary>Dispose, after setting <see cref="_disposed"/>: ends a borrower's wait, if one waits.</summary>
    private void InterruptLentWait()
    {
        Interlocked.MemoryBarrier();
        Volatile.Read(ref _lentWait)?.Interrupt();
    }

    public void ReturnLent(Memory<byte> buffer, LentReturn how)
    {
        // The pending receive fills the queue where the borrower left it; written before the turn goes back.
        _receiveBuffer = buffer;
        _drained = false;

        // The reactor may move Lent to LentUnwatched meanwhile (never back): the step is taken on the state actually there.
        bool unwatched;
        while (true)
        {
            int was = Volatile.Read(ref _turn);
            unwatched = was == TurnLentUnwatched;

            // A hand-back goes to the loop with nothing served in between: the borrower may have left the queue as only
            // the loop's next step expects it (a large frame's body begun in a buffer of its own), so the reactor must not
            // fill it first. Busy keeps the reactor from serving the receive until CompleteHandBack ends it.
            int next = how == LentReturn.HandBack ? TurnBusy : unwatched && how == LentReturn.Away ? TurnAway : TurnLoop;
            if (Interlocked.CompareExchange(ref _turn, next, was) == was)
            {
                break;
            }
        }

        if (Volatile.Read(ref _failWhenReturned))
        {
            _thread.Schedule(static s => ((ReactorSocketTransport)s!).FailPending(), this);
        }
        else if (how == LentReturn.HandBack)
        {
            // The loop then receives again, which watches again.
            _thread.Schedule(static s => ((ReactorSocketTransport)s!).CompleteHandBack(), this);
        }
        else if (unwatched && how == LentReturn.Idle)
        {
            _thread.Schedule(static s => ((ReactorSocketTransport)s!).Rewatch(), this);
        }
    }

    public void ReclaimLent()
    {
        // A plain read first: a Poller asks before every wait, and the turn is rarely away.
        if (Volatile.Read(ref _turn) == TurnAway && TryTakeAwayTurn())
        {
            _thread.Schedule(static s => ((ReactorSocketTransport)s!).Rewatch(), this);
        }
    }

    public bool ReclaimLentHere()
    {
        if (!TryTakeAwayTurn())
        {
            return false;
        }

        Rewatch();
        return true;
    }

    /// <summary>Moves a turn left away back to the loop (the caller then has the reactor watch again); false when it was not away.</summary>
    private bool TryTakeAwayTurn() => Interlocked.CompareExchange(ref _turn, TurnLoop, TurnAway) == TurnAway;

    /// <summary>
    /// The reactor reported input: true when the loop has the turn (now <see cref="TurnLoopReceiving"/>;
    /// <paramref name="pendingTurn"/> is the state to restore if the kernel has nothing after all), else the watch stops.
    /// </summary>
    private bool TakeTurnForInput(out int pendingTurn)
    {
        while (true)
        {
            pendingTurn = Volatile.Read(ref _turn);
            switch (pendingTurn)
            {
                case TurnLoopOnly:
                    // Nobody else moves this state on: the loop receives as it always did.
                    return true;

                case TurnLoop:
                    if (Interlocked.CompareExchange(ref _turn, TurnLoopReceiving, TurnLoop) == TurnLoop)
                    {
                        return true;
                    }

                    break;

                case TurnLent:
                    if (Interlocked.CompareExchange(ref _turn, TurnLentUnwatched, TurnLent) == TurnLent)
                    {
                        // The borrower reads this input; watching on would report it again until then. The check timer
                        // finds the turn if the borrower leaves it away.
                        ArmTurnCheck();
                        return false;
                    }

                    break;

                default:
                    // Unwatched already (lent or away, with the check timer running), or no receive pending.
                    return false;
            }
        }
    }

    private void ArmTurnCheck()
    {
        if (!_turnCheckArmed)
        {
            _turnCheckArmed = true;
            _thread.AddTimer(Tuning.Reactor.LentTurnCheckMilliseconds, static s => ((ReactorSocketTransport)s!).CheckTurn(), this);
        }
    }

    /// <summary>
    /// I/O thread: a turn left away goes back to the loop; one still borrowed is watched again (Lent), so that a long
    /// wait on the turn costs this thread one look, not one per period. The timer is armed whenever the turn becomes
    /// unwatched (LentUnwatched, and from it Away), the only states in which nobody watches, and this look leaves neither.
    /// </summary>
    private void CheckTurn()
    {
        _turnCheckArmed = false;
        while (!_disposed && !ReclaimLentHere())
        {
            // Not away: still borrowed and unwatched (watch it again), watched again (done), or left away meanwhile (retry).
            int turn = Volatile.Read(ref _turn);
            if (turn == TurnLentUnwatched)
            {
                // The borrower returns a watched turn to Loop (ReturnLent), whatever it read: nobody needs a timer then.
                if (Interlocked.CompareExchange(ref _turn, TurnLent, TurnLentUnwatched) == TurnLentUnwatched)
                {
                    Rewatch();
                    return;
                }

                continue;
            }

            if (turn != TurnAway)
            {
                return;
            }
        }
    }

    /// <summary>
    /// I/O thread, failing the pending receive of a closed transport: false while the turn is borrowed. The borrower
    /// sees <see cref="_failWhenReturned"/> when it returns the turn and schedules the failure again (either this
    /// thread sees the turn returned, or the borrower sees the flag: both write, then read the other's).
    /// </summary>
    private bool TurnAllowsFailure()
    {
        while (true)
        {
            int turn = Volatile.Read(ref _turn);
            if (turn is TurnLent or TurnLentUnwatched)
            {
                Volatile.Write(ref _failWhenReturned, true);
                Interlocked.MemoryBarrier();
                if (Volatile.Read(ref _turn) is TurnLent or TurnLentUnwatched)
                {
                    return false;
                }

                continue;
            }

            // Busy by a CAS on the state seen, so a borrower cannot take an away turn in between.
            if (Interlocked.CompareExchange(ref _turn, TurnBusy, turn) == turn)
            {
                return true;
            }
        }
    }

    /// <summary>I/O thread: the loop has the turn back; watch for its pending receive.</summary>
    private void Rewatch()
    {
        if (_receivePending && !_disposed && Volatile.Read(ref _turn) is TurnLoop or TurnLent)
        {
            _thread.WatchRead(_socket, this);
        }
    }

    /// <summary>I/O thread: the borrower handed bytes (or the end of the stream) back: the pending receive completes with <see cref="IByteTransport.HandedBack"/>.</summary>
    private void CompleteHandBack()
    {
        // No borrower takes the turn while a hand-back is pending (the connection refuses), and the reactor serves no
        // receive on a busy turn (ReturnLent): the pending receive is the one the borrower returned, unless a failure
        // (FailPending) ended it first.
        if (!_receivePending || _disposed)
        {
            return;
        }

        _receivePending = false;
        _receiveBuffer = default;
        _receiveCore.SetResult(IByteTransport.HandedBack);
    }
}
