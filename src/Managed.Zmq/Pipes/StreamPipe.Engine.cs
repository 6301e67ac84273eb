namespace Managed.Zmq.Pipes;

/// <summary>The engine's side of a stream pipe (I/O thread): the writer turn and the reader pause.</summary>
internal sealed partial class StreamPipe
{
    /// <summary>Who has the write side of the connection: <see cref="WriterRunning"/>, <see cref="WriterParked"/> or <see cref="WriterDirect"/>.</summary>
    private int _writerState;

    /// <summary>The engine's write loop is running (or about to): it alone writes to the OS socket.</summary>
    private const int WriterRunning = 0;

    /// <summary>The write loop is parked waiting for data; whoever moves the state on next has the write side.</summary>
    private const int WriterParked = 1;

    /// <summary>The socket thread is writing to the OS socket itself; the write loop waits for it to hand back.</summary>
    private const int WriterDirect = 2;

    /// <summary>1 while the engine's read loop is paused at the receive HWM.</summary>
    private int _readerPaused;

    // ------------------------------------------------------------ engine side (I/O thread)

    public void SetEngine(IPipeEngine? engine) => Volatile.Write(ref _engine, engine);

    /// <summary>Engine: the write loop is about to park; returns false if data arrived meanwhile.</summary>
    public bool TryParkWriter()
    {
        Volatile.Write(ref _writerState, WriterParked);
        Interlocked.MemoryBarrier();
        if (Outbound.HasData)
        {
            // Take the turn back, unless the socket thread took it first: then it wakes us when done.
            return Interlocked.CompareExchange(ref _writerState, WriterRunning, WriterParked) != WriterParked;
        }

        return true;
    }

    /// <summary>
    /// Engine, woken after <see cref="TryParkWriter"/>: takes the write side back, first waiting out a
    /// direct write in progress on the socket thread (one non-blocking system call).
    /// </summary>
    public void ClaimWriter()
    {
        var spinner = default(SpinWait);
        while (Interlocked.CompareExchange(ref _writerState, WriterRunning, WriterParked) == WriterDirect)
        {
            spinner.SpinOnce();
        }
    }

    /// <summary>True while the engine's read loop is paused at RCVHWM (diagnostics and tests).</summary>
    public bool IsReaderPaused => Volatile.Read(ref _readerPaused) != 0;

    /// <summary>Engine: the read loop is about to pause at the HWM; returns false if room was made meanwhile.</summary>
    public bool TryPauseReader()
    {
        Volatile.Write(ref _readerPaused, 1);
        Interlocked.MemoryBarrier();
        if (Inbound.QueuedMessages <= ReceiveHwm / LowWaterDivisor)
        {
            return Interlocked.Exchange(ref _readerPaused, 0) == 0;
        }

        return true;
    }

    /// <summary>
    /// Called after a commit (a full fence): when the engine's write loop is parked, either writes the
    /// queue to the OS socket from this thread (a reply: the socket's last operation was a receive, see <see cref="IPipeOwner.ReplyDue"/>)
    /// or wakes the write loop.
    /// </summary>
    /// <param name="endsInLargeFrame">The message just committed ends in a large frame (see <see cref="IPipeOwner.WritesLargeFramesDirect"/>).</param>
    public void WakeWriter(bool endsInLargeFrame = false)
    {
        if (Volatile.Read(ref _writerState) != WriterParked)
        {
            return;
        }

        // A send that follows a receive (no reply due on this socket) is a reply, or the next request:
        // writing it here saves the I/O thread's wake-up on the round trip. A stream of sends would
        // pay a system call per message instead of one per batch, so it wakes the write loop; a large frame
        // costs a system call of its own anyway, so one of a stream is written here too.
        if ((!Socket.ReplyDue || (endsInLargeFrame && Socket.WritesLargeFramesDirect))
            && Interlocked.CompareExchange(ref _writerState, WriterDirect, WriterParked) == WriterParked)
        {
            var engine = Volatile.Read(ref _engine);
            bool written = false;
            try
            {
                written = engine is not null && engine.TryWriteDirect(this) && !Outbound.HasData;
            }
            finally
            {
                if (written)
                {
                    Volatile.Write(ref _writerState, WriterParked);
                }
                else
                {
                    // Whatever happened, the write loop gets its turn back (it may be spinning in ClaimWriter).
                    Volatile.Write(ref _writerState, WriterRunning);
                    engine?.WakeWriter();
                }
            }

            return;
        }

        if (Interlocked.Exchange(ref _writerState, WriterRunning) == WriterParked)
        {
            _engine?.WakeWriter();
        }
    }
}
