using System.Runtime.ExceptionServices;
using Managed.Zmq.Options;
using Managed.Zmq.Security.Zap;
using Managed.Zmq.Internal;

namespace Managed.Zmq.Buffers;

/// <summary>
/// Runs zero-copy free callbacks off the sender's thread, in batches, where a thread is awake anyway.
/// </summary>
/// <remarks>
/// <para>The overflow of the per-thread <see cref="PendingReleaseRing"/>s: callbacks come here only when a
/// thread's ring is full, that is when it has sent many zero-copy messages and released none of them. A
/// released message runs its callback from the ring.</para>
/// <para>A small zero-copy frame is copied into the queue like any other small frame, so its memory
/// is free as soon as Send has copied it; but the callback must not run inside Send on the caller's
/// thread. One thread-pool dispatch per message cost more than the copy saved (a wake-up
/// of an idle thread each time), so overflowing callbacks gather here and run in batches: on an I/O thread
/// right after it wrote a batch (<see cref="RunPending"/>), which under load is every few
/// microseconds, or from a one-shot timer when no connection writes (inproc, or a lone message),
/// so a callback waits at most about <see cref="Tuning.Releases.TickMilliseconds"/> ms. When <see cref="Tuning.Releases.DeferredBatchSize"/>
/// callbacks wait and no writer has run them (a fast inproc sender), one thread-pool dispatch
/// runs them all.</para>
/// <para>The list has a fixed capacity (<see cref="Tuning.Releases.DeferredCapacity"/>): a blocking sender that finds it
/// full waits for a drainer to take the batch, as a sender at its HWM waits for the peer, so
/// memory stays bounded when the senders outrun the drain and nothing is allocated after start-up.
/// A sender that must not block (DontWait, the async extensions) hands that one callback to the
/// thread pool instead, which allocates, but only while the list is full.</para>
/// <para>A free callback must not block: it runs on a thread that other senders may be waiting on.</para>
/// <para>Process-wide rather than per socket: callbacks belong to the application, not to a
/// connection, and the list is only the rings' overflow.</para>
/// </remarks>
internal sealed class DeferredReleases : IThreadPoolWorkItem
{
    private static readonly DeferredReleases s_instance = new();

    /// <summary>Set while this thread runs a batch: a callback that sends must not wait for a drain of itself.</summary>
    [ThreadStatic]
    private static bool t_draining;

    private readonly object _lock = new();
    private readonly Timer _timer;
    private Entry[] _pending = new Entry[Tuning.Releases.DeferredCapacity];
    private Entry[] _running = new Entry[Tuning.Releases.DeferredCapacity];
    private int _count;

    private int _waitingSenders;
    private bool _timerArmed;
    private bool _dispatched;

    private DeferredReleases()
    {
        // A process-wide timer must not capture the ExecutionContext of whichever caller happened to create it.
        using (ExecutionContext.SuppressFlow())
        {
            _timer = new Timer(static state => ((DeferredReleases)state!).OnTimer(), this, Timeout.Infinite, Timeout.Infinite);
        }
    }

    /// <summary>Runs <paramref name="callback"/>(<paramref name="data"/>) soon, on an I/O or thread-pool thread.</summary>
    /// <param name="callback">The zero-copy message's free callback.</param>
    /// <param name="data">Its argument: the message's memory.</param>
    /// <param name="mayWait">Whether the caller may wait when the list is full (a blocking send); otherwise the callback goes to the thread pool.</param>
    public static void Add(Action<nint> callback, nint data, bool mayWait) => s_instance.Enqueue(callback, data, mayWait);

    /// <summary>True while callbacks wait to run.</summary>
    public static bool HasPending => Volatile.Read(ref s_instance._count) != 0;

    /// <summary>Runs the callbacks waiting now, if any; for threads that are not inside a caller's Send.</summary>
    public static void RunPending()
    {
        if (Volatile.Read(ref s_instance._count) != 0)
        {
            s_instance.Drain();
        }
    }

    private void Enqueue(Action<nint> callback, nint data, bool mayWait)
    {
        bool runHere = false;
        bool toThreadPool = false;
        bool arm = false;
        bool dispatch = false;
        ExceptionDispatchInfo? interrupted = null;
        lock (_lock)
        {
            if (_count == _pending.Length && t_draining)
            {
                // A callback that sends a zero-copy frame while the list is full: this thread is the
                // only drainer now, so waiting would never end. It is not a caller's Send: run it here.
                runHere = true;
            }
            else if (_count == _pending.Length && !mayWait)
            {
                toThreadPool = true;
            }
            else
            {
                try
                {
                    WaitForRoom();
                }
                catch (ThreadInterruptedException ex)
                {
                    // The callback must still run once: the thread pool takes it, and the interrupt goes on.
                    interrupted = ExceptionDispatchInfo.Capture(ex);
                    toThreadPool = true;
                }

                if (interrupted is null)
                {
                    _pending[_count] = new Entry(callback, data);
                    Volatile.Write(ref _count, _count + 1);
                    arm = !_timerArmed;
                    _timerArmed = true;
                    dispatch = _count >= Tuning.Releases.DeferredBatchSize && !_dispatched;
                    _dispatched |= dispatch;
                }
            }
        }

        if (runHere)
        {
            RunOne(callback, data);
        }

        if (toThreadPool)
        {
            ThreadPool.UnsafeQueueUserWorkItem(static state => RunOne(state.Callback, state.Data), new Entry(callback, data), preferLocal: false);
        }

        if (arm)
        {
            _timer.Change(Tuning.Releases.TickMilliseconds, Timeout.Infinite);
        }

        if (dispatch)
        {
            ThreadPool.UnsafeQueueUserWorkItem(this, preferLocal: false);
        }

        interrupted?.Throw();
    }

    /// <summary>Under the lock: while the list is full, makes sure a drain is on its way and waits for it.</summary>
    private void WaitForRoom()
    {
        while (_count == _pending.Length)
        {
            if (!_dispatched)
            {
                _dispatched = true;
                ThreadPool.UnsafeQueueUserWorkItem(this, preferLocal: false);
            }

            _waitingSenders++;
            try
            {
                Monitor.Wait(_lock);
            }
            finally
            {
                _waitingSenders--;
            }
        }
    }

    void IThreadPoolWorkItem.Execute()
    {
        lock (_lock)
        {
            _dispatched = false;
        }

        Drain();
    }

    private void OnTimer()
    {
        Drain();
        bool rearm;
        lock (_lock)
        {
            rearm = _count > 0;
            _timerArmed = rearm;
        }

        if (rearm)
        {
            _timer.Change(Tuning.Releases.TickMilliseconds, Timeout.Infinite);
        }
    }

    private void Drain()
    {
        while (true)
        {
            Entry[] batch;
            int count;
            lock (_lock)
            {
                if (_count == 0 || _running is null)
                {
                    // Empty, or another thread is running a batch: it loops until the list is empty.
                    return;
                }

                // Swap the lists: senders keep appending while this batch runs.
                batch = _pending;
                count = _count;
                _pending = _running;
                _running = null!;
                Volatile.Write(ref _count, 0);
                if (_waitingSenders != 0)
                {
                    Monitor.PulseAll(_lock);
                }
            }

            t_draining = true;
            for (int i = 0; i < count; i++)
            {
                RunOne(batch[i].Callback, batch[i].Data);
                batch[i] = default;
            }

            t_draining = false;

            lock (_lock)
            {
                _running = batch;
            }
        }
    }

    /// <summary>Runs one free callback; what it throws is swallowed.</summary>
    internal static void RunOne(Action<nint> callback, nint data)
    {
        try
        {
            callback(data);
        }
        catch
        {
            // The caller's memory is theirs to manage; a failing callback must not stop the others.
        }
    }

    private readonly record struct Entry(Action<nint> Callback, nint Data);
}
