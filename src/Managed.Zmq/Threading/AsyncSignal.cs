using System.Threading.Tasks.Sources;

namespace Managed.Zmq.Threading;

/// <summary>
/// An auto-reset signal with one async waiter, the way a user thread (or the I/O thread itself)
/// wakes a connection's read or write loop. The waiter's continuation is queued on its
/// <see cref="IoThread"/> directly, never run inline on the setter and never allocating.
/// </summary>
/// <remarks>
/// A <see cref="Set"/> with nobody waiting is remembered, so the next <see cref="WaitAsync"/>
/// completes at once. Set and the awaiter's OnCompleted race to hand the continuation over; a
/// two-party gate makes exactly the second of them schedule it.
/// </remarks>
internal sealed class AsyncSignal : IValueTaskSource
{
    private const int Idle = 0;
    private const int Waiting = 1;
    private const int Signaled = 2;
    private const int Completed = 3;

    private readonly IoThread _thread;
    private Action<object?>? _continuation;
    private object? _continuationState;
    private int _state;
    private int _gate;
    private short _version;

    public AsyncSignal(IoThread thread)
    {
        _thread = thread;
    }

    /// <summary>Waits for the next <see cref="Set"/>. One waiter at a time, on the owning I/O thread.</summary>
    public ValueTask WaitAsync()
    {
        if (Interlocked.CompareExchange(ref _state, Idle, Signaled) == Signaled)
        {
            return default;
        }

        _version++;
        _continuation = null;
        _continuationState = null;
        Volatile.Write(ref _gate, 0);
        if (Interlocked.CompareExchange(ref _state, Waiting, Idle) != Idle)
        {
            // Set slipped in between the two steps and left Signaled behind.
            Volatile.Write(ref _state, Idle);
            return default;
        }

        return new ValueTask(this, _version);
    }

    public void Set()
    {
        while (true)
        {
            int state = Volatile.Read(ref _state);
            switch (state)
            {
                case Signaled or Completed:
                    return;
                case Idle:
                    if (Interlocked.CompareExchange(ref _state, Signaled, Idle) == Idle)
                    {
                        return;
                    }

                    break;
                case Waiting:
                    if (Interlocked.CompareExchange(ref _state, Completed, Waiting) == Waiting)
                    {
                        PassGate();
                        return;
                    }

                    break;
            }
        }
    }

    private void PassGate()
    {
        if (Interlocked.Increment(ref _gate) == 2)
        {
            _thread.Schedule(_continuation!, _continuationState);
        }
    }

    void IValueTaskSource.GetResult(short token) => Volatile.Write(ref _state, Idle);

    ValueTaskSourceStatus IValueTaskSource.GetStatus(short token)
        => Volatile.Read(ref _state) == Completed ? ValueTaskSourceStatus.Succeeded : ValueTaskSourceStatus.Pending;

    void IValueTaskSource.OnCompleted(Action<object?> continuation, object? state, short token, ValueTaskSourceOnCompletedFlags flags)
    {
        _continuation = continuation;
        _continuationState = state;
        PassGate();
    }
}
