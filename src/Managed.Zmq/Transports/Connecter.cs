using System.Net.Sockets;
using Managed.Zmq.Core;
using Managed.Zmq.Diagnostics;
using Managed.Zmq.Engine;
using Managed.Zmq.Threading;

namespace Managed.Zmq.Transports;

/// <summary>
/// A connected tcp:// or ipc:// endpoint: connects in the background, runs one engine at a time
/// over its long-lived pipe, and reconnects after RECONNECT_IVL (doubling up to RECONNECT_IVL_MAX)
/// when the connection is lost, but not after a protocol error (L15).
/// </summary>
internal sealed class Connecter : IEndpointHandle
{
    private readonly SocketCore _socket;
    private readonly TransportAddress _address;
    private readonly IoThread _ioThread;
    private readonly CancellationTokenSource _stop = new();
    private ZmtpConnection? _current;
    private bool _stopWhenDrained;
    private Timer? _lingerTimer;

    public Connecter(SocketCore socket, TransportAddress address, Pipe pipe)
    {
        _socket = socket;
        _address = address;
        Pipe = pipe;
        _ioThread = socket.Context.NextIoThread();
    }

    public Pipe Pipe { get; }

    public string Address => _address.Original;

    public string ResolvedAddress => _address.Original;

    public bool IsBound => false;

    public void Start()
    {
        _socket.Context.BeginWork();
        _ioThread.Schedule(static s => _ = ((Connecter)s!).RunAsync(), this);
    }

    private async Task RunAsync()
    {
        var options = _socket.Options;
        int interval = options.ReconnectInterval;
        try
        {
            while (!_stop.IsCancellationRequested)
            {
                var connected = await TryConnectAsync().ConfigureAwait(true);
                if (connected is not null)
                {
                    interval = options.ReconnectInterval;
                    var connection = new ZmtpConnection(_socket, new SocketByteTransport(connected), _ioThread, _address.Original, Pipe);
                    _current = connection;
                    if (_stopWhenDrained)
                    {
                        connection.CloseWhenDrained();
                    }

                    var reason = await connection.RunAsync().ConfigureAwait(true);
                    _current = null;
                    if (reason is DisconnectReason.ProtocolError or DisconnectReason.HandshakeRejected)
                    {
                        // L15: a peer that broke the protocol is not retried; the pipe ends with its messages.
                        _socket.Enqueue(Pipe, PipeEventKind.Detached);
                        return;
                    }
                }

                if (_stop.IsCancellationRequested || options.ReconnectInterval < 0 || (_stopWhenDrained && !Pipe.Outbound.HasData))
                {
                    return;
                }

                // RFC 23 §Error Handling: reconnect after a short, randomised delay that grows on repeats.
                int delay = interval + (interval > 1 ? Random.Shared.Next(interval) : 0);
                _socket.Monitor.Emit(SocketMonitor.ConnectRetried, interval, _address.Original);
                try
                {
                    await Task.Delay(delay, _stop.Token).ConfigureAwait(true);
                }
                catch (OperationCanceledException)
                {
                    return;
                }

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
            _lingerTimer?.Dispose();
            _socket.Context.EndWork();
        }
    }

    private async ValueTask<System.Net.Sockets.Socket?> TryConnectAsync()
    {
        System.Net.Sockets.Socket? socket = null;
        int handle = -1;
        try
        {
            var endPoint = await _address.ResolveAsync(_stop.Token).ConfigureAwait(true);
            socket = _address.CreateSocket(endPoint.AddressFamily);
            SocketTuning.Apply(socket, _socket.Options);

            handle = (int)socket.Handle;
            _socket.Monitor.Emit(SocketMonitor.ConnectDelayed, ZmqConstants.EINPROGRESS, _address.Original);

            int timeout = _socket.Options.ConnectTimeout;
            if (timeout > 0)
            {
                using var timeoutSource = CancellationTokenSource.CreateLinkedTokenSource(_stop.Token);
                timeoutSource.CancelAfter(timeout);
                await socket.ConnectAsync(endPoint, timeoutSource.Token).ConfigureAwait(true);
            }
            else
            {
                await socket.ConnectAsync(endPoint, _stop.Token).ConfigureAwait(true);
            }

            _socket.Monitor.Emit(SocketMonitor.Connected, handle, _address.Original);
            return socket;
        }
        catch (Exception ex) when (ex is SocketException or OperationCanceledException or ObjectDisposedException)
        {
            socket?.Dispose();
            if (socket is not null)
            {
                _socket.Monitor.Emit(SocketMonitor.Closed, handle, _address.Original);
            }

            return null;
        }
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
        if (lingerMilliseconds == 0 || !Pipe.Outbound.HasData)
        {
            _stop.Cancel();
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
            _lingerTimer = new Timer(static s => ((Connecter)s!).Stop(0), this, lingerMilliseconds, Timeout.Infinite);
        }
    }
}
