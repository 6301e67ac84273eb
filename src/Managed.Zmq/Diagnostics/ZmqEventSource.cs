using System.Diagnostics.Tracing;

namespace Managed.Zmq.Diagnostics;

/// <summary>
/// The library's in-box trace source, named "Managed.Zmq": internal errors (also in Release builds), and every
/// socket monitor event (connection lifecycle, handshake failures) whether or not the socket has a monitor.
/// dotnet-trace, dotnet-monitor and any <see cref="EventListener"/> see it; when nobody listens, each call
/// costs one <see cref="EventSource.IsEnabled()"/> check.
/// </summary>
[EventSource(Name = SourceName)]
internal sealed class ZmqEventSource : EventSource
{
    public const string SourceName = "Managed.Zmq";

    /// <summary>Event ids; stable, as tools filter on them.</summary>
    public const int InternalErrorId = 1;
    public const int SocketEventId = 2;
    public const int ConnectionCapReachedId = 3;

    public static readonly ZmqEventSource Log = new();

    private ZmqEventSource()
    {
    }

    /// <summary>An unexpected exception caught on an I/O thread; the connection it belonged to was closed.</summary>
    [Event(InternalErrorId, Level = EventLevel.Error, Message = "Managed.Zmq internal error: {0}: {1}")]
    public void InternalError(string exceptionType, string message, string details)
    {
        WriteEvent(InternalErrorId, exceptionType, message, details);
    }

    /// <summary>A socket monitor event with libzmq's number and value (zmq_socket_monitor), and its endpoint.</summary>
    [Event(SocketEventId, Level = EventLevel.Informational, Message = "socket event {0} value {1} on {2}")]
    public void SocketEvent(int monitorEvent, int value, string endpoint)
    {
        WriteEvent(SocketEventId, monitorEvent, value, endpoint);
    }

    /// <summary>
    /// A listener stopped accepting because its socket holds Max_Connections accepted connections (libzmq has no
    /// such cap, hence no monitor event). Once per episode: until the listen queue is next found empty.
    /// </summary>
    [Event(ConnectionCapReachedId, Level = EventLevel.Warning, Message = "Max_Connections ({0}) reached: {1} stops accepting until a connection closes")]
    public void ConnectionCapReached(int maxConnections, string endpoint)
    {
        WriteEvent(ConnectionCapReachedId, maxConnections, endpoint);
    }
}
