using System.Collections.Concurrent;
using System.IO.Pipelines;

namespace Managed.Zmq.Threading;

/// <summary>
/// One of the Context's I/O threads: a dedicated background thread draining a queue of work items.
/// Every connection is pinned to one I/O thread and all of its code (handshake, read loop, write
/// loop, timers) runs here, so a connection's engine state needs no locks.
/// </summary>
/// <remarks>
/// Async methods started on this thread resume here because the thread installs an
/// <see cref="IoSynchronizationContext"/>: socket completions, timers and signals from user threads
/// all come back as posted work items. User code never runs here: user-facing waits are woken
/// through <c>SocketSignal</c>, which only pulses a monitor.
/// </remarks>
internal sealed class IoThread : PipeScheduler, IDisposable
{
    [ThreadStatic]
    private static IoThread? t_current;

    /// <summary>Pending work; value tuples so an enqueue allocates nothing in steady state.</summary>
    private readonly ConcurrentQueue<(Action<object?> Action, object? State)> _work = new();

    /// <summary>Parks the thread when there is no work.</summary>
    private readonly SemaphoreSlim _wake = new(0, int.MaxValue);

    private readonly Thread _thread;

    /// <summary>1 while the thread is parked (or about to park) on <see cref="_wake"/>.</summary>
    private int _sleeping;

    private volatile bool _stopping;

    public IoThread(string name)
    {
        SynchronizationContext = new IoSynchronizationContext(this);
        _thread = new Thread(Run) { IsBackground = true, Name = name };
        _thread.Start();
    }

    /// <summary>The context that makes awaits on this thread resume on it.</summary>
    public IoSynchronizationContext SynchronizationContext { get; }

    /// <summary>True when called from this I/O thread.</summary>
    public bool IsCurrent => t_current == this;

    /// <summary>True when called from any I/O thread of any context.</summary>
    public static bool IsOnAnyIoThread => t_current is not null;

    public override void Schedule(Action<object?> action, object? state)
    {
        _work.Enqueue((action, state));
        // Pairs with the store-then-recheck in Run: either the thread sees our item, or we see it asleep.
        Interlocked.MemoryBarrier();
        if (Volatile.Read(ref _sleeping) != 0 && Interlocked.Exchange(ref _sleeping, 0) != 0)
        {
            _wake.Release();
        }
    }

    private void Run()
    {
        t_current = this;
        System.Threading.SynchronizationContext.SetSynchronizationContext(SynchronizationContext);
        while (!_stopping)
        {
            if (_work.TryDequeue(out var item))
            {
                Execute(item.Action, item.State);
                continue;
            }

            // Spin a little before parking: a busy connection usually has its next completion
            // within microseconds, and a park/unpark round trip costs more than that.
            bool found = false;
            for (int i = 0; i < 64 && !found; i++)
            {
                Thread.SpinWait(20);
                found = !_work.IsEmpty;
            }

            if (found)
            {
                continue;
            }

            Volatile.Write(ref _sleeping, 1);
            Interlocked.MemoryBarrier();
            if (!_work.IsEmpty || _stopping)
            {
                if (Interlocked.Exchange(ref _sleeping, 0) == 0)
                {
                    // A producer already released the semaphore for us: consume that permit.
                    _wake.Wait();
                }

                continue;
            }

            _wake.Wait();
        }
    }

    private static void Execute(Action<object?> action, object? state)
    {
        try
        {
            action(state);
        }
        catch (Exception ex)
        {
            // An engine bug must end at most one connection, never the I/O thread (USER-PAIN: NetMQ #371).
            Diagnostics.InternalErrors.Report(ex);
        }
    }

    public void Dispose()
    {
        _stopping = true;
        Schedule(static _ => { }, null);
        if (!IsCurrent)
        {
            _thread.Join(TimeSpan.FromSeconds(5));
        }
    }
}
