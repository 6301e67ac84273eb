using NetSocket = System.Net.Sockets.Socket;
using System.Net;
using System.Net.Sockets;
using Managed.Zmq.Engine;
using Managed.Zmq.Pipes;

namespace Managed.Zmq.Transports.Udp;

/// <summary>
/// Serves one pipe over one udp socket, as libzmq 4.3.4's udp engine does: no handshake; a RADIO's messages (a group
/// frame, then the body) leave one datagram each (<see cref="UdpDatagram"/>), and a DISH's datagrams come in as the
/// same two frames. A DISH's JOIN and LEAVE are dropped here (its filter works on what arrives), and so is any
/// message that does not fit a datagram. Datagrams are lost, not queued, when the receiver is at RCVHWM.
/// </summary>
/// <remarks>
/// The two loops run as tasks of their own; the write loop parks on the pipe's writer turn like a ZMTP engine's
/// and is woken through <see cref="IPipeEngine.WakeWriter"/>.
/// </remarks>
internal sealed partial class UdpEngine : IPipeEngine
{
    private readonly IConnectionHost _host;
    private readonly StreamPipe _pipe;
    private readonly NetSocket _socket;
    private readonly bool _sends;
    private readonly SocketAddress? _target;

    /// <summary>Counts WakeWriter calls not yet seen by the write loop (0 or 1): the semaphore stays at most 1.</summary>
    private int _wakePending;
    private readonly SemaphoreSlim _writerSignal = new(0, 1);

    /// <summary>1 once closing started.</summary>
    private int _closed;

    /// <summary>Close once the outbound queue is empty (LINGER).</summary>
    private volatile bool _closeWhenDrained;

    /// <summary>Loops still running; the last one to end ends the context's count of work.</summary>
    private int _running;

    private UdpEngine(IConnectionHost host, StreamPipe pipe, NetSocket socket, bool sends, UdpAddress address)
    {
        _host = host;
        _pipe = pipe;
        _socket = socket;
        _sends = sends;
        _target = sends ? address.Target.Serialize() : null;
    }

    /// <summary>
    /// Opens the socket (a DISH binds now, so a busy port fails the Bind call) and starts serving
    /// <paramref name="pipe"/>; 0, or the errno of the failure.
    /// </summary>
    public static int TryStart(IConnectionHost host, StreamPipe pipe, UdpAddress address, bool sends, out UdpEngine? engine, out int boundPort)
    {
        engine = null;
        boundPort = 0;
        NetSocket socket;
        try
        {
            socket = sends ? UdpSockets.OpenSender(address, host.Options.MulticastHops, host.Options.MulticastLoop) : UdpSockets.OpenReceiver(address);
        }
        catch (SocketException ex)
        {
            return ex.SocketErrorCode switch
            {
                SocketError.AddressAlreadyInUse => ZmqConstants.EADDRINUSE,
                SocketError.AddressNotAvailable => ZmqConstants.EADDRNOTAVAIL,
                SocketError.AccessDenied => ZmqConstants.EACCES,
                _ => ZmqConstants.ENODEV,
            };
        }

        boundPort = sends ? 0 : ((System.Net.IPEndPoint)socket.LocalEndPoint!).Port;
        engine = new UdpEngine(host, pipe, socket, sends, address);
        engine.Start();
        return 0;
    }

    private void Start()
    {
        _pipe.SetEngine(this);
        _host.BeginWork();
        _running = _sends ? 1 : 2;
        _ = Task.Run(WriteLoopAsync);
        if (!_sends)
        {
            _ = Task.Run(ReceiveLoopAsync);
        }
    }

    public PeerConnection? Connection => null;

    public void WakeWriter()
    {
        if (Interlocked.Exchange(ref _wakePending, 1) == 0)
        {
            _writerSignal.Release();
        }
    }

    /// <summary>The socket thread never sends datagrams itself: the write loop does.</summary>
    public bool TryWriteDirect(StreamPipe pipe) => false;

    /// <summary>Nothing to resume: the receive loop never pauses, it drops datagrams at RCVHWM.</summary>
    public void WakeReader()
    {
    }

    /// <summary>Closes the socket now; queued datagrams are dropped.</summary>
    public void Close()
    {
        if (Interlocked.Exchange(ref _closed, 1) != 0)
        {
            return;
        }

        _pipe.SetEngine(null);
        _socket.Dispose();
        WakeWriter();
    }

    /// <summary>udp has no connection to drop and come back: closing is all there is.</summary>
    public void Drop() => Close();

    /// <summary>LINGER: closes once what is queued has left, or after <paramref name="lingerMilliseconds"/> (-1: no limit).</summary>
    public void CloseWhenDrained(int lingerMilliseconds)
    {
        if (lingerMilliseconds == 0 || !_sends)
        {
            Close();
            return;
        }

        _closeWhenDrained = true;
        WakeWriter();
        if (lingerMilliseconds > 0)
        {
            _ = Task.Delay(lingerMilliseconds).ContinueWith(static (_, state) => ((UdpEngine)state!).Close(), this, TaskScheduler.Default);
        }
    }

    private bool IsClosed => Volatile.Read(ref _closed) != 0;

    /// <summary>One loop ended; the last one tells the context this endpoint's work is done.</summary>
    private void LoopEnded()
    {
        if (Interlocked.Decrement(ref _running) == 0)
        {
            _host.EndWork();
        }
    }
}
