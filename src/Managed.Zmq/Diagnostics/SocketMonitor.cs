using Managed.Zmq.Engine;

namespace Managed.Zmq.Diagnostics;

/// <summary>
/// The socket's monitor event source (libzmq monitor v1 events). The transports and engines report
/// here; publishing the events on a monitor PAIR socket needs inproc and arrives with that issue,
/// so for now the reports are counted, which tests use to check one teardown event per connection.
/// </summary>
internal sealed class SocketMonitor
{
    private long _connected;
    private long _disconnected;
    private long _handshakeFailures;

    public long ConnectionsUp => Interlocked.Read(ref _connected);

    public long ConnectionsDown => Interlocked.Read(ref _disconnected);

    public long HandshakeFailures => Interlocked.Read(ref _handshakeFailures);

    public void HandshakeSucceeded(string endpoint) => Interlocked.Increment(ref _connected);

    public void HandshakeFailed(string endpoint, HandshakeResult result, DisconnectReason reason) => Interlocked.Increment(ref _handshakeFailures);

    public void Disconnected(string endpoint, DisconnectReason reason) => Interlocked.Increment(ref _disconnected);
}
