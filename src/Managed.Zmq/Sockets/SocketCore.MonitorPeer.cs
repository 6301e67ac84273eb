using Managed.Zmq.Diagnostics;
using Managed.Zmq.Patterns;

namespace Managed.Zmq.Sockets;

/// <summary>The socket core as the PAIR a monitor publishes on (<see cref="IMonitorPeer"/>).</summary>
internal sealed partial class SocketCore : IMonitorPeer
{
    bool IMonitorPeer.TrySend(ReadOnlySpan<byte> frame, bool more) =>
        Send(frame, more, dontWait: true) == SendStatus.Sent;

    void IMonitorPeer.Close() => Close();
}
