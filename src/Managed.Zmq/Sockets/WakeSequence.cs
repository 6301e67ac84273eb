using System.Runtime.CompilerServices;

namespace Managed.Zmq.Sockets;

/// <summary>
/// Where a user thread parks until something it waits for may have changed, or a deadline passes: the one
/// lost-wake-up-free wait behind both <see cref="SocketSignal"/> (a blocking Send or Recv) and
/// <c>Polling.ReadinessWaiter</c> (a Poller or a proxy loop).
/// </summary>
/// <remarks>
/// A notifier publishes its state change with a full fence, then calls <see cref="Wake"/>, which reads
/// <see cref="_waiters"/>: while nobody waits, a wake costs one volatile read and takes no lock. A waiter reads the
/// sequence (<see cref="BeginWait"/>), registers as waiting (a full fence), re-checks its condition, and only then
/// sleeps until the sequence moves (<see cref="Wait"/>). Either the waiter sees the change or the notifier sees the
/// waiter, so no wake-up is lost.
/// </remarks>
internal abstract class WakeSequence
{
    /// <summary>Guards <see cref="_sequence"/> changes and is the monitor waiters sleep on.</summary>
    private readonly object _lock = new();

    /// <summary>Bumped by every wake that arrives while a wait is in progress.</summary>
    private int _sequence;

    /// <summary>Threads between <see cref="BeginWait"/> and <see cref="EndWait"/>; the only thing an idle wake reads.</summary>
    private int _waiters;

    /// <summary>True while a thread is between <see cref="BeginWait"/> and <see cref="EndWait"/> (diagnostics and tests).</summary>
    public bool HasWaiters => Volatile.Read(ref _waiters) != 0;

    /// <summary>The monitor behind the waits, for a derived class's own short critical sections.</summary>
    protected object SyncRoot => _lock;

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

    /// <summary>Starts a wait: returns the sequence to pass to <see cref="Wait"/>. Re-check the condition after this.</summary>
    public int BeginWait()
    {
        int sequence = Volatile.Read(ref _sequence);
        Interlocked.Increment(ref _waiters);
        return sequence;
    }

    /// <summary>
    /// Sleeps until a wake newer than <paramref name="sequence"/> or until <paramref name="deadlineTicks"/>
    /// (<see cref="Environment.TickCount64"/>; <see cref="long.MaxValue"/> = never).
    /// </summary>
    /// <returns>false when the deadline passed without a wake.</returns>
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

    /// <summary>Ends a wait begun with <see cref="BeginWait"/>, whether or not it slept.</summary>
    public void EndWait() => Interlocked.Decrement(ref _waiters);

    /// <summary>Wakes every waiter; call after making the state change visible (with a full fence).</summary>
    /// <remarks>Small enough to inline: the common case, nobody waiting, is one volatile read at the call site.</remarks>
    public void Wake()
    {
        if (Volatile.Read(ref _waiters) != 0)
        {
            WakeWaiters();
        }
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private void WakeWaiters()
    {
        lock (_lock)
        {
            _sequence++;
            Monitor.PulseAll(_lock);
        }
    }
}
