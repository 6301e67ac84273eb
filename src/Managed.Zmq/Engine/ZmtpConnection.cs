using System.Net.Sockets;
using Managed.Zmq.Core;
using Managed.Zmq.Threading;
using Managed.Zmq.Transports;

namespace Managed.Zmq.Engine;

/// <summary>
/// One ZMTP connection: handshake, then a read loop and a write loop between the OS socket and a
/// <see cref="Pipe"/>. Everything here runs on the connection's I/O thread, so no field needs a lock;
/// other threads reach it only through <see cref="IPipeEngine"/>, which posts or signals.
/// </summary>
internal sealed partial class ZmtpConnection : IPipeEngine
{
    private readonly SocketCore _socket;
    private readonly IByteTransport _transport;
    private readonly IoThread _ioThread;
    private readonly string _endpoint;

    /// <summary>For a connecting socket, the long-lived pipe we serve; null for an accepted connection until the handshake creates one.</summary>
    private readonly Pipe? _connectPipe;

    private readonly AsyncSignal _writerSignal = new();
    private readonly AsyncSignal _readerSignal = new();

    private Pipe? _pipe;
    private DisconnectReason _reason;
    private bool _closing;

    /// <summary>Set when the socket closes with LINGER: the write loop closes once the queue drains.</summary>
    private bool _closeWhenDrained;

    /// <summary>A pending PONG (or other engine command) to send between messages.</summary>
    private byte[]? _control;
    private int _controlLength;

    public ZmtpConnection(SocketCore socket, IByteTransport transport, IoThread ioThread, string endpoint, Pipe? connectPipe)
    {
        _socket = socket;
        _transport = transport;
        _ioThread = ioThread;
        _endpoint = endpoint;
        _connectPipe = connectPipe;
    }

    public string Endpoint => _endpoint;

    /// <summary>The listener that accepted this connection (Unbind closes its connections), or null.</summary>
    public object? Origin { get; init; }

    /// <summary>Keeps a LINGER deadline timer alive while the connection drains.</summary>
    public Timer? LingerTimer { get; set; }

    /// <summary>Starts an accepted connection on its I/O thread; the context counts it until it ends.</summary>
    public void Start()
    {
        _socket.Context.BeginWork();
        if (!_socket.TrackConnection(this))
        {
            _transport.Dispose();
            _socket.Context.EndWork();
            return;
        }

        _ = RunAndReleaseAsync();
    }

    /// <summary>True once the handshake succeeded (a pipe is attached).</summary>
    public bool HandshakeComplete => Volatile.Read(ref _pipe) is not null;

    private async Task RunAndReleaseAsync()
    {
        try
        {
            await RunAsync().ConfigureAwait(true);
        }
        catch (Exception ex)
        {
            Diagnostics.InternalErrors.Report(ex);
            _transport.Dispose();
        }
        finally
        {
            LingerTimer?.Dispose();
            _socket.UntrackConnection(this);
            _socket.Context.EndWork();
        }
    }

    public IoThread IoThread => _ioThread;

    /// <summary>Runs the connection to its end. Must be called on <see cref="IoThread"/>.</summary>
    public async Task<DisconnectReason> RunAsync()
    {
        var options = _socket.Options;
        using var handshakeTimer = options.HandshakeInterval > 0
            ? new Timer(static s => ((ZmtpConnection)s!).OnHandshakeTimeout(), this, options.HandshakeInterval, Timeout.Infinite)
            : null;

        var handshake = new ZmtpHandshake(_transport, new HandshakeSettings
        {
            SocketType = _socket.SocketType,
            RoutingId = options.RoutingId.ToArray(),
            MaxMessageSize = options.MaxMessageSize,
        });

        var result = await handshake.RunAsync().ConfigureAwait(true);
        handshakeTimer?.Dispose();
        if (result.Outcome != HandshakeOutcome.Succeeded || _closing)
        {
            var reason = _reason != DisconnectReason.None ? _reason : result.Outcome switch
            {
                HandshakeOutcome.ConnectionLost => DisconnectReason.ConnectionLost,
                HandshakeOutcome.ProtocolError => DisconnectReason.ProtocolError,
                _ => DisconnectReason.HandshakeRejected,
            };
            _socket.Monitor.ReportHandshakeFailed(_endpoint, result, reason);
            _transport.Dispose();
            _socket.Monitor.ReportConnectionClosed(_endpoint, _transport.Handle);
            return reason;
        }

        _socket.Monitor.ReportHandshakeSucceeded(_endpoint);
        var pipe = _connectPipe ?? _socket.CreatePipe(fromConnect: false);
        pipe.PeerMinorVersion = result.PeerMinorVersion;
        pipe.PeerIdentity = result.PeerIdentity;
        pipe.Inbound.DiscardUncommitted();
        Volatile.Write(ref _pipe, pipe);

        if (!TryStoreLeftover(result.Leftover.Span))
        {
            _transport.Dispose();
            _socket.Monitor.ReportConnectionClosed(_endpoint, _transport.Handle);
            if (_connectPipe is null)
            {
                _socket.Enqueue(pipe, PipeEventKind.Detached);
            }

            return DisconnectReason.ProtocolError;
        }

        pipe.SetEngine(this);
        _socket.OnPipeConnected(pipe, this);

        var writer = WriteLoopAsync(pipe);
        await ReadLoopAsync(pipe).ConfigureAwait(true);
        Close(DisconnectReason.ConnectionLost);
        await writer.ConfigureAwait(true);

        pipe.SetEngine(null);
        _transport.Dispose();
        _socket.Monitor.ReportConnectionClosed(_endpoint, _transport.Handle);
        _socket.OnPipeDisconnected(pipe, this, _reason);
        return _reason;
    }

    private void OnHandshakeTimeout()
    {
        // Runs on a timer thread: the transport is safe to dispose from anywhere, which fails the pending I/O.
        _ioThread.Schedule(static s =>
        {
            var self = (ZmtpConnection)s!;
            if (self._pipe is null)
            {
                self.Close(DisconnectReason.Timeout);
            }
        }, this);
    }

    /// <summary>Ends the connection; the first reason wins. I/O thread only.</summary>
    private void Close(DisconnectReason reason)
    {
        if (_closing)
        {
            return;
        }

        _closing = true;
        _reason = reason;
        _transport.Dispose();
        _writerSignal.Set();
        _readerSignal.Set();
    }

    void IPipeEngine.WakeWriter() => _writerSignal.Set();

    void IPipeEngine.WakeReader() => _readerSignal.Set();

    void IPipeEngine.Close()
    {
        _ioThread.Schedule(static s => ((ZmtpConnection)s!).Close(DisconnectReason.LocalClose), this);
    }

    /// <summary>Socket closing with LINGER: finish sending what is queued, then close.</summary>
    public void CloseWhenDrained()
    {
        _ioThread.Schedule(static s =>
        {
            var self = (ZmtpConnection)s!;
            self._closeWhenDrained = true;
            self._writerSignal.Set();
        }, this);
    }

    private static bool IsConnectionError(Exception ex) => ex is SocketException or ObjectDisposedException or IOException or InvalidOperationException;
}
