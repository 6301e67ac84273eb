using System.Threading.Tasks.Sources;

namespace Managed.Zmq.Threading;

/// <summary>
/// An auto-reset signal with one async waiter and no allocation per wait: the way a user thread
/// (or the I/O thread itself) wakes a connection's read or write loop.
/// </summary>
/// <remarks>
/// A <see cref="Set"/> with nobody waiting is remembered, so the waiter's next
/// <see cref="WaitAsync"/> completes at once. The continuation goes through the waiter's captured
/// <see cref="SynchronizationContext"/>, i.e. back onto its I/O thread, never inline on the setter.
/// </remarks>
internal sealed class AsyncSignal : IValueTaskSource
{
    private const int Idle = 0;
    private const int Waiting = 1;
    private const int Signaled = 2;

    private ManualResetValueTaskSourceCore<bool> _core;
    private int _state;

    public ValueTask WaitAsync()
    {
        if (Interlocked.CompareExchange(ref _state, Idle, Signaled) == Signaled)
        {
            return default;
        }

        _core.Reset();
        if (Interlocked.CompareExchange(ref _state, Waiting, Idle) != Idle)
        {
            // Set between the two steps: it left Signaled behind.
            Volatile.Write(ref _state, Idle);
            return default;
        }

        return new ValueTask(this, _core.Version);
    }

    public void Set()
    {
        while (true)
        {
            int state = Volatile.Read(ref _state);
            if (state == Signaled)
            {
                return;
            }

            if (state == Idle)
            {
                if (Interlocked.CompareExchange(ref _state, Signaled, Idle) == Idle)
                {
                    return;
                }

                continue;
            }

            if (Interlocked.CompareExchange(ref _state, Idle, Waiting) == Waiting)
            {
                _core.SetResult(true);
                return;
            }
        }
    }

    void IValueTaskSource.GetResult(short token) => _core.GetResult(token);

    ValueTaskSourceStatus IValueTaskSource.GetStatus(short token) => _core.GetStatus(token);

    void IValueTaskSource.OnCompleted(Action<object?> continuation, object? state, short token, ValueTaskSourceOnCompletedFlags flags)
        => _core.OnCompleted(continuation, state, token, flags);
}
