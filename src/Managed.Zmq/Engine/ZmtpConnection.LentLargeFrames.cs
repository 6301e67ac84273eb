using System.Diagnostics;
using Managed.Zmq.Buffers;
using Managed.Zmq.Pipes;
using Managed.Zmq.Threading;
using Managed.Zmq.Wire;

namespace Managed.Zmq.Engine;

/// <summary>
/// A large frame on the read turn: the borrower reads its body into a buffer of its own as the read loop would
/// (ZmtpConnection.LargeFrames.cs), so that a large reply reaches a waiting caller through its own wake-up alone, as a
/// small one does (docs/ARCHITECTURE.md, the read turn).
/// </summary>
internal sealed partial class ZmtpConnection
{
    /// <summary>
    /// A large frame's body begun and not finished: by a borrower, for the read loop to go on from; or by the read loop,
    /// offered to a borrower while <see cref="_largeFrameOffered"/> is set.
    /// </summary>
    private OutboundPayload? _lentLargeFrame;

    /// <summary>Bytes of <see cref="_lentLargeFrame"/> received so far.</summary>
    private int _lentLargeFrameReceived;

    /// <summary>
    /// <see cref="_lentLargeFrame"/> is the read loop's, offered: its pending receive is for the rest of that body, and a
    /// borrower may take the body over (<see cref="OfferLargeFrame"/>). Cleared by whoever takes it.
    /// </summary>
    private bool _largeFrameOffered;

    /// <summary>The read loop offers the rest of a large body it began (a test's view of the state, any thread).</summary>
    internal bool OffersLargeFrame => Volatile.Read(ref _largeFrameOffered);

    /// <summary>
    /// Bodies a borrower took over from the read loop's offer (a test's measure: one is taken by one thread at a time, so
    /// a plain increment suffices).
    /// </summary>
    internal long LargeFramesTakenOver { get; private set; }

    /// <summary>
    /// Borrower, with the header of a large message frame waiting at the parse offset (<see cref="IsDirectFrameWaiting"/>):
    /// reads the body, waiting for the rest until <paramref name="waitEnd"/> (see <see cref="WaitEnd"/>), then queues it and
    /// parses what came after it. False when the caller must hand the turn back to the read loop: the body did not all
    /// come by then, news interrupted the wait (<paramref name="wait"/>), or the stream ended or failed first (the part
    /// that came is kept for the loop, which goes on from it), or what came after the frame is more than plain data.
    /// </summary>
    private bool ReadLargeFrameLent(StreamPipe pipe, ZmtpFrameHeader header, long waitEnd, InterruptibleWait? wait)
    {
        int bodyLength = (int)header.BodyLength;
        if (_largeFrameOffered)
        {
            LargeFramesTakenOver++;
        }

        var payload = StartLargeFrame(pipe.Inbound, header, out int received);
        bool complete = false;
        try
        {
            // A wait that news interrupted ends the read as a deadline would: a wait that found input as well used the
            // interrupt up, and a next wait would not end for the news (the caller looks for it once this returns).
            while (received < bodyLength && wait?.Interrupted != true)
            {
                int read = _transport.ReceiveLent(payload.WritableSpan[received..], MicrosecondsLeft(waitEnd), wait);
                if (read <= 0)
                {
                    // The loop meets the end or the error itself when it receives next, as it would have without the turn.
                    break;
                }

                received += read;
                OnTrafficReceived();
            }

            complete = received >= bodyLength;
        }
        finally
        {
            if (!complete)
            {
                // Whatever stopped the read, a throw included: the loop goes on from the part read, which left the queue
                // (ReadDirect hands the turn back whenever such a part is kept).
                _lentLargeFrame = payload;
                _lentLargeFrameReceived = received;
            }
        }

        if (!complete)
        {
            return false;
        }

        QueueLargeFrame(pipe, header, payload, received, lent: true);

        // What came after the frame is parsed here under ReadDirect's rule: plain data only. The rest (a command needs
        // the write side, a refused frame ends the connection) goes back to the loop, which parses it from where it is.
        if (!OnlyPlainFrames(pipe.Inbound))
        {
            return false;
        }

        if (!ParseReceived(pipe))
        {
            // Not expected once the frames passed OnlyPlainFrames; the loop ends the connection as its own parse would.
            _directParseFailed = true;
            return false;
        }

        return true;
    }

    /// <summary>
    /// Starting a large frame: the body begun and left, if one was (then null again): by a borrower, for the read loop to
    /// go on from, or by the read loop, offered to a borrower.
    /// </summary>
    private OutboundPayload? TakeLentLargeFrame(out int received)
    {
        var begun = _lentLargeFrame;
        received = begun is null ? 0 : _lentLargeFrameReceived;
        _lentLargeFrame = null;
        _lentLargeFrameReceived = 0;
        _largeFrameOffered = false;
        return begun;
    }

    /// <summary>
    /// Read loop, about to wait for the rest of a large frame's body in a lendable receive: leaves the body where a
    /// borrower's <see cref="StartLargeFrame"/> finds it, as a borrower leaves one it began. Written before the receive
    /// publishes the turn, so a borrower that takes the turn finds it.
    /// </summary>
    private void OfferLargeFrame(OutboundPayload payload, int received)
    {
        _lentLargeFrame = payload;
        _lentLargeFrameReceived = received;
        _largeFrameOffered = true;
    }

    /// <summary>
    /// Read loop, its offered receive completed (<see cref="OfferLargeFrame"/>): true, with the body, when no borrower
    /// took it, so the receive's bytes went into it; false when one did.
    /// </summary>
    private bool TryTakeBackOffer(out OutboundPayload payload, out int received)
    {
        if (!_largeFrameOffered)
        {
            payload = null!;
            received = 0;
            return false;
        }

        payload = TakeLentLargeFrame(out received)!;
        return true;
    }

    /// <summary>
    /// Where the pending receive goes once the turn is back: the rest of an offered body not taken, else the place
    /// <see cref="LendingSpace"/> gives (a borrower that took the body has queued it, or hands it back).
    /// </summary>
    private Memory<byte> ReturnSpace(FrameQueue inbound) =>
        _largeFrameOffered ? _lentLargeFrame!.WritableMemory[_lentLargeFrameReceived..] : LendingSpace(inbound);

    /// <summary>Read loop, at its end: a body a borrower began goes back to its pool.</summary>
    private void ReleaseLentLargeFrame() => TakeLentLargeFrame(out _)?.Release();

    /// <summary>The <see cref="Stopwatch"/> timestamp a wait of <paramref name="microseconds"/> from now ends at; <see cref="long.MaxValue"/> for <see cref="int.MaxValue"/> (no end).</summary>
    private static long WaitEnd(int microseconds) =>
        microseconds == int.MaxValue ? long.MaxValue : Stopwatch.GetTimestamp() + microseconds * Stopwatch.Frequency / 1_000_000;

    /// <summary>Microseconds left until <paramref name="waitEnd"/> (<see cref="WaitEnd"/>): 0 once it passed, for a receive that does not wait.</summary>
    private static int MicrosecondsLeft(long waitEnd)
    {
        if (waitEnd == long.MaxValue)
        {
            return int.MaxValue;
        }

        long left = waitEnd - Stopwatch.GetTimestamp();
        return left <= 0 ? 0 : (int)Math.Min(int.MaxValue - 1, left * 1_000_000 / Stopwatch.Frequency);
    }
}
