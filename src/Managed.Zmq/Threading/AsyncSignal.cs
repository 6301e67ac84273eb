using System.Threading.Tasks.Sources;

namespace Managed.Zmq.Threading;

/// <summary>
/// An auto-reset signal with one async waiter, the way a user thread (or the I/O thread itself)
/// wakes a connection's read or write loop. A <see cref="Set"/> with nobody waiting is remembered,
/// so the next <see cref="WaitAsync"/> completes at once.
/// </summary>
/// <remarks>
/// The only state shared across threads is one integer. The waiter's value-task source is touched
/// on the owning I/O thread alone: a setter on another thread queues the completion there, where it
/// runs the continuation inline. So there is no race between registering a continuation and
/// completing it, and nothing is allocated per wake-up.
/// </remarks>
internal sealed class AsyncSignal : IValueTaskSource
{
    private const int Idle = 0;
    private const int Waiting = 1;
    private const int Signaled = 2;

    private static readonly Action<object?> s_complete = static s => ((AsyncSignal)s!)._core.SetResult(true);

    private readonly IoThread _thread;
    private ManualResetValueTaskSourceCore<bool> _core;
    private int _state;

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

        _core.Reset();
        if (Interlocked.CompareExchange(ref _state, Waiting, Idle) != Idle)
        {
            // Set slipped in between the two steps and left Signaled behind.
            Volatile.Write(ref _state, Idle);
            return default;
        }

        return new ValueTask(this, _core.Version);
    }

    /// <summary>Wakes the waiter, or remembers the signal for the next wait. Any thread.</summary>
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
                _thread.Schedule(s_complete, this);
                return;
            }
        }
    }

    void IValueTaskSource.GetResult(short token) => _core.GetResult(token);

    ValueTaskSourceStatus IValueTaskSource.GetStatus(short token) => _core.GetStatus(token);

    void IValueTaskSource.OnCompleted(Action<object?> continuation, object? state, short token, ValueTaskSourceOnCompletedFlags flags)
        => _core.OnCompleted(continuation, state, token, flags);
}
