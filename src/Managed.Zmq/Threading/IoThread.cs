using System.Collections.Concurrent;
using System.IO.Pipelines;
using System.Net.Sockets;

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
/// connections need. A socket that has waited longer than <see cref="ReactorPolicy.ParkDelayMilliseconds"/>,
/// or that does not fit in <see cref="ReactorPolicy.MaxSelectSet"/>, is parked: handed to the
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

    private static readonly object s_warmUpLock = new();

    /// <summary>Kept for the life of the process: its pending receive keeps nothing else alive.</summary>
    private static System.Net.Sockets.Socket? s_warmUpSocket;

    private static readonly Action<object?> s_parkCompleted = static s => ((ParkArgs)s!).Owner.OnParkCompleted((ParkArgs)s);

    /// <remarks>The callback is an <see cref="Action{T}"/> or a <see cref="SendOrPostCallback"/>, stored as is so posting never boxes.</remarks>
    private readonly ConcurrentQueue<(Delegate Callback, object? State)> _work = new();

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
        : this(name, ReactorPolicy.MaxSelectSet, ReactorPolicy.ParkAboveReaders)
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

    private int _hotCountSnapshot;

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

    /// <summary>
    /// Calls <paramref name="handler"/>.OnReadable once <paramref name="socket"/> is readable (or has
    /// an error or end of stream to report). A connected stream socket may be parked while it waits;
    /// until OnReadable runs, its owner must not receive from it.
    /// </summary>
    /// <param name="socket">The socket.</param>
    /// <param name="handler">Who to call.</param>
    /// <param name="mayPark">False for a socket a zero-byte receive cannot wait on (a listener): it stays in Select.</param>
    public void WatchRead(System.Net.Sockets.Socket socket, IReadinessHandler handler, bool mayPark = true)
    {
        var registration = Register(socket, handler);
        registration.MayPark = mayPark;
        if (!registration.WantsRead)
        {
            registration.WantsRead = true;
            registration.ReadSince = _now;
            UpdateHot(registration);
        }
    }

    /// <summary>Calls <paramref name="handler"/>.OnWritable once <paramref name="socket"/> is writable.</summary>
    public void WatchWrite(System.Net.Sockets.Socket socket, IReadinessHandler handler)
    {
        var registration = Register(socket, handler);
        registration.WantsWrite = true;
        UpdateHot(registration);
    }

    private Registration Register(System.Net.Sockets.Socket socket, IReadinessHandler handler)
    {
        if (!_registrations.TryGetValue(socket, out var registration))
        {
            registration = new Registration(socket, handler);
            _registrations[socket] = registration;
        }
        else if (registration.Handler != handler)
        {
            // A socket changes hands once: from its connecter (which only waits to write) to its
            // connection's transport. What it waited for belonged to the old owner.
            registration.Handler = handler;
            registration.WantsWrite = false;
            if (!registration.Parked)
            {
                registration.WantsRead = false;
            }

            UpdateHot(registration);
        }

        return registration;
    }

    /// <summary>Stops watching <paramref name="socket"/>; call before disposing it. A pending park then completes unheard.</summary>
    public void Forget(System.Net.Sockets.Socket socket)
    {
        if (_registrations.Remove(socket, out var registration))
        {
            Retire(registration);
        }
    }

    private void Retire(Registration registration)
    {
        registration.Forgotten = true;
        registration.WantsRead = false;
        registration.WantsWrite = false;
        UpdateHot(registration);
        if (!registration.Parked)
        {
            // A parked one's arguments are still in the engine's hands: its completion disposes them.
            registration.Park?.Dispose();
        }
    }

    /// <summary>Keeps <see cref="_hot"/> = registrations that wait for input unparked, or wait for writability.</summary>
    private void UpdateHot(Registration registration)
    {
        bool hot = (registration.WantsRead && !registration.Parked) || registration.WantsWrite;
        if (hot == (registration.HotIndex >= 0))
        {
            if (hot && registration.WantsWrite != registration.CountedAsWriter)
            {
                CountWriter(registration);
            }

            return;
        }

        if (hot)
        {
            registration.HotIndex = _hot.Count;
            _hot.Add(registration);
        }
        else
        {
            // Swap with the last: O(1), and the order of the rest does not matter.
            int index = registration.HotIndex;
            var last = _hot[^1];
            _hot[index] = last;
            last.HotIndex = index;
            _hot.RemoveAt(_hot.Count - 1);
            registration.HotIndex = -1;
        }

        CountWriter(registration);
    }

    private void CountWriter(Registration registration)
    {
        bool counts = registration.HotIndex >= 0 && registration.WantsWrite;
        if (counts != registration.CountedAsWriter)
        {
            registration.CountedAsWriter = counts;
            _writeWaiters += counts ? 1 : -1;
        }
    }

    // ------------------------------------------------------------ parking

    /// <summary>Hands a waiting reader to the runtime's socket engine; false when input is already there.</summary>
    private bool TryPark(Registration registration)
    {
        var args = registration.Park ??= new ParkArgs(this, registration);
        bool pending;
        try
        {
            // A zero-byte receive completes when input, an error or the end of the stream arrives
            // (the runtime peeks one byte where a plain zero-byte read would complete at once).
            pending = registration.Socket.ReceiveAsync(args);
        }
        catch (Exception ex) when (ex is ObjectDisposedException or SocketException or InvalidOperationException or NotSupportedException)
        {
            // Closed under us, or a socket the engine cannot wait on: let the handler look, and keep it in Select from now on.
            registration.MayPark = false;
            pending = false;
        }

        if (!pending)
        {
            return false;
        }

        registration.Parked = true;
        Volatile.Write(ref _parkedCount, _parkedCount + 1);
        UpdateHot(registration);
        return true;
    }

    /// <summary>A park's zero-byte receive finished: the socket has input, an error, or is at its end.</summary>
    private void OnParkCompleted(ParkArgs args)
    {
        var registration = args.Registration;
        registration.Parked = false;
        Volatile.Write(ref _parkedCount, _parkedCount - 1);
        if (registration.Forgotten)
        {
            args.Dispose();
            return;
        }

        if (args.SocketError is not (SocketError.Success or SocketError.WouldBlock or SocketError.OperationAborted or SocketError.Interrupted))
        {
            // Not every socket can be waited on this way (the handler still hears about real errors from its own receive).
            registration.MayPark = false;
        }

        if (!registration.WantsRead)
        {
            UpdateHot(registration);
            return;
        }

        registration.WantsRead = false;
        UpdateHot(registration);
        Invoke(registration, read: true);
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
        if (_hot.Count == 0 || timeout != 0)
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

    /// <summary>
    /// Fills the Select lists from the hot set, parking readers that waited too long or do not fit;
    /// returns milliseconds until the next park deadline, or -1 for none.
    /// </summary>
    private int BuildSelectSet()
    {
        _readList.Clear();
        _writeList.Clear();
        _readyNow.Clear();
        _readList.Add(_wakeup.Reader);

        long now = _now;
        long nextPark = long.MaxValue;
        int readRoom = _maxSelectSet - Math.Min(_writeWaiters, _maxSelectSet);
        int selected = 0;
        int readers = 0;
        foreach (var registration in _hot)
        {
            if (registration.WantsRead && !registration.Parked)
            {
                readers++;
            }
        }

        // Backwards, so a registration that leaves the hot set swaps in one already seen; the newest
        // waiters sit at the end and keep their place in Select, the oldest are parked first.
        for (int i = _hot.Count - 1; i >= 0; i--)
        {
            var registration = _hot[i];
            if (!registration.WantsRead || registration.Parked)
            {
                continue;
            }

            bool tooLong = now - registration.ReadSince >= ReactorPolicy.ParkDelayMilliseconds && readers > _parkAboveReaders;
            bool noRoom = _readList.Count - 1 >= readRoom;
            if (registration.MayPark && (tooLong || noRoom))
            {
                readers--;
                if (!TryPark(registration))
                {
                    _readyNow.Add(registration);
                }

                continue;
            }

            _readList.Add(registration.Socket);
            if (registration.MayPark && readers > _parkAboveReaders)
            {
                nextPark = Math.Min(nextPark, registration.ReadSince + ReactorPolicy.ParkDelayMilliseconds);
            }
        }

        selected = _readList.Count - 1;
        int wait = -1;
        if (_writeWaiters > 0)
        {
            int writeRoom = Math.Max(0, _maxSelectSet - selected);
            int count = _hot.Count;
            int start = (int)((uint)_writeRotation % (uint)count);
            for (int k = 0; k < count && _writeList.Count < writeRoom; k++)
            {
                var registration = _hot[(start + k) % count];
                if (registration.WantsWrite)
                {
                    _writeList.Add(registration.Socket);
                }
            }

            if (_writeList.Count < _writeWaiters)
            {
                // Not all fit: the others get their turn after a short wait.
                _writeRotation = start + writeRoom;
                wait = ReactorPolicy.WriteRotationMilliseconds;
            }
        }

        selected += _writeList.Count;
        if (selected > _largestSelectSet)
        {
            Volatile.Write(ref _largestSelectSet, selected);
        }

        Volatile.Write(ref _hotCountSnapshot, _hot.Count);
        if (nextPark != long.MaxValue)
        {
            int parkWait = (int)Math.Clamp(nextPark - now, ReactorPolicy.ParkCheckMinimumMilliseconds, int.MaxValue);
            wait = wait < 0 ? parkWait : Math.Min(wait, parkWait);
        }

        return wait;
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

            if (_registrations.TryGetValue(socket, out var registration) && registration.WantsRead && !registration.Parked)
            {
                registration.WantsRead = false;
                UpdateHot(registration);
                Invoke(registration, read: true);
            }
        }

        foreach (var socket in _writeList)
        {
            if (_registrations.TryGetValue(socket, out var registration) && registration.WantsWrite)
            {
                registration.WantsWrite = false;
                UpdateHot(registration);
                Invoke(registration, read: false);
            }
        }
    }

    private void DispatchReadyNow()
    {
        for (int i = 0; i < _readyNow.Count; i++)
        {
            var registration = _readyNow[i];
            if (!registration.Forgotten && registration.WantsRead && !registration.Parked)
            {
                registration.WantsRead = false;
                UpdateHot(registration);
                Invoke(registration, read: true);
            }
        }

        _readyNow.Clear();
    }

    /// <summary>
    /// After a Select failure: asks each socket of the hot set alone. One that fails on its own is
    /// forgotten and its handler told (so one bad socket cannot make every turn fail); the others
    /// are dispatched as Select would have.
    /// </summary>
    private void PollOneByOne()
    {
        _wakeup.Drain();
        var hot = _hot.ToArray();
        foreach (var registration in hot)
        {
            if (registration.Forgotten)
            {
                continue;
            }

            bool readable;
            bool writable;
            try
            {
                readable = registration.WantsRead && !registration.Parked && registration.Socket.Poll(0, SelectMode.SelectRead);
                writable = registration.WantsWrite && registration.Socket.Poll(0, SelectMode.SelectWrite);
            }
            catch (Exception ex)
            {
                // Disposed by its owner without Forget (its Forget may be on the way): not a bug worth a report.
                Fault(registration, ex, report: ex is not ObjectDisposedException);
                continue;
            }

            if (readable)
            {
                registration.WantsRead = false;
                UpdateHot(registration);
                Invoke(registration, read: true);
            }

            if (writable && !registration.Forgotten && registration.WantsWrite)
            {
                registration.WantsWrite = false;
                UpdateHot(registration);
                Invoke(registration, read: false);
            }
        }
    }

    /// <summary>Runs a handler; whatever it throws ends its own socket's registration, never this thread.</summary>
    private void Invoke(Registration registration, bool read)
    {
        try
        {
            if (read)
            {
                registration.Handler.OnReadable();
            }
            else
            {
                registration.Handler.OnWritable();
            }
        }
        catch (Exception ex)
        {
            Fault(registration, ex, report: true);
        }
    }

    private void Fault(Registration registration, Exception exception, bool report)
    {
        if (report)
        {
            Diagnostics.InternalErrors.Report(exception);
        }

        if (_registrations.TryGetValue(registration.Socket, out var current) && current == registration)
        {
            _registrations.Remove(registration.Socket);
        }

        Retire(registration);
        try
        {
            registration.Handler.OnFault(exception);
        }
        catch (Exception second)
        {
            // The handler cannot even close itself: close its socket so its peer at least sees the end.
            Diagnostics.InternalErrors.Report(second);
            registration.Socket.Dispose();
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

    private sealed class Registration(System.Net.Sockets.Socket socket, IReadinessHandler handler)
    {
        public System.Net.Sockets.Socket Socket { get; } = socket;

        public IReadinessHandler Handler { get; set; } = handler;

        public bool WantsRead { get; set; }

        public bool WantsWrite { get; set; }

        /// <summary>When it began waiting for input, on the loop's clock.</summary>
        public long ReadSince { get; set; }

        /// <summary>False for sockets a zero-byte receive cannot wait on: they stay in Select.</summary>
        public bool MayPark { get; set; } = true;

        /// <summary>A zero-byte receive is pending in the runtime's engine for it.</summary>
        public bool Parked { get; set; }

        /// <summary>Set by Forget: a completion that arrives later does nothing.</summary>
        public bool Forgotten { get; set; }

        /// <summary>Its place in the hot set, or -1.</summary>
        public int HotIndex { get; set; } = -1;

        public bool CountedAsWriter { get; set; }

        /// <summary>Reused by every park of this socket: parking allocates once per connection.</summary>
        public ParkArgs? Park { get; set; }
    }

    /// <summary>The zero-byte receive of a parked socket; its completion is posted to the owning I/O thread.</summary>
    private sealed class ParkArgs : SocketAsyncEventArgs
    {
        public ParkArgs(IoThread owner, Registration registration)
            : base(unsafeSuppressExecutionContextFlow: true)
        {
            Owner = owner;
            Registration = registration;
            SetBuffer(Memory<byte>.Empty);
        }

        public IoThread Owner { get; }

        public Registration Registration { get; }

        protected override void OnCompleted(SocketAsyncEventArgs e) => Owner.Schedule(s_parkCompleted, this);
    }
}
