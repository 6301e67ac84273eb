using Managed.Zmq.InteropTests.Infrastructure;
using Managed.Zmq.InteropTests.Native;

namespace Managed.Zmq.InteropTests.Security;

/// <summary>Which end of a secured link authenticates: the security role, independent of who binds.</summary>
public enum OurRole
{
    /// <summary>Our socket is the PLAIN/CURVE/ZAP server; libzmq's is the client.</summary>
    Server,

    /// <summary>Our socket is the client; libzmq's is the server.</summary>
    Client,
}

/// <summary>
/// One side of a secured interop link: a context (ours, or libzmq's) plus everything made in it,
/// its sockets, monitors and ZAP handler, disposed in reverse order before the context.
/// In self-check mode (MANAGED_ZMQ_INTEROP_SELFCHECK=1) "ours" is libzmq too.
/// </summary>
internal sealed class SecuritySide : IDisposable
{
    private static int s_monitors;

    private readonly NativeContext? _native;
#if !INTEROP_WITHOUT_CORE
    private readonly Context? _managed;
#endif
    private readonly Stack<IDisposable> _owned = new();

    private SecuritySide(NativeContext native) => _native = native;

#if !INTEROP_WITHOUT_CORE
    private SecuritySide(Context managed) => _managed = managed;
#endif

    public static SecuritySide Ours()
    {
#if INTEROP_WITHOUT_CORE
        return Link.SelfCheck ? new SecuritySide(new NativeContext()) : throw new InvalidOperationException("Built without the core.");
#else
        return Link.SelfCheck ? new SecuritySide(new NativeContext()) : new SecuritySide(new Context());
#endif
    }

    public static SecuritySide Theirs() => new(new NativeContext());

    public IEnd Socket(SocketType type)
    {
#if INTEROP_WITHOUT_CORE
        IEnd end = _native!.Socket(type);
#else
        IEnd end = _managed is not null ? new ManagedEnd(_managed, type) : _native!.Socket(type);
#endif
        _owned.Push(end);
        return end;
    }

    /// <summary>Starts recording every monitor event of <paramref name="socket"/> (made by this side).</summary>
    public EventLog Monitor(IEnd socket)
    {
        IEnd pair;
        if (socket is NativeSocket native)
        {
            pair = native.Monitor(LibZmq.ZMQ_EVENT_ALL);
        }
        else
        {
#if INTEROP_WITHOUT_CORE
            throw new InvalidOperationException("Built without the core.");
#else
            var endpoint = $"inproc://security-monitor-{Interlocked.Increment(ref s_monitors)}";
            ((ManagedEnd)socket).Socket.Monitor(endpoint, SocketMonitorEvent.All);
            pair = new ManagedEnd(_managed!, SocketType.Pair);
            pair.Connect(endpoint);
#endif
        }

        var log = new EventLog(pair, socket.Name);
        _owned.Push(log);
        return log;
    }

    /// <summary>Binds a ZAP handler at inproc://zeromq.zap.01 in this side's context; bind it before any server connects.</summary>
    public ZapHandler StartZap(Func<byte[][], ZapAnswer> decide)
    {
        var rep = Socket(SocketType.Rep);
        var handler = new ZapHandler(rep, decide);
        _owned.Push(handler);
        return handler;
    }

    public void Dispose()
    {
        while (_owned.TryPop(out var item))
            item.Dispose();
        _native?.Dispose();
#if !INTEROP_WITHOUT_CORE
        _managed?.Dispose();
#endif
    }
}
