using Managed.Zmq.Threading;
using Managed.Zmq.Wire;
using Managed.Zmq.Internal;

namespace Managed.Zmq.Engine;

internal sealed partial class ZmtpConnection
{
    private const int ControlCapacity = Tuning.Engine.ControlCapacity;

    /// <summary>Ticks heartbeats and liveness checks on the I/O thread (RFC 37 §Connection Heartbeating).</summary>
    private ReactorTimer? _heartbeatTimer;
    private int _heartbeatPeriod;

    /// <summary>When traffic last arrived (any frame counts as a sign of life, docs/libzmq-behaviour.md L13).</summary>
    private long _lastReceived;

    private long _lastPingSent;
    private long _firstUnansweredPing;
    private bool _pingOutstanding;

    /// <summary>The transport's keep-alive count at the last check (IByteTransport.KeepAlivesReceived).</summary>
    private long _keepAlivesSeen;

    /// <summary>The TTL the peer asked for in its last PING, in ms; 0 when none.</summary>
    private int _peerTtl;

    /// <summary>Starts HEARTBEAT_IVL pings once the handshake is done (docs/libzmq-behaviour.md L13: never before).</summary>
    private void StartHeartbeats()
    {
        _lastReceived = Environment.TickCount64;
        int interval = _host.Options.HeartbeatInterval;
        if (interval > 0)
        {
            EnsureHeartbeatTimer(interval);
        }
    }

    private void EnsureHeartbeatTimer(int period)
    {
        period = Math.Max(Tuning.Engine.MinHeartbeatTimerMilliseconds, period);
        if (_heartbeatTimer is not null && _heartbeatPeriod <= period)
        {
            return;
        }

        _heartbeatPeriod = period;
        _heartbeatTimer?.Cancel();
        _heartbeatTimer = _ioThread.AddTimer(period, static s => ((ZmtpConnection)s!).OnHeartbeatTick(), this);
    }

    private void StopHeartbeats()
    {
        _heartbeatTimer?.Cancel();
        _heartbeatTimer = null;
    }

    private void OnHeartbeatTick()
    {
        if (_closing)
        {
            return;
        }

        _heartbeatTimer = _ioThread.AddTimer(_heartbeatPeriod, static s => ((ZmtpConnection)s!).OnHeartbeatTick(), this);

        // Keep-alives the transport answered or consumed itself (ws ping and pong frames) are traffic too.
        long keepAlives = _transport.KeepAlivesReceived;
        if (keepAlives != _keepAlivesSeen)
        {
            _keepAlivesSeen = keepAlives;
            OnTrafficReceived();
        }

        // Input may wait unread in the kernel while the socket's thread had the read turn away (ZmtpConnection.DirectRead.cs):
        // the read loop takes it back, and the timeouts are judged at the next tick.
        bool unread = _transport.ReclaimLentHere();

        long now = Environment.TickCount64;
        var options = _host.Options;

        // The peer's TTL: nothing at all from it for that long means it is gone.
        if (!unread && _peerTtl > 0 && now - _lastReceived > _peerTtl)
        {
            Close(DisconnectReason.Timeout);
            return;
        }

        // Our first PING since the last traffic went unanswered for HEARTBEAT_TIMEOUT (libzmq starts
        // that timer once and later PINGs do not restart it, docs/libzmq-behaviour.md L13).
        if (!unread && _pingOutstanding && now - _firstUnansweredPing >= options.HeartbeatTimeout)
        {
            Close(DisconnectReason.Timeout);
            return;
        }

        int interval = options.HeartbeatInterval;
        if (interval > 0 && now - _lastPingSent >= interval - (_heartbeatPeriod / 2))
        {
            // Encrypted, a PING reaches a ws peer as a command libzmq's ws engine does not read: the
            // transport's own ping goes instead, as libzmq's ws engine sends it (docs/ws.md, Wire).
            if (_cipher is null || !_transport.TrySendPing())
            {
                // libzmq's PING is exactly 04 PING + TTL in deciseconds, no context (docs/libzmq-behaviour.md L13).
                QueueControl(static (span, ttl) => ZmtpHeartbeat.WritePing(span, ttl, default), ZmtpHeartbeat.ToTtlDeciseconds(options.HeartbeatTtl));
            }

            _lastPingSent = now;
            if (!_pingOutstanding)
            {
                _firstUnansweredPing = now;
                _pingOutstanding = true;
            }
        }
    }

    /// <summary>Read loop: traffic arrived.</summary>
    private void OnTrafficReceived()
    {
        _lastReceived = Environment.TickCount64;
        _pingOutstanding = false;
    }

    /// <summary>Read loop: a PING arrived; answer it and honour its TTL.</summary>
    private void OnPing(ushort ttlDeciseconds, ReadOnlySpan<byte> context)
    {
        // RFC 37: reply with PONG carrying the same context (at most 16 octets).
        var control = _control ??= new byte[ControlCapacity];
        if (control.Length - _controlLength >= ZmtpHeartbeat.GetPongFrameLength(context.Length))
        {
            _controlLength += ZmtpHeartbeat.WritePong(control.AsSpan(_controlLength), context);
            _writerSignal.Set();
        }

        int ttl = ttlDeciseconds * 100;
        if (ttl > 0)
        {
            _peerTtl = ttl;
            EnsureHeartbeatTimer(ttl / Tuning.Engine.HeartbeatChecksPerTtl);
        }
    }

    private void QueueControl(Func<Span<byte>, ushort, int> write, ushort argument)
    {
        var control = _control ??= new byte[ControlCapacity];
        if (control.Length - _controlLength >= 32)
        {
            _controlLength += write(control.AsSpan(_controlLength), argument);
            _writerSignal.Set();
        }
    }
}
