using System.Runtime.CompilerServices;
using Managed.Zmq.Patterns;
using Managed.Zmq.Pipes;

namespace Managed.Zmq.Sockets;

/// <summary>
/// The thread-safe socket types (SERVER and CLIENT, libzmq's draft types, which libzmq lets several threads use
/// at once): their pattern and pipe bookkeeping run under one gate, held for each attempt and released while a
/// blocking call waits, so a receiver parked on an empty queue never holds up a sender. Classic types have no
/// gate and pay one null check.
/// </summary>
internal sealed partial class SocketCore
{
    /// <summary>The gate of a thread-safe type; null for the classic types, which are used by one thread at a time.</summary>
    private readonly Lock? _gate;

    /// <summary>True for the types several threads may use at once (libzmq: SERVER, CLIENT and the other draft types).</summary>
    public static bool IsThreadSafeType(SocketType socketType) => socketType is SocketType.Server or SocketType.Client;

    /// <summary>Enters the gate of a thread-safe socket (re-entrant); a no-op for the classic types.</summary>
    public GateScope EnterGate()
    {
        _gate?.Enter();
        return new GateScope(_gate);
    }

    /// <summary>The public API's send: <see cref="Send(in OutboundFrame, bool)"/>, each attempt under the gate for a thread-safe type.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public SendStatus SendFromApi(in OutboundFrame frame, bool dontWait) =>
        _gate is null ? Send(frame, dontWait) : SendShared(frame, dontWait);

    /// <summary>The public API's receive: <see cref="Recv{TSink}(ref TSink, bool)"/>, each attempt under the gate for a thread-safe type.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public RecvStatus RecvFromApi<TSink>(ref TSink sink, bool dontWait)
        where TSink : IFrameSink, allows ref struct =>
        _gate is null ? Recv(ref sink, dontWait) : RecvShared(ref sink, dontWait);

    private SendStatus SendShared(in OutboundFrame frame, bool dontWait)
    {
        long deadline = 0;
        while (true)
        {
            // Registered as a waiter before the attempt: a notification between the attempt and the wait is not lost.
            int sequence = Signal.BeginWait();
            try
            {
                SendStatus status;
                lock (_gate!)
                {
                    status = Send(frame, dontWait: true);
                }

                if (status != SendStatus.WouldBlock || dontWait || !TryDeadline(Options.SendTimeout, ref deadline))
                {
                    return status;
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

    private RecvStatus RecvShared<TSink>(ref TSink sink, bool dontWait)
        where TSink : IFrameSink, allows ref struct
    {
        long deadline = 0;
        while (true)
        {
            int sequence = Signal.BeginWait();
            try
            {
                RecvStatus status;
                lock (_gate!)
                {
                    status = Recv(ref sink, dontWait: true);
                }

                if (status != RecvStatus.WouldBlock || dontWait || !TryDeadline(Options.ReceiveTimeout, ref deadline))
                {
                    return status;
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

    /// <summary>Sets the deadline of a blocking call on its first wait; false when the timeout is 0 (do not wait).</summary>
    private static bool TryDeadline(int timeout, ref long deadline)
    {
        if (timeout == 0)
        {
            return false;
        }

        if (deadline == 0)
        {
            deadline = timeout < 0 ? long.MaxValue : Environment.TickCount64 + timeout;
        }

        return true;
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
