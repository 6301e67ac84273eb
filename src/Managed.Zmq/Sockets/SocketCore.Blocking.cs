using Managed.Zmq.Patterns;
using Managed.Zmq.Buffers;
using Managed.Zmq.Options;
using Managed.Zmq.Pipes;
using Managed.Zmq.Security.Zap;

namespace Managed.Zmq.Sockets;

internal sealed partial class SocketCore
{
    /// <summary>
    /// Spin iterations before parking when a reply is due (this socket's last completed operation
    /// was a send): the answer comes within a round trip, tens of microseconds, and parking then
    /// costs more than that round trip on a small machine. The later iterations yield the CPU.
    /// </summary>
    private const int ReplySpinIterations = 40;

    /// <summary>
    /// Spin iterations before parking in a stream (the last operation was a receive) or at the
    /// send HWM: short pauses only, no yields. The peer is the bottleneck there, and on a
    /// machine with few cores a waiter that yields or spins long takes the CPU the peer needs
    /// (64 B tcp: 40 yielding spins ran at 0.92x libzmq, 10 pause spins at 1.43-1.56x).
    /// </summary>
    private const int StreamSpinIterations = 10;

    /// <summary>True after a message went out and before the next one came in: a reply may be due.</summary>
    private bool _replyDue;

    /// <summary>
    /// Whether a reply may be due (see <see cref="_replyDue"/>): a Poller's wait spins longer then,
    /// and a send finding the write loop parked writes to the OS socket itself only when not (Pipe).
    /// </summary>
    public bool ReplyDue => _replyDue;

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
    public SendStatus Send(ReadOnlySpan<byte> frame, bool more, bool dontWait)
    {
        if (_closed)
        {
            return SendStatus.Closed;
        }

        ProcessEvents();
        if (_terminated)
        {
            return SendStatus.Terminated;
        }

        var status = Pattern.Send(frame, more);
        if (status == SendStatus.WouldBlock)
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

        long deadline = timeout < 0 ? long.MaxValue : Environment.TickCount64 + timeout;
        var spinner = default(SpinWait);
        for (int i = 0; i < StreamSpinIterations; i++)
        {
            spinner.SpinOnce(sleep1Threshold: -1);
            ProcessEvents();
            status = Pattern.Send(frame, more);
            if (status != SendStatus.WouldBlock)
            {
                return NoteSend(status, more);
            }
        }

        while (true)
        {
            int sequence = Signal.BeginWait();
            try
            {
                ProcessEvents();
                if (_closed)
                {
                    return SendStatus.Closed;
                }

                if (_terminated)
                {
                    return SendStatus.Terminated;
                }

                status = Pattern.Send(frame, more);
                if (status != SendStatus.WouldBlock)
                {
                    return NoteSend(status, more);
                }

                if (!Signal.Wait(sequence, deadline))
                {
                    return SendStatus.WouldBlock;
                }
            }
            finally
            {
                Signal.EndWait();
            }
        }
    }

    /// <summary>Receives one frame into <paramref name="sink"/>, waiting up to RCVTIMEO.</summary>
    public RecvStatus Recv<TSink>(ref TSink sink, bool dontWait)
        where TSink : IFrameSink, allows ref struct
    {
        if (_closed)
        {
            return RecvStatus.Closed;
        }

        ProcessEvents();
        if (_terminated)
        {
            return RecvStatus.Terminated;
        }

        var status = Pattern.Recv(ref sink);
        if (status != RecvStatus.WouldBlock || dontWait)
        {
            return NoteRecv(status);
        }

        int timeout = Options.ReceiveTimeout;
        if (timeout == 0)
        {
            return status;
        }

        long deadline = timeout < 0 ? long.MaxValue : Environment.TickCount64 + timeout;
        var spinner = default(SpinWait);
        int spins = _replyDue ? ReplySpinIterations : StreamSpinIterations;
        for (int i = 0; i < spins; i++)
        {
            spinner.SpinOnce(sleep1Threshold: -1);
            ProcessEvents();
            status = Pattern.Recv(ref sink);
            if (status != RecvStatus.WouldBlock)
            {
                return NoteRecv(status);
            }
        }

        while (true)
        {
            int sequence = Signal.BeginWait();
            try
            {
                ProcessEvents();
                if (_closed)
                {
                    return RecvStatus.Closed;
                }

                if (_terminated)
                {
                    return RecvStatus.Terminated;
                }

                status = Pattern.Recv(ref sink);
                if (status != RecvStatus.WouldBlock)
                {
                    return NoteRecv(status);
                }

                if (!Signal.Wait(sequence, deadline))
                {
                    return RecvStatus.WouldBlock;
                }
            }
            finally
            {
                Signal.EndWait();
            }
        }
    }

    /// <summary>ZMQ_EVENTS: <see cref="PollEvents.In"/> and <see cref="PollEvents.Out"/> as they stand now.</summary>
    public PollEvents Events
    {
        get
        {
            ProcessEvents();
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
