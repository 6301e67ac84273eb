using System.Net.Sockets;
using Managed.Zmq.Security;
using Managed.Zmq.Threading;
using Managed.Zmq.Transports;
using Managed.Zmq.Options;
using Managed.Zmq.Pipes;
using Managed.Zmq.Security.Zap;

namespace Managed.Zmq.Engine;

/// <summary>Ending a connection: now (I/O thread), on request from any thread (<see cref="IPipeEngine"/>, <see cref="IConnection"/>), or once drained (LINGER).</summary>
internal sealed partial class ZmtpConnection
{
    /// <summary>Ends the connection; the first reason wins. I/O thread only.</summary>
    private void Close(DisconnectReason reason)
    {
        if (_closing)
        {
            return;
        }

        _closing = true;
        _reason = reason;
        AnnouncePublished();
        _transport.Dispose();
        _zap?.Abandon();
        _lingerTimer?.Cancel();
        _lingerTimer = null;
        _writerSignal.Set();
        _readerSignal.Set();
    }

    void IPipeEngine.WakeWriter() => _writerSignal.Set();

    void IPipeEngine.WakeReader() => _readerSignal.Set();

    void IConnection.Close() => ((IPipeEngine)this).Close();

    void IPipeEngine.Close()
    {
        _ioThread.Schedule(static s => ((ZmtpConnection)s!).Close(DisconnectReason.LocalClose), this);
    }

    private PeerConnection? _connection;

    PeerConnection? IPipeEngine.Connection => Volatile.Read(ref _connection);

    void IPipeEngine.Drop()
    {
        _ioThread.Schedule(static s => ((ZmtpConnection)s!).Close(DisconnectReason.ConnectionLost), this);
    }

    /// <summary>
    /// Socket closing with LINGER: finish sending what is queued, then close; with a positive
    /// <paramref name="lingerMilliseconds"/>, close at that deadline at the latest. Any thread.
    /// </summary>
    public void CloseWhenDrained(int lingerMilliseconds = -1)
    {
        _ioThread.Schedule(static s =>
        {
            var (self, linger) = ((ZmtpConnection, int))s!;
            self._closeWhenDrained = true;
            self._writerSignal.Set();
            if (linger > 0 && !self._closing)
            {
                self._lingerTimer?.Cancel();
                self._lingerTimer = self._ioThread.AddTimer(linger, static c => ((ZmtpConnection)c!).Close(DisconnectReason.LocalClose), self);
            }
        }, (this, lingerMilliseconds));
    }
}
