using System.Net.Sockets;
using Managed.Zmq.Security;
using Managed.Zmq.Threading;
using Managed.Zmq.Transports;
using Managed.Zmq.Options;
using Managed.Zmq.Pipes;
using Managed.Zmq.Security.Zap;

namespace Managed.Zmq.Engine;

/// <summary>
/// One ZMTP connection: handshake, then a read loop and a write loop between the OS socket and a
/// <see cref="Pipe"/>. Everything here runs on the connection's I/O thread, so no field needs a lock;
/// other threads reach it only through <see cref="IPipeEngine"/>, which posts or signals. The exceptions
/// are the direct write and the direct read, which the socket's user thread runs while it holds the
/// write or the read turn (docs/ARCHITECTURE.md, section 3): the turn, not a lock, keeps the loop out.
/// </summary>
internal sealed partial class ZmtpConnection : IPipeEngine, IConnection
{
    private readonly IConnectionHost _host;
    private readonly IByteTransport _transport;
    private readonly IoThread _ioThread;
    private readonly string _endpoint;

    /// <summary>For a connecting socket, the long-lived pipe we serve; null for an accepted connection until the handshake creates one.</summary>
    private readonly StreamPipe? _connectPipe;

    private readonly AsyncSignal _writerSignal;
    private readonly AsyncSignal _readerSignal;

    private StreamPipe? _pipe;

    /// <summary>The security mechanism, once the handshake is done.</summary>
    private Security.IMechanism? _mechanism;

    /// <summary>The mechanism when it encrypts traffic (CURVE): every frame goes through it both ways.</summary>
    private Security.IMechanism? _cipher;
    private DisconnectReason _reason;
    private bool _closing;

    /// <summary>Set when the socket closes with LINGER: the write loop closes once the queue drains.</summary>
    private bool _closeWhenDrained;

    /// <summary>A pending PONG (or other engine command) to send between messages.</summary>
    private byte[]? _control;
    private int _controlLength;

    /// <summary>The other control buffer, free again once the write loop has sent what it held.</summary>
    private byte[]? _controlSpare;

    /// <summary>The handshake's ZAP exchange, once it asks the handler: abandoned when the connection closes.</summary>
    private ZapRequester? _zap;

    /// <summary>The LINGER deadline of <see cref="CloseWhenDrained"/>, cancelled when the connection ends first.</summary>
    private ReactorTimer? _lingerTimer;

    /// <summary>Connections carry raw bytes, not ZMTP (<see cref="IConnectionHost.IsRaw"/>, read when the connection starts).</summary>
    private bool _raw;

    public ZmtpConnection(IConnectionHost host, IByteTransport transport, IoThread ioThread, string endpoint, StreamPipe? connectPipe)
    {
        _host = host;
        _transport = transport;
        _ioThread = ioThread;
        _endpoint = endpoint;
        _connectPipe = connectPipe;
        _writerSignal = new AsyncSignal(ioThread);
        _readerSignal = new AsyncSignal(ioThread);
        CreatedForTests?.Invoke(this);
    }

    /// <summary>Test hook: every connection as it is created (lifetime tests track them weakly).</summary>
    internal static event Action<ZmtpConnection>? CreatedForTests;

    public string Endpoint => _endpoint;

    /// <summary>The byte transport under this connection (tests read its counters).</summary>
    internal IByteTransport Transport => _transport;

    /// <summary>The listener that accepted this connection (Unbind closes its connections), or null.</summary>
    public object? Origin { get; init; }

    /// <summary>For an accepted connection, gives back its slot in the socket's Max_Connections count; called once when it ends.</summary>
    public Action? ReleaseSlot { get; init; }

    /// <summary>Starts an accepted connection on its I/O thread; the context counts it until it ends.</summary>
    public void Start()
    {
        _host.BeginWork();
        if (!_host.TrackConnection(this))
        {
            _transport.Dispose();
            ReleaseSlot?.Invoke();
            _host.EndWork();
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

            // What libzmq's monitor shows when a connection ends: DISCONNECTED with its descriptor.
            _host.Monitor.ReportConnectionClosed(_endpoint, _transport.Handle);
        }
        finally
        {
            _host.UntrackConnection(this);

            // Every way a connection ends comes here once, after its transport is closed.
            ReleaseSlot?.Invoke();
            _host.EndWork();
        }
    }

    public IoThread IoThread => _ioThread;

    /// <summary>Runs the connection to its end. Must be called on <see cref="IoThread"/>.</summary>
    public async Task<DisconnectReason> RunAsync()
    {
        _raw = _host.IsRaw;
        _expectsGroupFrames = _host.SocketType == SocketType.Dish;
        if (_raw)
        {
            return await RunRawAsync().ConfigureAwait(true);
        }

        var options = _host.Options;
        var handshakeTimer = options.HandshakeInterval > 0
            ? _ioThread.AddTimer(options.HandshakeInterval, static s => ((ZmtpConnection)s!).OnHandshakeTimeout(), this)
            : null;

        var mechanismSettings = CreateMechanismSettings();
        var handshake = new ZmtpHandshake(_transport, new HandshakeSettings
        {
            Mechanism = mechanismSettings,
            MaxMessageSize = options.MaxMessageSize,
            ZapExchange = ExchangeWithZapAsync,
        });

        HandshakeResult result;
        try
        {
            result = await handshake.RunAsync().ConfigureAwait(true);
        }
        finally
        {
            // The long-term secret and the PLAIN password are needed for the handshake only: these copies go now,
            // success or not.
            SecretWipe.Wipe(mechanismSettings.CurveSecretKey);
            SecretWipe.Wipe(mechanismSettings.PlainPassword);
            handshakeTimer?.Cancel();
            _zap = null;
        }

        if (result.Outcome != HandshakeOutcome.Succeeded || _closing)
        {
            result.Mechanism?.Dispose();
            var reason = _reason != DisconnectReason.None ? _reason : result.Outcome switch
            {
                HandshakeOutcome.ConnectionLost => DisconnectReason.ConnectionLost,
                HandshakeOutcome.ProtocolError => DisconnectReason.ProtocolError,
                _ => DisconnectReason.HandshakeRejected,
            };
            HandshakeFailureReport.Report(_host.Monitor, _endpoint, result, reason);
            _transport.Dispose();
            _host.Monitor.ReportConnectionClosed(_endpoint, _transport.Handle);
            return reason;
        }

        if (!result.IsZmtp20 && !result.IsZmtp10)
        {
            // libzmq raises HANDSHAKE_SUCCEEDED when a mechanism becomes ready: never for a 1.0 or 2.0 peer (docs/libzmq-behaviour.md L23).
            _host.Monitor.ReportHandshakeSucceeded(_endpoint);
        }

        _mechanism = result.Mechanism;
        _cipher = _mechanism is { EncryptsTraffic: true } ? _mechanism : null;
        var pipe = _connectPipe ?? _host.CreatePipe(fromConnect: false, _endpoint);
        pipe.PeerMinorVersion = result.PeerMinorVersion;
        pipe.PeerIdentity = result.PeerMetadata.Identity;
        pipe.Metadata = result.PeerMetadata;
        pipe.Inbound.DiscardUncommitted();
        _connection = DescribeConnection(pipe, result);
        pipe.Connection = _connection;
        Volatile.Write(ref _pipe, pipe);

        if (result.IsZmtp10 ? !StartZmtp10(pipe, result) : !TryStoreLeftover(result.Leftover.Span))
        {
            // A PING with a TTL in the leftover may have started the heartbeat timer already.
            StopHeartbeats();
            ReleaseState();
            _transport.Dispose();
            _host.Monitor.ReportConnectionClosed(_endpoint, _transport.Handle);
            if (_connectPipe is null)
            {
                _host.Enqueue(pipe, PipeEventKind.Detached);
            }

            return DisconnectReason.ProtocolError;
        }

        pipe.SetEngine(this);
        _host.OnPipeConnected(pipe, this);

        if (result.IsZmtp10)
        {
            // RFC 13 framing both ways (ZmtpConnection.Zmtp10.cs); no commands, so no heartbeats.
            var translator = WriteZmtp10LoopAsync(pipe);
            await ReadZmtp10LoopAsync(pipe).ConfigureAwait(true);
            Close(DisconnectReason.ConnectionLost);
            await translator.ConfigureAwait(true);
            return EndConnection(pipe);
        }

        if (!result.IsZmtp20)
        {
            // A ZMTP 2.0 peer knows no commands, so no PING (libzmq starts heartbeats for 3.x only).
            StartHeartbeats();
        }

        var writer = WriteLoopAsync(pipe);
        await ReadLoopAsync(pipe).ConfigureAwait(true);
        Close(DisconnectReason.ConnectionLost);
        await writer.ConfigureAwait(true);
        StopHeartbeats();
        return EndConnection(pipe);
    }

    /// <summary>After both loops ended: detaches the pipe, drops the connection's state, reports the disconnect.</summary>
    private DisconnectReason EndConnection(StreamPipe pipe)
    {
        pipe.SetEngine(null);
        if (_connectPipe is null || pipe.EndsWithConnection)
        {
            // An accepted pipe (or a connect's under Immediate) dies with its connection: nobody will send what is left.
            pipe.ReleasePayloads();
        }

        ReleaseState();
        _transport.Dispose();

        // The socket hears of the loss before the monitor reports it, so that a caller who saw
        // DISCONNECTED no longer sends to this connection where the pattern drops it (Immediate).
        _host.OnPipeDisconnected(pipe, this, _reason);
        _host.Monitor.ReportConnectionClosed(_endpoint, _transport.Handle);
        return _reason;
    }

    /// <summary>What Socket.GetPeers shows of this connection, fixed as it starts (null <paramref name="result"/>: raw).</summary>
    private PeerConnection DescribeConnection(StreamPipe pipe, HandshakeResult? result)
    {
        Wire.ZmtpSocketTypes.TryParseName(System.Text.Encoding.ASCII.GetBytes(result?.PeerMetadata.SocketType ?? string.Empty), out var peerType);
        bool knownType = result?.PeerMetadata.SocketType is not null;
        string local = _transport.LocalEndpoint;
        string remote = _transport.RemoteEndpoint;
        return new PeerConnection
        {
            // When the OS names no remote end for a connection we made, it is the endpoint we connected to.
            LocalEndpoint = local,
            RemoteEndpoint = remote.Length > 0 || _connectPipe is null ? remote : _endpoint,
            Mechanism = result?.Mechanism is { } mechanism ? Wire.ZmtpMechanismNames.ToText(mechanism.Name) : string.Empty,
            ZmtpVersion = result is null ? null : result.IsZmtp10 ? new Version(1, 0) : result.IsZmtp20 ? new Version(2, 0) : new Version(3, result.PeerMinorVersion),
            PeerSocketType = knownType ? peerType : null,
            UserId = result?.PeerMetadata.UserId ?? string.Empty,
            MessagesReceivedBefore = pipe.Inbound.CommittedMessages,
            BytesReceivedBefore = pipe.Inbound.CommittedBytes,
            MessagesSentBefore = pipe.Outbound.ConsumedMessages,
            BytesSentBefore = pipe.Outbound.ConsumedBytes,
            MessagesDroppedBefore = Volatile.Read(ref pipe.MessagesDroppedAtHwm),
        };
    }

    /// <summary>
    /// The connection has ended: wipes its keys and drops its buffers at once, so nothing
    /// per-connection outlives it even while something still refers to the connection (its connecter
    /// keeps the last one until it reconnects).
    /// </summary>
    private void ReleaseState()
    {
        _mechanism?.Dispose();
        _cipher = null;
        _control = null;
        _controlSpare = null;
        _controlLength = 0;
        _cipherIn = null;
        _cipherOut = null;
        _cipherDirect = null;
        _cipherTail = null;
        _cipherTailLength = 0;
        _zmtp10Decoder?.Abandon();
        _zmtp10Decoder = null;
        _zmtp10In = null;
        _zmtp10Out = null;
    }

    private static bool IsConnectionError(Exception ex) => ex is SocketException or ObjectDisposedException or IOException or InvalidOperationException;
}
