using Managed.Zmq.Inproc;

namespace Managed.Zmq.Sockets;

/// <summary>
/// Wakes a user thread parked in a blocking Send or Recv (and, through listeners,
/// pollers) when something about the socket may have changed: data arrived, HWM room freed,
/// a peer attached, the context terminated.
/// </summary>
/// <remarks>
/// Notifiers publish their state change with a full fence, then look at <see cref="_parked"/>:
/// when nobody is parked, a notification costs one volatile read and no lock. A waiter reads the
/// sequence, registers as parked (a full fence), re-checks its condition, and only then sleeps
/// until the sequence moves. Either the waiter sees the change or the notifier sees the waiter.
/// </remarks>
internal sealed class SocketSignal : IPeerSignal
{
    private readonly object _lock = new();
    private int _sequence;
    private int _parked;

    /// <summary>
    /// Pollers and async waiters watching this socket. Invoked on every notification while
    /// registered, from whichever thread notifies (an I/O thread or a peer's user thread), so a
    /// listener must be short and must not block: set a flag, release a waiter.
    /// </summary>
    private Action? _listeners;

    public void AddListener(Action listener)
    {
        lock (_lock)
        {
            Volatile.Write(ref _listeners, (Action?)Delegate.Combine(_listeners, listener));
        }
    }

    public void RemoveListener(Action listener)
    {
        lock (_lock)
        {
            Volatile.Write(ref _listeners, (Action?)Delegate.Remove(_listeners, listener));
        }
    }

    /// <summary>Called after the caller made a state change visible (with a full fence).</summary>
    public void Notify()
    {
        if (Volatile.Read(ref _parked) != 0)
        {
            lock (_lock)
            {
                _sequence++;
                Monitor.PulseAll(_lock);
            }
        }

        Volatile.Read(ref _listeners)?.Invoke();
    }

    /// <summary>Starts a wait: returns the sequence to pass to <see cref="Wait"/>. Re-check the condition after this.</summary>
    public int BeginWait()
    {
        int sequence = Volatile.Read(ref _sequence);
        Interlocked.Increment(ref _parked);
        return sequence;
    }

    /// <summary>Sleeps until a notification newer than <paramref name="sequence"/> or the deadline; false on timeout.</summary>
    public bool Wait(int sequence, long deadlineTicks)
    {
        lock (_lock)
        {
            while (_sequence == sequence)
            {
                int timeout = Timeout.Infinite;
                if (deadlineTicks != long.MaxValue)
                {
                    long remaining = deadlineTicks - Environment.TickCount64;
                    if (remaining <= 0)
                    {
                        return false;
                    }

                    timeout = (int)Math.Min(remaining, int.MaxValue);
                }

                Monitor.Wait(_lock, timeout);
            }

            return true;
        }
    }

    public void EndWait() => Interlocked.Decrement(ref _parked);
}
