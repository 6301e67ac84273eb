using System.Collections.Concurrent;
using System.IO.Pipelines;
using System.Net.Sockets;

namespace Managed.Zmq.Threading;

/// <summary>
/// One of the Context's I/O threads: a dedicated background thread that runs a reactor. It waits
/// for its sockets with <see cref="System.Net.Sockets.Socket.Select(System.Collections.IList?, System.Collections.IList?, System.Collections.IList?, int)"/>,
/// runs their handlers, its timers and the work other threads post to it. Every connection is
/// pinned to one I/O thread and all of its code runs here, so a connection needs no locks.
/// </summary>
/// <remarks>
/// <para>It owns its readiness loop rather than awaiting the runtime's socket completions, which
/// arrive through the thread pool: a completion then costs two thread hops, and an application that
/// starves the thread pool would stall every connection. Here a completion runs its continuation
/// inline, and nothing the I/O path needs depends on the thread pool.</para>
/// <para>User code never runs here: user-facing waits are woken through <c>SocketSignal</c>, which
/// only pulses a monitor, and async APIs complete on the thread pool.</para>
/// </remarks>
internal sealed class IoThread : PipeScheduler, IDisposable
{
    /// <summary>
    /// Idle polls before blocking in Select (each <see cref="SpinCycles"/> pause instructions): a couple
    /// of microseconds. More costs latency between processes on small machines, where a spinning I/O
    /// thread takes the core the other side needs (cross-process REQ/REP: 16 polls 50 us, 0-4 polls 37-41 us).
    /// </summary>
    private const int SpinIterations = 4;
    private const int SpinCycles = 10;

    [ThreadStatic]
    private static IoThread? t_current;

    /// <remarks>The callback is an <see cref="Action{T}"/> or a <see cref="SendOrPostCallback"/>, stored as is so posting never boxes.</remarks>
    private readonly ConcurrentQueue<(Delegate Callback, object? State)> _work = new();

    private readonly WakeupChannel _wakeup = new();
    private readonly Thread _thread;

    /// <summary>Sockets watched, with what they wait for. I/O thread only.</summary>
    private readonly Dictionary<System.Net.Sockets.Socket, Registration> _registrations = [];
    private readonly List<System.Net.Sockets.Socket> _readList = [];
    private readonly List<System.Net.Sockets.Socket> _writeList = [];
    private readonly TimerQueue _timers = new();

    /// <summary>1 while the thread is blocked (or about to block) in Select.</summary>
    private int _sleeping;

    private volatile bool _stopping;

    public IoThread(string name)
    {
        _thread = new Thread(Run) { IsBackground = true, Name = name };
        _thread.Start();
    }

    /// <summary>True when called from this I/O thread.</summary>
    public bool IsCurrent => t_current == this;

    public override void Schedule(Action<object?> action, object? state) => Enqueue(action, state);

    /// <summary>Queues a posted continuation without wrapping it.</summary>
    public void Post(SendOrPostCallback callback, object? state) => Enqueue(callback, state);

    private void Enqueue(Delegate callback, object? state)
    {
        _work.Enqueue((callback, state));

        // Pairs with the store-then-recheck before Select: either the thread sees our item, or we see it asleep.
        Interlocked.MemoryBarrier();
        if (Volatile.Read(ref _sleeping) != 0 && Interlocked.Exchange(ref _sleeping, 0) != 0)
        {
            _wakeup.Signal();
        }
    }

    // ------------------------------------------------------------ readiness (I/O thread only)

    /// <summary>Calls <paramref name="handler"/>.OnReadable once <paramref name="socket"/> is readable.</summary>
    public void WatchRead(System.Net.Sockets.Socket socket, IReadinessHandler handler) => Watch(socket, handler, read: true);

    /// <summary>Calls <paramref name="handler"/>.OnWritable once <paramref name="socket"/> is writable.</summary>
    public void WatchWrite(System.Net.Sockets.Socket socket, IReadinessHandler handler) => Watch(socket, handler, read: false);

    private void Watch(System.Net.Sockets.Socket socket, IReadinessHandler handler, bool read)
    {
        if (!_registrations.TryGetValue(socket, out var registration) || registration.Handler != handler)
        {
            // A socket changes hands once: from its connecter to its connection's transport.
            registration = new Registration(handler);
            _registrations[socket] = registration;
        }

        if (read)
        {
            registration.WantsRead = true;
        }
        else
        {
            registration.WantsWrite = true;
        }
    }

    /// <summary>Stops watching <paramref name="socket"/>; call before disposing it.</summary>
    public void Forget(System.Net.Sockets.Socket socket) => _registrations.Remove(socket);

    // ------------------------------------------------------------ timers

    /// <summary>Runs <paramref name="callback"/> on this thread after <paramref name="milliseconds"/>. I/O thread only.</summary>
    public ReactorTimer AddTimer(int milliseconds, Action<object?> callback, object? state)
    {
        return _timers.Add(Environment.TickCount64 + Math.Max(0, milliseconds), callback, state);
    }

    // ------------------------------------------------------------ the loop

    private void Run()
    {
        t_current = this;
        while (!_stopping)
        {
            try
            {
                RunOnce();
            }
            catch (Exception ex)
            {
                // An engine bug must end at most one connection, never the I/O thread (USER-PAIN: NetMQ #371).
                Diagnostics.InternalErrors.Report(ex);
            }
        }
    }

    private void RunOnce()
    {
        int executed = 0;
        while (executed < 1024 && _work.TryDequeue(out var item))
        {
            Execute(item.Callback, item.State);
            executed++;
        }

        int timeout = RunDueTimers();
        if (!_work.IsEmpty)
        {
            return;
        }

        // Spin a little before blocking: a busy connection usually has its next wake-up within
        // microseconds, and blocking and waking cost more than that.
        if (_registrations.Count == 0 || timeout != 0)
        {
            for (int i = 0; i < SpinIterations; i++)
            {
                Thread.SpinWait(SpinCycles);
                if (!_work.IsEmpty)
                {
                    return;
                }
            }
        }

        _readList.Clear();
        _writeList.Clear();
        _readList.Add(_wakeup.Reader);
        foreach (var (socket, registration) in _registrations)
        {
            if (registration.WantsRead)
            {
                _readList.Add(socket);
            }

            if (registration.WantsWrite)
            {
                _writeList.Add(socket);
            }
        }

        Volatile.Write(ref _sleeping, 1);
        Interlocked.MemoryBarrier();
        if (!_work.IsEmpty || _stopping)
        {
            Interlocked.Exchange(ref _sleeping, 0);
            return;
        }

        try
        {
            System.Net.Sockets.Socket.Select(_readList, _writeList.Count > 0 ? _writeList : null, null, timeout < 0 ? -1 : timeout * 1000);
        }
        catch (SocketException)
        {
            // A watched socket failed in a way Select reports as an error: its handler finds out on its next operation.
            _readList.Clear();
            _writeList.Clear();
            WakeEveryone();
        }
        catch (ObjectDisposedException)
        {
            _readList.Clear();
            _writeList.Clear();
            WakeEveryone();
        }

        Interlocked.Exchange(ref _sleeping, 0);
        Dispatch();
    }

    private void Dispatch()
    {
        foreach (var socket in _readList)
        {
            if (socket == _wakeup.Reader)
            {
                _wakeup.Drain();
                continue;
            }

            if (_registrations.TryGetValue(socket, out var registration) && registration.WantsRead)
            {
                registration.WantsRead = false;
                registration.Handler.OnReadable();
            }
        }

        foreach (var socket in _writeList)
        {
            if (_registrations.TryGetValue(socket, out var registration) && registration.WantsWrite)
            {
                registration.WantsWrite = false;
                registration.Handler.OnWritable();
            }
        }
    }

    /// <summary>After a Select failure, lets every waiter retry its operation and see its own error.</summary>
    private void WakeEveryone()
    {
        foreach (var registration in _registrations.Values.ToArray())
        {
            if (registration.WantsRead)
            {
                registration.WantsRead = false;
                registration.Handler.OnReadable();
            }

            if (registration.WantsWrite)
            {
                registration.WantsWrite = false;
                registration.Handler.OnWritable();
            }
        }
    }

    /// <summary>Runs the timers that are due; returns milliseconds until the next one, or -1 for none.</summary>
    private int RunDueTimers()
    {
        while (_timers.TryPeekDue(out long due))
        {
            long now = Environment.TickCount64;
            if (due > now)
            {
                return (int)Math.Min(due - now, int.MaxValue);
            }

            if (_timers.TryDequeueDue(now) is { } timer && timer.TryTakeCallback(out var callback, out object? state))
            {
                Execute(callback, state);
            }
        }

        return -1;
    }

    private static void Execute(Delegate callback, object? state)
    {
        try
        {
            if (callback is Action<object?> action)
            {
                action(state);
            }
            else
            {
                ((SendOrPostCallback)callback)(state);
            }
        }
        catch (Exception ex)
        {
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
            _wakeup.Dispose();
        }
    }

    private sealed class Registration(IReadinessHandler handler)
    {
        public IReadinessHandler Handler { get; } = handler;

        public bool WantsRead { get; set; }

        public bool WantsWrite { get; set; }
    }
}
