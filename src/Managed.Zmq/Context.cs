using Managed.Zmq.Internal;
using Managed.Zmq.Threading;
using Managed.Zmq.Endpoints;
using Managed.Zmq.Inproc;
using Managed.Zmq.Sockets;

namespace Managed.Zmq;

/// <summary>
/// A ZeroMQ context: owns the I/O threads, the inproc endpoint names and the sockets created
/// from it. Thread-safe: every member may be called from any thread.
/// </summary>
/// <remarks>
/// Dispose sockets before their context (<c>using var ctx</c> first, then <c>using var socket</c>):
/// <see cref="Dispose"/> terminates like libzmq's <c>zmq_ctx_term</c> and waits for every socket
/// to be disposed and for lingering messages to be sent.
/// </remarks>
public sealed partial class Context : IDisposable
{
    private readonly object _lock = new();
    private readonly HashSet<SocketCore> _sockets = [];
    private IoThread[]? _ioThreads;
    private int _nextIoThread;
    private int _work;
    private bool _shutdown;
    private bool _disposed;

    private int _ioThreadCount = 1;
    private int _maxSockets = 1023;
    private int _threadPriority;
    private int _threadSchedPolicy = -1;
    private int _maxMessageSize = int.MaxValue;
    /// <summary>ThreadNamePrefix; null until set, as libzmq names its threads without a prefix until then (and reads 0).</summary>
    private int? _threadNamePrefix;

    /// <summary>
    /// The socket limit in force: MaxSockets as it was when the first socket was created, as libzmq sizes its socket
    /// slots once, when its first socket starts the context. -1 until then.
    /// </summary>
    private int _socketLimit = -1;
    private int _ipv6;
    private int _blocky = 1;

    /// <summary>Set when a <see cref="Terminate"/> deadline passed: LINGER counts as 0 from then on.</summary>
    private bool _lingerAborted;

    /// <summary>Closed sockets' connecters and connections that may still linger (see <see cref="TrackLingering"/>).</summary>
    private readonly List<WeakReference> _lingering = [];

    /// <summary>Size of <see cref="_lingering"/> at which dead entries are next pruned.</summary>
    private int _lingeringPruneAt = Tuning.Sockets.LingeringPruneMinimum;

    /// <summary>Creates a context with one I/O thread and room for 1023 sockets.</summary>
    public Context()
    {
    }

    /// <summary>Creates a context with <paramref name="ioThreads"/> I/O threads and at most <paramref name="maxSockets"/> sockets.</summary>
    /// <param name="ioThreads">Number of I/O threads (0 allows inproc only).</param>
    /// <param name="maxSockets">Maximum number of open sockets; defaults to 1023.</param>
    /// <exception cref="ZmqException">EINVAL when <paramref name="ioThreads"/> &lt; 0 or <paramref name="maxSockets"/> &lt; 1.</exception>
    public Context(int ioThreads, int maxSockets = 1023)
    {
        if (ioThreads < 0 || maxSockets < 1)
        {
            Dispose();
            ThrowHelper.ThrowZmqException(ZmqConstants.EINVAL);
        }

        _ioThreadCount = ioThreads;
        _maxSockets = maxSockets;
    }

    /// <summary>
    /// Raised, on the I/O thread where it was caught, for every unexpected exception inside the library (a bug:
    /// libzmq would abort the process with an assertion). The library never rethrows it: the connection concerned
    /// is closed (its monitor reports DISCONNECTED) and everything else carries on. The sender is null. The same
    /// errors are written to the "Managed.Zmq" EventSource as Error events, for dotnet-trace and EventListeners.
    /// </summary>
    /// <remarks>
    /// Static, like <see cref="AppDomain.UnhandledException"/> and <see cref="TaskScheduler.UnobservedTaskException"/>,
    /// because an error on an I/O thread is not always tied to one context. A handler must be quick and must not
    /// call back into sockets; an exception thrown by a handler is swallowed.
    /// </remarks>
    public static event EventHandler<Exception>? InternalError
    {
        add => Diagnostics.InternalErrors.Handlers += value;
        remove => Diagnostics.InternalErrors.Handlers -= value;
    }

    /// <summary>The libzmq release whose semantics this library follows: (4, 3, 5).</summary>
    public static (int Major, int Minor, int Patch) Version => (4, 3, 5);

    /// <summary>Whether an optional capability is available (<c>ipc</c>, <c>curve</c>, <c>draft</c>, <c>ws</c>, <c>wss</c>); false for anything else.</summary>
    /// <param name="capability">The capability name, case-sensitive.</param>
    public static bool Has(string capability)
    {
        ArgumentNullException.ThrowIfNull(capability);
        return capability switch
        {
            "ipc" => true,
            "curve" => true,

            // As a libzmq built with the draft API answers: its draft socket types and ws:// exist. wss:// is true
            // because it works here (libzmq 4.3.4's own zmq_has only knows it as "WSS", in capitals; docs/ws.md).
            "draft" => true,
            "ws" => true,
            "wss" => true,
            _ => false,
        };
    }

    /// <summary>Reads a context option.</summary>
    /// <param name="option">The option.</param>
    /// <returns>The current value.</returns>
    public int GetOption(ContextOption option)
    {
        lock (_lock)
        {
            ThrowIfDisposed();
            return option switch
            {
                ContextOption.IoThreads => _ioThreadCount,
                ContextOption.MaxSockets => _maxSockets,

                // libzmq's largest ZMQ_MAX_SOCKETS where the OS does not lower it, and sizeof(zmq_msg_t).
                ContextOption.SocketLimit => 65535,
                ContextOption.ThreadSchedPolicy => _threadSchedPolicy,
                ContextOption.MaxMsgSize => _maxMessageSize,
                ContextOption.MsgTSize => 64,
                ContextOption.ThreadNamePrefix => _threadNamePrefix ?? 0,

                // ZMQ_IPV6 and ZMQ_BLOCKY are context options too in libzmq, numbered as the socket options.
                (ContextOption)ZmqConstants.ZMQ_IPV6 => _ipv6,
                (ContextOption)ZmqConstants.ZMQ_BLOCKY => _blocky,
                _ => ThrowInvalid(),
            };
        }
    }

    /// <summary>Sets a context option.</summary>
    /// <param name="option">The option.</param>
    /// <param name="value">The value.</param>
    public void SetOption(ContextOption option, int value)
    {
        lock (_lock)
        {
            ThrowIfDisposed();
            switch (option)
            {
                case ContextOption.IoThreads when value >= 0: _ioThreadCount = value; break;
                case ContextOption.MaxSockets when value >= 1: _maxSockets = value; break;
                case ContextOption.ThreadPriority when value >= 0: _threadPriority = value; break;
                case ContextOption.ThreadSchedPolicy when value >= 0: _threadSchedPolicy = value; break;
                case ContextOption.MaxMsgSize when value >= 0: _maxMessageSize = value; break;
                case ContextOption.ThreadAffinityCpuAdd or ContextOption.ThreadAffinityCpuRemove when value >= 0: break;
                case ContextOption.ThreadNamePrefix: _threadNamePrefix = value; break;
                case (ContextOption)ZmqConstants.ZMQ_IPV6 when value is 0 or 1: _ipv6 = value; break;
                case (ContextOption)ZmqConstants.ZMQ_BLOCKY when value is 0 or 1: _blocky = value; break;
                default: ThrowInvalid(); break;
            }
        }
    }

    /// <summary>
    /// Makes every blocking call on this context's sockets, current and future, fail with ETERM,
    /// without waiting for anything. The sockets still have to be disposed.
    /// </summary>
    public void Shutdown()
    {
        SocketCore[] sockets;
        lock (_lock)
        {
            if (_disposed || _shutdown)
            {
                return;
            }

            _shutdown = true;
            sockets = [.. _sockets];
        }

        foreach (var socket in sockets)
        {
            socket.Terminate();
        }
    }

    /// <summary>
    /// Terminates the context: shuts it down, waits until every socket is disposed and every
    /// lingering message is sent (or its LINGER has run out), then stops the I/O threads.
    /// </summary>
    public void Dispose() => Terminate(Timeout.InfiniteTimeSpan);

    /// <summary>
    /// Terminates the context like <see cref="Dispose"/> (libzmq's <c>zmq_ctx_term</c>), but waits at most
    /// <paramref name="lingerTimeout"/> for lingering messages: when it has passed, whatever disposed sockets still
    /// hold for unreachable peers is discarded, as if every <see cref="SocketOption.Linger"/> had been 0, and
    /// termination completes. For services that must stop on a deadline, whatever the sockets' LINGER (its
    /// default, -1, waits for ever for a peer that never comes back). Afterwards the context is disposed.
    /// </summary>
    /// <remarks>
    /// Sockets must still be disposed, as with <c>zmq_ctx_term</c>: the context cannot end while one is open.
    /// From the call on, every blocking call on them fails with ETERM (<see cref="Shutdown"/>), so a thread that
    /// disposes its socket on ETERM lets termination finish. Setting <c>(ContextOption)70</c> (ZMQ_BLOCKY) to 0
    /// before disposing makes LINGER -1 count as 0 instead, so that nothing waits at all.
    /// </remarks>
    /// <param name="lingerTimeout">How long lingering messages may still be sent; <see cref="Timeout.InfiniteTimeSpan"/> waits as long as LINGER says.</param>
    /// <returns>True when nothing had to be discarded; false when the deadline cut lingering sends short, or when
    /// messages were queued for an inproc name that was never bound (libzmq's termination discards those too).</returns>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="lingerTimeout"/> is negative and not infinite.</exception>
    public bool Terminate(TimeSpan lingerTimeout)
    {
        if (lingerTimeout < TimeSpan.Zero && lingerTimeout != Timeout.InfiniteTimeSpan)
        {
            ThrowHelper.ThrowArgumentOutOfRangeException(nameof(lingerTimeout), "The timeout must be non-negative or infinite");
        }

        lock (_lock)
        {
            if (_disposed)
            {
                return true;
            }
        }

        Shutdown();
        long deadline = lingerTimeout == Timeout.InfiniteTimeSpan ? long.MaxValue : Environment.TickCount64 + (long)lingerTimeout.TotalMilliseconds;
        bool complete = true;
        while (true)
        {
            object?[]? lingerers = null;
            lock (_lock)
            {
                if (_sockets.Count == 0 && _work == 0)
                {
                    _disposed = true;
                    break;
                }

                long left = deadline - Environment.TickCount64;
                if (_lingerAborted || left > 0)
                {
                    Monitor.Wait(_lock, _lingerAborted || deadline == long.MaxValue ? Timeout.Infinite : (int)Math.Min(left, int.MaxValue));
                    continue;
                }

                // The deadline passed: from now on LINGER counts as 0, and what lingers now stops.
                _lingerAborted = true;
                complete = _work == 0;
                lingerers = [.. _lingering.Select(static w => w.Target)];
                _lingering.Clear();
            }

            foreach (var lingerer in lingerers)
            {
                StopLingering(lingerer);
            }
        }

        // No socket is left to link them: messages queued for inproc names never bound are discarded.
        if (Inproc.AbandonPending())
        {
            complete = false;
        }

        if (_ioThreads is { } threads)
        {
            foreach (var thread in threads)
            {
                thread.Dispose();
            }
        }

        return complete;
    }

    // ------------------------------------------------------------ internal

    /// <summary>The inproc endpoint names of this context.</summary>
    internal Inproc.InprocRegistry Inproc { get; } = new();

    /// <summary>Where this context's connections send their ZAP requests (RFC 27).</summary>
    internal Security.Zap.IZapEndpoint Zap => _zap ??= new Sockets.ZapDealer(this);

    private Security.Zap.IZapEndpoint? _zap;

    internal bool Ipv6Default => Volatile.Read(ref _ipv6) != 0;


    internal int IoThreadCount => _ioThreadCount;

    private void ThrowIfDisposed()
    {
        if (_disposed)
        {
            ThrowHelper.ThrowObjectDisposedException(nameof(Context));
        }
    }

    private static int ThrowInvalid()
    {
        ThrowHelper.ThrowZmqException(ZmqConstants.EINVAL);
        return 0;
    }
}
