using Managed.Zmq.Endpoints;

namespace Managed.Zmq.Polling;

/// <summary>
/// Parks one thread (a <see cref="Poller"/> or a proxy loop) until any socket it listens to is
/// notified, or a deadline passes. One instance serves any number of sockets: <see cref="Listener"/>
/// is added to each socket's signal.
/// </summary>
/// <remarks>
/// Same handshake as <c>SocketSignal</c>: the waiter reads the sequence, raises <see cref="_waiting"/>
/// with a full fence, re-checks readiness, and only then sleeps until the sequence moves. A notifier
/// publishes its state change with a full fence before the listener runs and reads the flag. Either
/// the waiter sees the change or the notifier sees the waiter, so no wake-up is lost. While nobody
/// waits, a notification costs one volatile read: a busy socket feeding a poller that is busy
/// elsewhere takes no lock.
/// </remarks>
internal sealed class ReadinessWaiter
{
    /// <summary>Guards <see cref="_sequence"/> changes and is the monitor the waiter sleeps on.</summary>
    private readonly object _lock = new();

    /// <summary>Bumped by every notification that arrives while a wait is in progress.</summary>
    private int _sequence;

    /// <summary>1 between <see cref="BeginWait"/> and <see cref="EndWait"/>; the only thing an idle notification reads.</summary>
    private int _waiting;

    public ReadinessWaiter()
    {
        Listener = OnNotified;
    }

    /// <summary>The delegate to add to (and later remove from) each watched socket's signal.</summary>
    public Action Listener { get; }

    /// <summary>Starts a wait: returns the sequence to pass to <see cref="Wait"/>. Re-check readiness after this.</summary>
    public int BeginWait()
    {
        int sequence = Volatile.Read(ref _sequence);
        Interlocked.Exchange(ref _waiting, 1);
        return sequence;
    }

    /// <summary>
    /// Sleeps until a notification newer than <paramref name="sequence"/> or until
    /// <paramref name="deadlineTicks"/> (<see cref="Environment.TickCount64"/>; <see cref="long.MaxValue"/> = never).
    /// </summary>
    /// <returns>false when the deadline passed without a notification.</returns>
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

    public void EndWait() => Volatile.Write(ref _waiting, 0);

    /// <summary>Converts a relative timeout in ms (negative = infinite) into a deadline for <see cref="Wait"/>.</summary>
    public static long DeadlineFromTimeout(long timeoutMilliseconds)
    {
        if (timeoutMilliseconds < 0)
        {
            return long.MaxValue;
        }

        long now = Environment.TickCount64;
        return timeoutMilliseconds >= long.MaxValue - now ? long.MaxValue : now + timeoutMilliseconds;
    }

    /// <summary>Runs on whichever thread notifies a watched socket: must stay tiny and never block for long.</summary>
    private void OnNotified()
    {
        if (Volatile.Read(ref _waiting) == 0)
        {
            return;
        }

        lock (_lock)
        {
            _sequence++;

            // A single thread ever waits here (Poller and Proxy are single-threaded by contract).
            Monitor.Pulse(_lock);
        }
    }
}
