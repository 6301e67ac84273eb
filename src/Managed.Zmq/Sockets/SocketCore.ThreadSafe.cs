using System.Runtime.CompilerServices;
using Managed.Zmq.Internal;
using Managed.Zmq.Patterns;
using Managed.Zmq.Pipes;

namespace Managed.Zmq.Sockets;

/// <summary>
/// The thread-safe socket types (SERVER, CLIENT and PEER, libzmq's draft types, which libzmq lets several threads
/// use at once): their pattern and pipe bookkeeping run under one gate, held for each attempt and released while a
/// blocking call waits, so a receiver parked on an empty queue never holds up a sender. Bind, connect, unbind,
/// disconnect, option reads and writes, the peer listing and Dispose hold it for their whole call (the public
/// Socket enters it), as libzmq's thread-safe sockets take their lock in each of those. Classic types have no
/// gate and pay one null check.
/// </summary>
internal sealed partial class SocketCore
{
    /// <summary>The gate of a thread-safe type; null for the classic types, which are used by one thread at a time.</summary>
    private readonly Lock? _gate;

    /// <summary>True for the types several threads may use at once (libzmq: SERVER, CLIENT and the other draft types).</summary>
    public static bool IsThreadSafeType(SocketType socketType) => SocketTypeFacts.IsThreadSafe(socketType);

    /// <summary>
    /// The routing id SERVER or PEER gave <paramref name="pipe"/> (what its messages carry in
    /// <see cref="Message.RoutingId"/>); 0 for other types and for a pipe that left.
    /// </summary>
    public uint RoutingIdOf(Pipe pipe) => Pattern is ServerRouting routing ? routing.RoutingIdOf(pipe) : 0;

    /// <summary>Enters the gate of a thread-safe socket (re-entrant); a no-op for the classic types.</summary>
    public GateScope EnterGate()
    {
        _gate?.Enter();
        return new GateScope(_gate);
    }

    /// <summary>The public API's send: <see cref="Send(in OutboundFrame, bool, bool, bool)"/>, each attempt under the gate for a thread-safe type.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public SendStatus SendFromApi(in OutboundFrame frame, bool dontWait) =>
        _gate is null ? Send(frame, dontWait) : SendShared(frame, dontWait);

    /// <summary>The public API's receive: <see cref="Recv{TSink}(ref TSink, bool, bool)"/>, each attempt under the gate for a thread-safe type.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public RecvStatus RecvFromApi<TSink>(ref TSink sink, bool dontWait)
        where TSink : IFrameSink, allows ref struct =>
        _gate is null ? Recv(ref sink, dontWait) : RecvShared(ref sink, dontWait);

    private SendStatus SendShared(in OutboundFrame frame, bool dontWait)
    {
        var status = SendOnceUnderGate(frame, retry: false);
        int timeout = Options.SendTimeout;
        if (status != SendStatus.WouldBlock || dontWait || timeout == 0)
        {
            return status;
        }

        // The same spins as a classic socket's wait: they run outside the gate, so they hold up no other thread,
        // and without them a caller on one thread parks and is woken for every message a classic socket would
        // have caught spinning. The retry after each Next runs registered once parking, so a wake that lands
        // between the attempt and the park is not lost.
        var wait = new SpinThenPark(Signal, WakeSequence.DeadlineFromTimeout(timeout), Tuning.Blocking.StreamSpins);
        try
        {
            while (wait.Next())
            {
                status = SendOnceUnderGate(frame, retry: true);
                if (status != SendStatus.WouldBlock)
                {
                    return status;
                }
            }
        }
        finally
        {
            wait.Dispose();
        }

        return status;
    }

    private RecvStatus RecvShared<TSink>(ref TSink sink, bool dontWait)
        where TSink : IFrameSink, allows ref struct
    {
        var status = RecvOnceUnderGate(ref sink);
        int timeout = Options.ReceiveTimeout;
        if (status != RecvStatus.WouldBlock || dontWait || timeout == 0)
        {
            return status;
        }

        // As SendShared; the reply hint is read outside the gate (a stale value only changes how long it spins).
        int spins = _replyDue ? Tuning.Blocking.ReplySpins : Tuning.Blocking.StreamSpins;
        var wait = new SpinThenPark(Signal, WakeSequence.DeadlineFromTimeout(timeout), spins);
        try
        {
            while (wait.Next())
            {
                status = RecvOnceUnderGate(ref sink);
                if (status != RecvStatus.WouldBlock)
                {
                    return status;
                }
            }
        }
        finally
        {
            wait.Dispose();
        }

        return status;
    }

    /// <summary>
    /// One non-blocking attempt, the gate held only for it (released while the caller waits); a <paramref name="retry"/>
    /// is not counted again as a blocked send.
    /// </summary>
    private SendStatus SendOnceUnderGate(in OutboundFrame frame, bool retry)
    {
        lock (_gate!)
        {
            return Send(frame, dontWait: true, gateHeld: true, retry);
        }
    }

    /// <summary>One non-blocking attempt, the gate held only for it (released while the caller waits).</summary>
    private RecvStatus RecvOnceUnderGate<TSink>(ref TSink sink)
        where TSink : IFrameSink, allows ref struct
    {
        lock (_gate!)
        {
            return Recv(ref sink, dontWait: true, gateHeld: true);
        }
    }

    /// <summary>Leaves the gate entered by <see cref="EnterGate"/>.</summary>
    internal readonly ref struct GateScope
    {
        private readonly Lock? _gate;

        public GateScope(Lock? gate)
        {
            _gate = gate;
        }

        public void Dispose() => _gate?.Exit();
    }
}
