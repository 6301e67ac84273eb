using Managed.Zmq.Internal;
using Managed.Zmq.Sockets;

namespace Managed.Zmq;

/// <summary>
/// A ZeroMQ socket. The classic types are not thread-safe: use one from one thread at a time (it may move
/// between threads when the hand-over is synchronised). The draft types (<see cref="SocketType.Server"/>,
/// <see cref="SocketType.Client"/>, <see cref="SocketType.Peer"/>, <see cref="SocketType.Radio"/>,
/// <see cref="SocketType.Dish"/>, <see cref="SocketType.Scatter"/>, <see cref="SocketType.Gather"/> and
/// <see cref="SocketType.Channel"/>), as in libzmq, take every call (sends, receives, polls, binds, connects,
/// options, Dispose) from several threads at once (docs/client-server.md).
/// Dispose it before its <see cref="Context"/>.
/// </summary>
public sealed partial class Socket : IDisposable
{
    private static long s_nextId;

    private readonly SocketCore _core;
    private readonly long _id;
    private int _disposed;

    /// <summary>Creates a socket of the given type with libzmq's default options.</summary>
    /// <param name="context">The context that owns the socket.</param>
    /// <param name="socketType">The socket type (0–17, 19, 20: every type libzmq 4.3 has but DGRAM).</param>
    public Socket(Context context, SocketType socketType)
    {
        ArgumentNullException.ThrowIfNull(context);
        if (!SocketTypeFacts.IsSupported(socketType))
        {
            ThrowHelper.ThrowZmqException(ZmqConstants.EINVAL);
        }

        var core = new SocketCore(context, socketType);
        try
        {
            context.Register(core);
        }
        catch
        {
            // Refused (ETERM, EMFILE, a disposed context): the core has registered its meters, and goes with them.
            core.Close();
            throw;
        }

        _core = core;
        _id = Interlocked.Increment(ref s_nextId);
    }

    /// <summary>Closes the socket if the application forgot to, as libzmq's handle finalization does.</summary>
    ~Socket()
    {
        // A constructor that threw leaves a finalizable object without a core: nothing was opened, nothing to close.
        if (_core is not null)
        {
            CloseCore();
        }
    }

    /// <summary>A non-owning identity token for this socket.</summary>
    public SocketRef Ref
    {
        get
        {
            ThrowIfDisposed();
            return SocketRef.FromHandle((nint)_id);
        }
    }

    /// <summary>True when the last frame received had the MORE flag.</summary>
    public bool HasMore
    {
        get
        {
            ThrowIfDisposed();
            return _core.ReceiveMore;
        }
    }

    internal SocketCore Core => _core;

    /// <summary>Closes the socket. Queued outbound messages keep going for up to <c>Linger</c> ms.</summary>
    public void Dispose()
    {
        CloseCore();
        GC.SuppressFinalize(this);
    }

    private void CloseCore()
    {
        if (Interlocked.Exchange(ref _disposed, 1) != 0)
        {
            return;
        }

        try
        {
            // A thread-safe type closes under its gate, so that no other thread's bind, connect or option write
            // is half done when the socket goes (libzmq's thread-safe sockets close under their lock too).
            using (_core.EnterGate())
            {
                _core.Close();
            }
        }
        finally
        {
            _core.Context.Unregister(_core);
        }
    }

    /// <summary>
    /// Under the gate of a thread-safe type: another thread's Dispose may have closed the socket between this call's
    /// <see cref="ThrowIfDisposed"/> and its turn at the gate, and nothing may be added to a closed socket.
    /// </summary>
    private void ThrowIfClosedUnderGate()
    {
        if (_core.IsClosed)
        {
            ThrowHelper.ThrowObjectDisposedException(nameof(Socket));
        }
    }

    private void ThrowIfDisposed()
    {
        if (Volatile.Read(ref _disposed) != 0)
        {
            ThrowHelper.ThrowObjectDisposedException(nameof(Socket));
        }
    }
}
