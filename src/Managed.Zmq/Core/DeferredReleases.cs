namespace Managed.Zmq.Core;

/// <summary>
/// Runs zero-copy free callbacks off the sender's thread, in batches, where a thread is awake anyway.
/// </summary>
/// <remarks>
/// <para>A small zero-copy frame is copied into the queue like any other small frame, so its memory
/// is free as soon as Send has copied it; but the callback must not run inside Send on the caller's
/// thread (issue #4). One thread-pool dispatch per message cost more than the copy saved (a wake-up
/// of an idle thread each time), so callbacks gather here and run in batches: on an I/O thread
/// right after it wrote a batch (<see cref="RunPending"/>), which under load is every few
/// microseconds, or from a one-shot timer when no connection writes (inproc, or a lone message),
/// so a callback waits at most about <see cref="TimerDelayMs"/> ms. When <see cref="BatchSize"/>
/// callbacks wait and no writer has run them (a fast inproc sender), one thread-pool dispatch
/// runs them all, which also bounds the list.</para>
/// <para>Process-wide rather than per socket: callbacks belong to the application, not to a
/// connection, and one list costs each send one uncontended lock.</para>
/// </remarks>
internal sealed class DeferredReleases : IThreadPoolWorkItem
{
    private const int TimerDelayMs = 1;

    private const int BatchSize = 1024;

    private static readonly DeferredReleases s_instance = new();

    private readonly object _lock = new();
    private readonly Timer _timer;
    private Entry[] _pending = new Entry[BatchSize * 2];
    private Entry[] _running = new Entry[BatchSize * 2];
    private int _count;
    private bool _timerArmed;
    private bool _dispatched;

    private DeferredReleases()
    {
        _timer = new Timer(static state => ((DeferredReleases)state!).OnTimer(), this, Timeout.Infinite, Timeout.Infinite);
    }

    /// <summary>Runs <paramref name="callback"/>(<paramref name="data"/>) soon, on an I/O or thread-pool thread.</summary>
    public static void Add(Action<nint> callback, nint data) => s_instance.Enqueue(callback, data);

    /// <summary>Runs the callbacks waiting now, if any; for threads that are not inside a caller's Send.</summary>
    public static void RunPending()
    {
        if (Volatile.Read(ref s_instance._count) != 0)
        {
            s_instance.Drain();
        }
    }

    private void Enqueue(Action<nint> callback, nint data)
    {
        bool arm;
        bool dispatch;
        lock (_lock)
        {
            if (_count == _pending.Length)
            {
                Array.Resize(ref _pending, _pending.Length * 2);
            }

            _pending[_count] = new Entry(callback, data);
            Volatile.Write(ref _count, _count + 1);
            arm = !_timerArmed;
            _timerArmed = true;
            dispatch = _count >= BatchSize && !_dispatched;
            _dispatched |= dispatch;
        }

        if (arm)
        {
            _timer.Change(TimerDelayMs, Timeout.Infinite);
        }

        if (dispatch)
        {
            ThreadPool.UnsafeQueueUserWorkItem(this, preferLocal: false);
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
            _timer.Change(TimerDelayMs, Timeout.Infinite);
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
                _pending = _running.Length >= batch.Length ? _running : new Entry[batch.Length];
                _running = null!;
                Volatile.Write(ref _count, 0);
            }

            for (int i = 0; i < count; i++)
            {
                try
                {
                    batch[i].Callback(batch[i].Data);
                }
                catch
                {
                    // The caller's memory is theirs to manage; a failing callback must not stop the others.
                }

                batch[i] = default;
            }

            lock (_lock)
            {
                _running = batch;
            }
        }
    }

    private readonly record struct Entry(Action<nint> Callback, nint Data);
}
