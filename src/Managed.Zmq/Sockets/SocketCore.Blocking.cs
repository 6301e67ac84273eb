using Managed.Zmq.Patterns;
using Managed.Zmq.Buffers;
using Managed.Zmq.Internal;
using Managed.Zmq.Options;
using Managed.Zmq.Pipes;
using Managed.Zmq.Security.Zap;

namespace Managed.Zmq.Sockets;

internal sealed partial class SocketCore
{
    /// <summary>True after a message went out and before the next one came in: a reply may be due.</summary>
    private bool _replyDue;

    /// <summary>
    /// Whether a reply may be due (see <see cref="_replyDue"/>): a Poller's wait spins longer then,
    /// and a send finding the write loop parked writes to the OS socket itself only when not (Pipe).
    /// </summary>
    public bool ReplyDue => _replyDue;

    /// <inheritdoc cref="IPipeOwner.WritesLargeFramesDirect"/>
    public bool WritesLargeFramesDirect => !SocketTypeFacts.Distributes(SocketType);

    /// <summary>A whole message went out: a reply may be due.</summary>
    private SendStatus NoteSend(SendStatus status, bool more)
    {
        _replyDue |= status == SendStatus.Sent && !more;
        return status;
    }

    /// <summary>A frame came in: whatever was due has arrived.</summary>
    private RecvStatus NoteRecv(RecvStatus status)
    {
        _replyDue &= status != RecvStatus.Received;
        return status;
    }

    /// <summary>
    /// Sends one frame, waiting (spin briefly, then park) while the pattern would block, up to
    /// SNDTIMEO. Only a message's first frame can wait (as in Net.Zmq).
    /// </summary>
    public SendStatus Send(ReadOnlySpan<byte> frame, bool more, bool dontWait) => Send(new OutboundFrame(frame, more), dontWait);

    /// <summary>
    /// Sends one frame, whose payload (when it has one) pipes may queue by reference; otherwise as
    /// <see cref="Send(ReadOnlySpan{byte}, bool, bool)"/>.
    /// </summary>
    /// <param name="frame">The frame.</param>
    /// <param name="dontWait">Fail with WouldBlock instead of waiting.</param>
    /// <param name="gateHeld">The caller holds the thread-safe gate (one attempt of SendShared): pending events are applied without entering it again.</param>
    /// <param name="retry">A later attempt of the same send (SendShared's retries): a refusal was counted on the first.</param>
    public SendStatus Send(in OutboundFrame frame, bool dontWait, bool gateHeld = false, bool retry = false)
    {
        bool more = frame.More;
        if (_closed)
        {
            return SendStatus.Closed;
        }

        ProcessEvents(gateHeld);
        if (_terminated)
        {
            return SendStatus.Terminated;
        }

        var status = Pattern.Send(frame);
        if (status == SendStatus.WouldBlock && !retry)
        {
            // Once per send that could not go at once (not per retry): a plain store, read racily by the metrics.
            Meters.BlockedSends++;
        }

        if (status != SendStatus.WouldBlock || dontWait)
        {
            return NoteSend(status, more);
        }

        int timeout = Options.SendTimeout;
        if (timeout == 0)
        {
            return status;
        }

        var wait = new SpinThenPark(Signal, WakeSequence.DeadlineFromTimeout(timeout), Tuning.Blocking.StreamSpins);
        try
        {
            while (WaitMore(ref wait))
            {
                status = Pattern.Send(frame);
                if (status != SendStatus.WouldBlock)
                {
                    return NoteSend(status, more);
                }
            }
        }
        finally
        {
            wait.Dispose();
        }

        return _closed ? SendStatus.Closed : _terminated ? SendStatus.Terminated : SendStatus.WouldBlock;
    }

    /// <summary>Receives one frame into <paramref name="sink"/>, waiting up to RCVTIMEO.</summary>
    /// <param name="sink">Where the frame goes.</param>
    /// <param name="dontWait">Fail with WouldBlock instead of waiting.</param>
    /// <param name="gateHeld">The caller holds the thread-safe gate (one attempt of RecvShared), as for Send.</param>
    public RecvStatus Recv<TSink>(ref TSink sink, bool dontWait, bool gateHeld = false)
        where TSink : IFrameSink, allows ref struct
    {
        if (_closed)
        {
            return RecvStatus.Closed;
        }

        ProcessEvents(gateHeld);
        if (_terminated)
        {
            return RecvStatus.Terminated;
        }

        var status = Pattern.Recv(ref sink);
        if (status != RecvStatus.WouldBlock)
        {
            return NoteRecv(status);
        }

        int timeout = Options.ReceiveTimeout;
        if (dontWait || timeout == 0)
        {
            return NoteRecv(gateHeld ? status : RecvReadingNow(ref sink));
        }

        // A reply is read on the read turn, as a reply is written by a direct write: one wake-up per message on a round
        // trip. A stream's receiver leaves its reads to the I/O thread, which reads ahead while the receiver works,
        // unless the stream's messages are large: each one then takes a hand-off of its own, which costs the receiver
        // more than reading it itself.
        long deadline = WakeSequence.DeadlineFromTimeout(timeout);
        if (!gateHeld && (_replyDue || SoleConnectionReceivesLargeFrames()) && TryRecvOnReadTurn(ref sink, deadline, out status))
        {
            return NoteRecv(status);
        }

        // This wait relies on the read loop: a turn left away (by an earlier reply's Recv, or by this one before its turn ran
        // out) goes back to it.
        ReclaimReadTurn();

        int spins = _replyDue ? Tuning.Blocking.ReplySpins : Tuning.Blocking.StreamSpins;
        var wait = new SpinThenPark(Signal, deadline, spins);
        try
        {
            while (WaitMore(ref wait))
            {
                status = Pattern.Recv(ref sink);
                if (status != RecvStatus.WouldBlock)
                {
                    return NoteRecv(status);
                }
            }
        }
        finally
        {
            wait.Dispose();
        }

        return _closed ? RecvStatus.Closed : _terminated ? RecvStatus.Terminated : RecvStatus.WouldBlock;
    }

    /// <summary>
    /// One more round of a blocking Send or Recv: spins or parks (<see cref="SpinThenPark"/>), then applies pending
    /// pipe news. False when the call must end instead: the deadline passed, the socket was disposed from another
    /// thread, or the context was shut down.
    /// </summary>
    private bool WaitMore(ref SpinThenPark wait)
    {
        if (!wait.Next())
        {
            return false;
        }

        ProcessEvents();
        return !_closed && !_terminated;
    }

    /// <summary>ZMQ_EVENTS: <see cref="PollEvents.In"/> and <see cref="PollEvents.Out"/> as they stand now.</summary>
    public PollEvents Events
    {
        get
        {
            ProcessEvents();
            ReclaimReadTurn();
            if (_terminated)
            {
                return PollEvents.None;
            }

            var events = PollEvents.None;
            if (Pattern.CanReceive)
            {
                events |= PollEvents.In;
            }

            if (Pattern.CanSend)
            {
                events |= PollEvents.Out;
            }

            return events;
        }
    }
}
