using System.Collections.Concurrent;
using System.Net.Sockets;
using Managed.Zmq.Internal;

namespace Managed.Zmq.Threading;

/// <summary>
/// One of the Context's I/O threads: a dedicated background thread that runs a reactor. It runs
/// its sockets' handlers, its timers and the work other threads post to it. Every connection is
/// pinned to one I/O thread and all of its code runs here, so a connection needs no locks.
/// </summary>
/// <remarks>
/// <para>Readiness is hybrid. A socket that waits for input is first watched by this thread's own
/// <see cref="System.Net.Sockets.Socket.Select(System.Collections.IList?, System.Collections.IList?, System.Collections.IList?, int)"/>
/// (the "hot" set): its handler then runs inline, with no thread hop, which is what busy
/// connections need. A socket that has waited longer than <see cref="Tuning.Reactor.ParkDelayMilliseconds"/>,
/// or that does not fit in <see cref="Tuning.Reactor.MaxSelectSet"/>, is parked: handed to the
/// runtime's socket engine (epoll, kqueue or IOCP) with a zero-byte receive, which completes when
/// input (or an error, or the end of the stream) arrives, and the completion is posted back here.
/// A wake-up therefore costs O(hot sockets), never O(connections), and idle connections cost
/// nothing while they are idle.</para>
/// <para>The inline path owns its loop rather than awaiting the runtime's completions, which arrive
/// through the thread pool: a completion costs two thread hops there. Only a parked socket's first
/// input after a quiet spell takes that route.</para>
/// <para>No exception ends this thread: a handler that throws is reported through
/// <see cref="Diagnostics.InternalErrors"/>, its socket is forgotten and the handler is told
/// through <see cref="IReadinessHandler.OnFault"/>, which closes that one connection.</para>
/// <para>User code never runs here: user-facing waits are woken through <c>SocketSignal</c>, which
/// only pulses a monitor, and async APIs complete on the thread pool.</para>
/// </remarks>
internal sealed partial class IoThread : IDisposable
{
    [ThreadStatic]
    private static IoThread? t_current;

    private static readonly object s_warmUpLock = new();

    /// <summary>Kept for the life of the process: its pending receive keeps nothing else alive.</summary>
    private static System.Net.Sockets.Socket? s_warmUpSocket;

    private static readonly Action<object?> s_parkCompleted = static s => ((ParkArgs)s!).Owner.OnParkCompleted((ParkArgs)s);

    private readonly ConcurrentQueue<(Action<object?> Callback, object? State)> _work = new();

    private readonly WakeupChannel _wakeup = new();
    private readonly Thread _thread;
    private readonly int _maxSelectSet;
    private readonly int _parkAboveReaders;

    /// <summary>Every socket watched or parked, by socket. I/O thread only; looked up, never iterated.</summary>
    private readonly Dictionary<System.Net.Sockets.Socket, Registration> _registrations = [];

    /// <summary>
    /// The registrations Select may watch: those waiting for input and not parked, and those waiting
    /// for writability (<see cref="Registration.HotIndex"/> is the position). I/O thread only.
    /// </summary>
    private readonly List<Registration> _hot = [];

    /// <summary>Readers whose park found input already there: dispatched after this turn's Select.</summary>
    private readonly List<Registration> _readyNow = [];
    private readonly List<System.Net.Sockets.Socket> _readList = [];
    private readonly List<System.Net.Sockets.Socket> _writeList = [];
    private readonly TimerQueue _timers = new();

    /// <summary>The loop's clock (<see cref="Environment.TickCount64"/>), refreshed before and after each Select.</summary>
    private long _now;

    /// <summary>Registrations in <see cref="_hot"/> waiting for writability.</summary>
    private int _writeWaiters;

    /// <summary>Where the next turn of write waits starts when they do not all fit in one Select.</summary>
    private int _writeRotation;

    private int _parkedCount;
    private int _largestSelectSet;

    /// <summary>1 while the thread is blocked (or about to block) in Select.</summary>
    private int _sleeping;

    private volatile bool _stopping;

    public IoThread(string name)
        : this(name, Tuning.Reactor.MaxSelectSet, Tuning.Reactor.ParkAboveReaders)
    {
    }

    /// <summary>For tests: a reactor with a smaller Select set, or that parks even a single quiet reader.</summary>
    internal IoThread(string name, int maxSelectSet, int parkAboveReaders)
    {
        _maxSelectSet = maxSelectSet;
        _parkAboveReaders = parkAboveReaders;
        _now = Environment.TickCount64;
        WarmUpRuntime();
        _thread = new Thread(Run) { IsBackground = true, Name = name };
        _thread.Start();
    }

    /// <summary>
    /// Makes the runtime create, now, the threads and descriptors a park's completion needs: the
    /// socket engine's event loop and the thread pool's gate thread are otherwise created on first
    /// use, and a first use while the process is out of descriptors (a connection flood) fails to
    /// create them, which the runtime answers by ending the process. Once per process: a zero-byte
    /// receive on an unbound UDP socket, which nothing can ever reach, starts the engine and stays
    /// pending (a socket that carries traffic would wake the engine's thread on each event).
    /// </summary>
    private static void WarmUpRuntime()
    {
        lock (s_warmUpLock)
        {
            if (s_warmUpSocket is not null)
            {
                return;
            }

            System.Threading.ThreadPool.UnsafeQueueUserWorkItem(static _ => { }, null);
            var socket = new System.Net.Sockets.Socket(AddressFamily.InterNetwork, System.Net.Sockets.SocketType.Dgram, ProtocolType.Udp);
            var args = new SocketAsyncEventArgs(unsafeSuppressExecutionContextFlow: true);
            args.SetBuffer(Memory<byte>.Empty);
            try
            {
                if (!socket.ReceiveAsync(args))
                {
                    args.Dispose();
                }
            }
            catch (Exception ex) when (ex is SocketException or InvalidOperationException or NotSupportedException)
            {
                // No engine to start here (the first park then starts it).
                args.Dispose();
            }

            s_warmUpSocket = socket;
        }
    }

    /// <summary>True when called from this I/O thread.</summary>
    public bool IsCurrent => t_current == this;

    /// <summary>Test hook: registrations Select may watch now.</summary>
    internal int HotCount => Volatile.Read(ref _hotCountSnapshot);

    /// <summary>Test hook: sockets parked in the runtime's socket engine now.</summary>
    internal int ParkedCount => Volatile.Read(ref _parkedCount);

    /// <summary>Test hook: the most sockets ever given to one Select (the wake-up channel not counted).</summary>
    internal int LargestSelectSet => Volatile.Read(ref _largestSelectSet);

    /// <summary>Test hook: timers waiting to fire. I/O thread only (a test reads it through <see cref="Schedule"/>).</summary>
    internal int PendingTimers => _timers.Count;

    private int _hotCountSnapshot;

    public void Schedule(Action<object?> action, object? state) => Enqueue(action, state);

    private void Enqueue(Action<object?> callback, object? state)
    {
        _work.Enqueue((callback, state));

        // Pairs with the store-then-recheck before Select: either the thread sees our item, or we see it asleep.
        Interlocked.MemoryBarrier();
        if (Volatile.Read(ref _sleeping) != 0 && Interlocked.Exchange(ref _sleeping, 0) != 0)
        {
            _wakeup.Signal();
        }
    }

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
                // Handlers and work items are guarded one by one; this is the reactor's own bug, and
                // it must still end at most one turn, never the I/O thread (an I/O thread that dies silently stalls every connection it serves).
                Diagnostics.InternalErrors.Report(ex);
            }
        }
    }

    private void RunOnce()
    {
        int executed = 0;
        while (executed < Tuning.Reactor.WorkItemsPerTurn && _work.TryDequeue(out var item))
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
        if (_hot.Count == 0 || timeout != 0)
        {
            for (int i = 0; i < Tuning.Reactor.IdleSpinIterations; i++)
            {
                Thread.SpinWait(Tuning.Reactor.IdleSpinCycles);
                if (!_work.IsEmpty)
                {
                    return;
                }
            }
        }

        _now = Environment.TickCount64;
        int parkWait = BuildSelectSet();
        if (_readyNow.Count > 0)
        {
            timeout = 0;
        }
        else if (parkWait >= 0 && (timeout < 0 || parkWait < timeout))
        {
            timeout = parkWait;
        }

        Volatile.Write(ref _sleeping, 1);
        Interlocked.MemoryBarrier();
        if (!_work.IsEmpty || _stopping)
        {
            Interlocked.Exchange(ref _sleeping, 0);
            DispatchReadyNow();
            return;
        }

        bool selected;
        try
        {
            System.Net.Sockets.Socket.Select(_readList, _writeList.Count > 0 ? _writeList : null, null, timeout < 0 ? -1 : timeout * 1000);
            selected = true;
        }
        catch (Exception ex)
        {
            // A socket closed under us, or one the OS refuses: find it by asking each socket alone.
            if (ex is not (SocketException or ObjectDisposedException))
            {
                Diagnostics.InternalErrors.Report(ex);
            }

            selected = false;
        }

        Interlocked.Exchange(ref _sleeping, 0);
        _now = Environment.TickCount64;
        if (selected)
        {
            Dispatch();
        }
        else
        {
            PollOneByOne();
        }

        DispatchReadyNow();
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

    private static void Execute(Action<object?> callback, object? state)
    {
        try
        {
            callback(state);
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
}
