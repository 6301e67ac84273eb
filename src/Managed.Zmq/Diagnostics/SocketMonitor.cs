using System.Buffers.Binary;
using System.Text;

namespace Managed.Zmq.Diagnostics;

/// <summary>
/// A socket's monitor (libzmq monitor v1): events go out as two frames, a 6-byte header (uint16
/// event, int32 value, little-endian) and the endpoint text, on a PAIR socket bound at an inproc
/// endpoint that the application connects to (as in Net.Zmq).
/// </summary>
/// <remarks>
/// Events are raised on I/O threads and user threads alike, so sends to the PAIR are serialised by a
/// lock; they never wait (DontWait): a monitor nobody reads drops events rather than stalling I/O.
/// </remarks>
internal sealed class SocketMonitor
{
    public const int Connected = (int)SocketMonitorEvent.Connected;
    public const int ConnectDelayed = (int)SocketMonitorEvent.ConnectDelayed;
    public const int ConnectRetried = (int)SocketMonitorEvent.ConnectRetried;
    public const int Listening = (int)SocketMonitorEvent.Listening;
    public const int BindFailed = (int)SocketMonitorEvent.BindFailed;
    public const int Accepted = (int)SocketMonitorEvent.Accepted;
    public const int AcceptFailed = (int)SocketMonitorEvent.AcceptFailed;
    public const int Closed = (int)SocketMonitorEvent.Closed;
    public const int CloseFailed = (int)SocketMonitorEvent.CloseFailed;
    public const int Disconnected = (int)SocketMonitorEvent.Disconnected;
    public const int MonitorStopped = (int)SocketMonitorEvent.MonitorStopped;
    public const int HandshakeFailedNoDetail = 0x0800;
    public const int HandshakeSucceeded = 0x1000;
    public const int HandshakeFailedProtocol = 0x2000;
    public const int HandshakeFailedAuth = 0x4000;

    private readonly object _lock = new();
    private IMonitorPeer? _pair;
    private int _mask;

    /// <summary>Starts publishing on <paramref name="pair"/> (already bound), replacing any previous monitor.</summary>
    public void Start(IMonitorPeer pair, int mask)
    {
        Stop();
        lock (_lock)
        {
            _pair = pair;
            _mask = mask;
        }
    }

    /// <summary>Stops: MONITOR_STOPPED goes out last if it was asked for, then the PAIR closes.</summary>
    public void Stop()
    {
        IMonitorPeer? pair;
        lock (_lock)
        {
            pair = _pair;
            if (pair is null)
            {
                return;
            }

            EmitLocked(MonitorStopped, 0, string.Empty);
            _pair = null;
        }

        pair.Close();
    }

    /// <summary>The metrics' socket type tag.</summary>
    private readonly string _typeName;

    public SocketMonitor(string typeName)
    {
        _typeName = typeName;
    }

    public void Emit(int @event, int value, string endpoint)
    {
        ZmqMetrics.OnSocketEvent(_typeName, @event, value, endpoint);
        if (ZmqEventSource.Log.IsEnabled())
        {
            ZmqEventSource.Log.SocketEvent(@event, value, endpoint);
        }

        if (Volatile.Read(ref _pair) is null)
        {
            return;
        }

        lock (_lock)
        {
            EmitLocked(@event, value, endpoint);
        }
    }

    private void EmitLocked(int @event, int value, string endpoint)
    {
        if (_pair is not { } pair || (_mask & @event) == 0)
        {
            return;
        }

        Span<byte> header = stackalloc byte[6];
        BinaryPrimitives.WriteUInt16LittleEndian(header, (ushort)@event);
        BinaryPrimitives.WriteInt32LittleEndian(header[2..], value);
        if (pair.TrySend(header, more: true))
        {
            pair.TrySend(Encoding.UTF8.GetBytes(endpoint), more: false);
        }
    }

    // ------------------------------------------------------------ the events, named as libzmq raises them

    public void ReportHandshakeSucceeded(string endpoint) => Emit(HandshakeSucceeded, 0, endpoint);

    /// <summary>Every connection teardown raises exactly this one event (DISCONNECTED, value = the OS handle).</summary>
    public void ReportConnectionClosed(string endpoint, int handle)
    {
        Emit(Disconnected, handle, endpoint);
    }
}
