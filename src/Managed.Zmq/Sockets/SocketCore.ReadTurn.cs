using Managed.Zmq.Internal;
using Managed.Zmq.Patterns;
using Managed.Zmq.Pipes;
using Managed.Zmq.Threading;

namespace Managed.Zmq.Sockets;

/// <summary>
/// The read turn on the socket's side: a Recv about to wait, with one connection, reads that connection's OS socket
/// itself (docs/ARCHITECTURE.md, the read turn), as a Send after a receive writes to it itself.
/// </summary>
internal sealed partial class SocketCore
{
    /// <summary>
    /// The engine a Recv last read for on its turn, which may have been left away; kept even if more pipes came since,
    /// so that whatever next waits on the read loop can hand the turn back (<see cref="ReclaimReadTurn"/>). Socket thread.
    /// </summary>
    private IPipeEngine? _readTurnEngine;

    /// <summary>The wait of a Recv on its read turn while it may be in the kernel, for whoever brings news to end; else null.</summary>
    private InterruptibleWait? _turnWait;

    /// <summary>
    /// The engine and pipe of the socket's one connection when a Recv may read for it: a socket of a type that is not
    /// thread-safe (one caller at a time) with exactly one pipe, a connection's.
    /// </summary>
    private bool TryGetSoleConnection(out IPipeEngine engine, out StreamPipe pipe)
    {
        if (_gate is null && _patternPipes.Count == 1)
        {
            foreach (var candidate in _patternPipes.Keys)
            {
                if (candidate is StreamPipe stream && stream.Engine is { } found)
                {
                    engine = found;
                    pipe = stream;
                    return true;
                }
            }
        }

        engine = null!;
        pipe = null!;
        return false;
    }

    /// <summary>
    /// Recv's wait on the read turn: reads for the one connection until a frame can be received, the deadline passed,
    /// news came that no read brings (a pipe attached or detached, the context shut down, the socket closed), or the
    /// turn is not to be had; on a thread without its <see cref="InterruptibleWait"/>, also once nothing came for
    /// <see cref="Tuning.Blocking.ReadTurnMicroseconds"/>, since news cannot end its wait. True with the final
    /// <paramref name="status"/> when the call is over; false when the caller goes on to wait as usual.
    /// </summary>
    /// <remarks>
    /// A wait on the connection's OS socket is woken by nothing but that socket, so it goes through the thread's
    /// <see cref="InterruptibleWait"/>, which whoever brings news ends (<see cref="InterruptTurnWait"/>); the Recv then ends
    /// the turn and waits as usual, which applies the news.
    /// </remarks>
    private bool TryRecvOnReadTurn<TSink>(ref TSink sink, long deadline, out RecvStatus status)
        where TSink : IFrameSink, allows ref struct
    {
        status = RecvStatus.WouldBlock;
        long budgetEnd = long.MaxValue;
        InterruptibleWait? wait = null;
        bool recorded = false;
        try
        {
            while (TryGetSoleConnection(out var engine, out var pipe))
            {
                if (!recorded)
                {
                    // Say where this thread waits, then look for news (next): news written before the look is seen by it,
                    // and news written after it interrupts the wait (see InterruptibleWait). Without one (it could not be
                    // made), news waits for the budget.
                    recorded = true;
                    wait = InterruptibleWait.ForCurrentThread;
                    Volatile.Write(ref _turnWait, wait);
                    Interlocked.MemoryBarrier();
                    if (wait is null)
                    {
                        budgetEnd = Environment.TickCount64 + Tuning.Blocking.ReadTurnMicroseconds / 1000;
                    }
                }

                if (HasNewsNoReadBrings)
                {
                    // The usual wait applies the news (a second pipe ends the turn: it is served by the read loops).
                    break;
                }

                long now = Environment.TickCount64;
                long until = Math.Min(budgetEnd, deadline);
                if (until <= now)
                {
                    Meters.ReadTurnRunOuts++;
                    break;
                }

                Meters.ReadTurnWaits++;
                var outcome = engine.ReadDirect(pipe, MicrosecondsUntil(until, now), onlyIfAway: false, wait);
                if (wait is not null && wait.TakeInterrupted())
                {
                    Meters.ReadTurnInterrupts++;
                }

                if (outcome == DirectReadOutcome.Declined)
                {
                    Meters.ReadTurnDeclines++;
                    break;
                }

                if (outcome == DirectReadOutcome.Quiet)
                {
                    // Interrupted (the next round finds the news), the budget or deadline ran out, or woken for nothing.
                    continue;
                }

                if (outcome == DirectReadOutcome.HandedBack)
                {
                    Meters.ReadTurnHandBacks++;
                }

                status = RecvAfterTurnRead(engine, ref sink);
                if (status != RecvStatus.WouldBlock)
                {
                    return true;
                }
            }

            return false;
        }
        finally
        {
            if (recorded)
            {
                Volatile.Write(ref _turnWait, null);
            }
        }
    }

    /// <summary>The socket's one connection receives a stream of large messages (<see cref="IPipeEngine.ReceivesLargeFrames"/>).</summary>
    private bool SoleConnectionReceivesLargeFrames() => TryGetSoleConnection(out var engine, out _) && engine.ReceivesLargeFrames;

    /// <summary>
    /// The wait from <paramref name="now"/> to <paramref name="until"/> (tick counts in milliseconds), in microseconds, at
    /// most <see cref="int.MaxValue"/> (the turn's loop waits again after that). Without a deadline
    /// <paramref name="until"/> is <see cref="long.MaxValue"/>, whose product with 1000 would wrap.
    /// </summary>
    internal static int MicrosecondsUntil(long until, long now)
    {
        long milliseconds = until - now;
        return milliseconds >= int.MaxValue / 1000 ? int.MaxValue : (int)(milliseconds * 1000);
    }

    /// <summary>Pipe news queued for this thread, the context shut down or the socket closed: what ends a read turn early.</summary>
    private bool HasNewsNoReadBrings => Volatile.Read(ref _pendingEvents) != 0 || _terminated || _closed;

    /// <summary>Any thread, after writing news no read brings: ends the wait of a Recv on its read turn, if one waits.</summary>
    private void InterruptTurnWait() => Volatile.Read(ref _turnWait)?.Interrupt();

    /// <summary>
    /// A Recv that must not wait: when an earlier Recv left the read turn away, whatever the one connection's OS socket
    /// holds is read now (no wait in the kernel); otherwise the read loop has it in hand.
    /// </summary>
    private RecvStatus RecvReadingNow<TSink>(ref TSink sink)
        where TSink : IFrameSink, allows ref struct
    {
        // A turn is away only after a read on it, which set _readTurnEngine: without one, one field read and done.
        if (_readTurnEngine is null || !TryGetSoleConnection(out var engine, out var pipe) || engine.ReadDirect(pipe, 0, onlyIfAway: true, wait: null) is not (DirectReadOutcome.Read or DirectReadOutcome.HandedBack))
        {
            return RecvStatus.WouldBlock;
        }

        return RecvAfterTurnRead(engine, ref sink);
    }

    /// <summary>After a read on the turn brought input: notes the engine (its turn may be away now), applies pipe news and receives.</summary>
    private RecvStatus RecvAfterTurnRead<TSink>(IPipeEngine engine, ref TSink sink)
        where TSink : IFrameSink, allows ref struct
    {
        _readTurnEngine = engine;
        Meters.ReadTurnReads++;
        ProcessEvents();
        return _closed ? RecvStatus.Closed : _terminated ? RecvStatus.Terminated : Pattern.Recv(ref sink);
    }

    /// <summary>
    /// Before a Poller, ZMQ_EVENTS or a Recv waits on the read loop: a read turn a Recv left away goes back to it, which
    /// then reads and announces whatever waits in the kernel. Nothing to do (one field read) unless a Recv read on its turn.
    /// </summary>
    public void ReclaimReadTurn()
    {
        if (_readTurnEngine is { } engine)
        {
            _readTurnEngine = null;
            engine.ReclaimRead();
        }
    }
}
