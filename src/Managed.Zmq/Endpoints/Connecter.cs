using System.Net;
using System.Net.Sockets;
using Managed.Zmq.Diagnostics;
using Managed.Zmq.Engine;
using Managed.Zmq.Threading;
using Managed.Zmq.Pipes;
using Managed.Zmq.Sockets;
using Managed.Zmq.Transports;

namespace Managed.Zmq.Endpoints;

/// <summary>
/// A connected tcp:// or ipc:// endpoint: connects in the background, runs one engine at a time
/// over its long-lived pipe, and reconnects after RECONNECT_IVL (doubling up to RECONNECT_IVL_MAX)
/// when the connection is lost, but not after a protocol error (docs/libzmq-behaviour.md L15). Everything here runs on its
/// I/O thread: the connect is non-blocking and the delays are reactor timers.
/// </summary>
internal sealed class Connecter : IEndpointHandle, IReadinessHandler
{
    private readonly IEndpointHost _socket;
    private readonly TransportAddress _address;
    private readonly IoThread _ioThread;

    /// <summary>Completed when a pending connect's socket turns writable, or by a timeout or Stop.</summary>
    private readonly ReactorOperation _wait = new();

    private ZmtpConnection? _current;

    /// <summary>The proxy connection while a SOCKS5 exchange runs on it, so that Stop can cut it short.</summary>
    private ReactorSocketTransport? _socksTransport;
    private ReactorTimer? _waitTimer;
    private bool _stopped;
    private bool _stopWhenDrained;

    /// <summary>Guards <see cref="_pipe"/> and <see cref="_pipeTaken"/>: the I/O thread renews the pipe, Disconnect takes it.</summary>
    private readonly Lock _pipeLock = new();
    private StreamPipe _pipe;

    /// <summary>Disconnect took the pipe: no new one is made after it.</summary>
    private bool _pipeTaken;

    /// <summary>The routing id given at Connect (Connect_Routing_Id), for every pipe of this endpoint; empty when none.</summary>
    private readonly byte[] _connectRoutingId;

    public Connecter(IEndpointHost socket, TransportAddress address, StreamPipe pipe)
    {
        _socket = socket;
        _address = address;
        _pipe = pipe;
        _connectRoutingId = pipe.RoutingId;
        _ioThread = socket.NextIoThread();
    }

    /// <summary>
    /// The pipe the next (or current) connection serves: the same one for the endpoint's whole life,
    /// except under Immediate, where each connection gets its own (<see cref="Pipe.EndsWithConnection"/>).
    /// </summary>
    public StreamPipe Pipe
    {
        get
        {
            lock (_pipeLock)
            {
                return _pipe;
            }
        }
    }

    /// <summary>Disconnect (user thread): the pipe now serving the endpoint, which the caller detaches; no new one follows it.</summary>
    public StreamPipe TakePipe()
    {
        lock (_pipeLock)
        {
            _pipeTaken = true;
            return _pipe;
        }
    }

    /// <summary>
    /// Immediate: the pipe left the socket with its connection; the next connection gets a new one,
    /// with the routing id given at Connect. False when Disconnect took the pipe (the connecter stops).
    /// </summary>
    private bool TryRenewPipe()
    {
        lock (_pipeLock)
        {
            if (_pipeTaken)
            {
                return false;
            }

            _pipe = _socket.CreatePipe(fromConnect: true, _pipe.Endpoint, endsWithConnection: true);
            _pipe.RoutingId = _connectRoutingId;
            return true;
        }
    }

    public string Address => _address.Original;

    public string ResolvedAddress => _address.Original;

    public bool IsBound => false;

    public void Start()
    {
        _socket.BeginWork();
        _ioThread.Schedule(static s => _ = ((Connecter)s!).RunAsync(), this);
    }

    private async Task RunAsync()
    {
        var options = _socket.Options;
        int interval = options.ReconnectInterval;
        try
        {
            while (!_stopped)
            {
                var connected = await TryConnectAsync().ConfigureAwait(true);
                if (connected is not null)
                {
                    interval = options.ReconnectInterval;
                    var transport = new ReactorSocketTransport(connected, _ioThread, PeerAddressText.Describe(connected));
                    if (!await TryOpenSocksTunnelAsync(transport).ConfigureAwait(true))
                    {
                        continue;
                    }

                    var pipe = Pipe;
                    var connection = new ZmtpConnection(_socket, _address.Wrap(transport, connecting: true, options), _ioThread, _address.Original, pipe);
                    _current = connection;
                    if (_stopWhenDrained)
                    {
                        connection.CloseWhenDrained();
                    }

                    var reason = await connection.RunAsync().ConfigureAwait(true);
                    _current = null;
                    if (reason is DisconnectReason.ProtocolError or DisconnectReason.HandshakeRejected)
                    {
                        // docs/libzmq-behaviour.md L15: a peer that broke the protocol is not retried. What it sent before
                        // stays readable, as libzmq flushes it before ending the session: the pipe leaves once drained.
                        _socket.Enqueue(pipe, PipeEventKind.PeerClosed);
                        return;
                    }

                    if (pipe.EndsWithConnection && connection.HandshakeComplete && !TryRenewPipe())
                    {
                        return;
                    }
                }

                if (_stopped || options.ReconnectInterval < 0 || (_stopWhenDrained && !Pipe.OutboundHasData))
                {
                    return;
                }

                // RFC 23 §Error Handling: reconnect after a short, randomised delay that grows on repeats.
                int delay = interval + (interval > 1 ? Random.Shared.Next(interval) : 0);
                _socket.Monitor.Emit(SocketMonitor.ConnectRetried, interval, _address.Original);
                await WaitAsync(delay).ConfigureAwait(true);
                if (options.ReconnectIntervalMax > options.ReconnectInterval)
                {
                    interval = Math.Min(interval * 2, options.ReconnectIntervalMax);
                }
            }
        }
        catch (Exception ex)
        {
            Diagnostics.InternalErrors.Report(ex);
        }
        finally
        {
            // The connecter is done with its pipe: large payloads still queued are released.
            Pipe.ReleasePayloads();
            _socket.EndWork();
        }
    }

    /// <summary>
    /// Socks_Proxy: asks the proxy for a tunnel to the endpoint's host and port (RFC 1928) before ZMTP starts.
    /// True when there is no proxy or the tunnel is open; otherwise the transport is closed (monitor: CLOSED)
    /// and the caller's loop retries after the reconnect interval, as libzmq's SOCKS connecter does.
    /// </summary>
    private async ValueTask<bool> TryOpenSocksTunnelAsync(ReactorSocketTransport transport)
    {
        if (_address is not TcpAddress target || _socket.Options.SocksProxy.Length == 0)
        {
            return true;
        }

        _socksTransport = transport;
        var options = _socket.Options;
        bool open = await Socks5Client.TryConnectAsync(
            transport, target.Host, target.Port, options.SocksUsername.ToArray(), options.SocksPassword.ToArray()).ConfigureAwait(true);
        _socksTransport = null;
        if (open && !_stopped)
        {
            return true;
        }

        transport.Dispose();
        _socket.Monitor.Emit(SocketMonitor.Closed, transport.Handle, _address.Original);
        if (!_stopped && _socket.Options.ReconnectInterval >= 0)
        {
            _socket.Monitor.Emit(SocketMonitor.ConnectRetried, _socket.Options.ReconnectInterval, _address.Original);
            await WaitAsync(_socket.Options.ReconnectInterval).ConfigureAwait(true);
        }
        else
        {
            _stopped = true;
        }

        return false;
    }

    /// <summary>The address to open a TCP connection to: the SOCKS proxy when Socks_Proxy is set, else the endpoint.</summary>
    private TransportAddress ConnectTarget()
    {
        string proxy = _socket.Options.SocksProxy;
        if (_address is not TcpAddress || proxy.Length == 0)
        {
            return _address;
        }

        return TcpAddress.TryParse("tcp://" + proxy, proxy, forBind: false, _socket.Options.Ipv6, out TcpAddress? proxyAddress) == 0
            ? proxyAddress!
            : throw new SocketException((int)SocketError.HostNotFound);
    }

    /// <summary>
    /// The local end to bind before connecting to <paramref name="target"/>: its own source (a Socks_Proxy given as
    /// <c>source;proxy:port</c>), else the endpoint's; null for the system's choice. Throws when the source has no
    /// address of <paramref name="family"/>.
    /// </summary>
    private IPEndPoint? SourceEndPoint(TransportAddress target, AddressFamily family)
    {
        var source = (target as TcpAddress)?.Source ?? (_address as TcpAddress)?.Source;
        return source is null ? null : source.EndPointFor(family) ?? throw new SocketException((int)SocketError.AddressNotAvailable);
    }

    private async ValueTask<System.Net.Sockets.Socket?> TryConnectAsync()
    {
        System.Net.Sockets.Socket? socket = null;
        int handle = -1;
        try
        {
            var target = ConnectTarget();
            var endPoint = await target.ResolveAsync(CancellationToken.None).ConfigureAwait(true);

            // A host-name lookup may finish on the thread pool: come back before touching state.
            await new IoThreadAwaitable(_ioThread);
            if (_stopped)
            {
                return null;
            }

            var local = SourceEndPoint(target, endPoint.AddressFamily);
            socket = target.CreateSocket(endPoint.AddressFamily);
            handle = (int)socket.Handle;
            SocketTuning.Apply(socket, _socket.Options);
            if (socket.AddressFamily != AddressFamily.Unix && SocketTuning.BindToDevice(socket, _socket.Options) != 0)
            {
                // As libzmq: a socket that cannot be opened on its device is closed unannounced (it never was a
                // connection, so no CLOSED), and the attempt is retried after the reconnect interval.
                socket.Dispose();
                return null;
            }

            if (local is not null)
            {
                TcpSourceAddress.Bind(socket, local);
            }

            socket.Blocking = false;
            try
            {
                socket.Connect(endPoint);
            }
            catch (SocketException ex) when (ex.SocketErrorCode is SocketError.WouldBlock or SocketError.InProgress or SocketError.AlreadyInProgress)
            {
                _socket.Monitor.Emit(SocketMonitor.ConnectDelayed, ZmqConstants.EINPROGRESS, _address.Original);
                if (!await WaitWritableAsync(socket).ConfigureAwait(true))
                {
                    throw new SocketException((int)SocketError.TimedOut);
                }

                int error = (int)socket.GetSocketOption(SocketOptionLevel.Socket, SocketOptionName.Error)!;
                if (error != 0)
                {
                    throw new SocketException(error);
                }
            }

            _ioThread.Forget(socket);
            _socket.Monitor.Emit(SocketMonitor.Connected, handle, _address.Original);
            return socket;
        }
        catch (Exception ex) when (ex is SocketException or ObjectDisposedException)
        {
            if (socket is not null)
            {
                _ioThread.Forget(socket);
                socket.Dispose();
                _socket.Monitor.Emit(SocketMonitor.Closed, handle, _address.Original);
            }

            return null;
        }
    }

    /// <summary>Waits until the connecting socket is writable, CONNECT_TIMEOUT passes, or Stop; true when writable.</summary>
    private ValueTask<bool> WaitWritableAsync(System.Net.Sockets.Socket socket)
    {
        var wait = _wait.Begin();
        _ioThread.WatchWrite(socket, this);
        int timeout = _socket.Options.ConnectTimeout;
        if (timeout > 0)
        {
            _waitTimer = _ioThread.AddTimer(timeout, static s => ((Connecter)s!)._wait.Complete(false), this);
        }

        return wait;
    }

    /// <summary>Sleeps on the I/O thread; Stop cuts it short.</summary>
    private ValueTask<bool> WaitAsync(int milliseconds)
    {
        var wait = _wait.Begin();
        _waitTimer = _ioThread.AddTimer(milliseconds, static s => ((Connecter)s!)._wait.Complete(true), this);
        return wait;
    }

    void IReadinessHandler.OnWritable()
    {
        _waitTimer?.Cancel();
        _wait.Complete(true);
    }

    void IReadinessHandler.OnReadable()
    {
    }

    /// <summary>The reactor forgot the connecting socket after a fault: this attempt failed, the loop retries.</summary>
    void IReadinessHandler.OnFault(Exception exception)
    {
        _waitTimer?.Cancel();
        _wait.Complete(false);
    }

    public void Stop(int lingerMilliseconds)
    {
        _ioThread.Schedule(static s =>
        {
            var (self, linger) = ((Connecter, int))s!;
            self.StopOnIoThread(linger);
        }, (this, lingerMilliseconds));
    }

    private void StopOnIoThread(int lingerMilliseconds)
    {
        if (_stopped)
        {
            return;
        }

        if (lingerMilliseconds == 0 || !Pipe.OutboundHasData)
        {
            _stopped = true;
            _waitTimer?.Cancel();
            _wait.Complete(false);
            _socksTransport?.Dispose();
            if (_current is not null)
            {
                ((IPipeEngine)_current).Close();
            }

            return;
        }

        // LINGER: keep (re)connecting until what is queued has gone, for at most `linger` ms.
        _stopWhenDrained = true;
        _current?.CloseWhenDrained();
        if (lingerMilliseconds > 0)
        {
            _ioThread.AddTimer(lingerMilliseconds, static s => ((Connecter)s!).StopOnIoThread(0), this);
        }
    }
}
