namespace Managed.Zmq;

/// <summary>Socket monitor events, used both as a mask for <c>Socket.Monitor</c> and as the event id of each report.</summary>
/// <remarks>
/// Under <see cref="All"/>, the libzmq 4.3 handshake events (2048, 4096, 8192, 16384) are reported too; they have no
/// name here and appear as numeric values.
/// </remarks>
[Flags]
public enum SocketMonitorEvent
{
    /// <summary>No event.</summary>
    None = 0,

    /// <summary>An outgoing connection was established (before the handshake).</summary>
    Connected = 1,

    /// <summary>A connect attempt is pending.</summary>
    ConnectDelayed = 2,

    /// <summary>A reconnect is scheduled; the value is the retry interval in milliseconds.</summary>
    ConnectRetried = 4,

    /// <summary>A bind succeeded.</summary>
    Listening = 8,

    /// <summary>A bind failed.</summary>
    BindFailed = 16,

    /// <summary>An incoming connection was accepted.</summary>
    Accepted = 32,

    /// <summary>An accept failed.</summary>
    AcceptFailed = 64,

    /// <summary>A connection's OS socket was closed.</summary>
    Closed = 128,

    /// <summary>Closing an OS socket failed.</summary>
    CloseFailed = 256,

    /// <summary>An established session ended.</summary>
    Disconnected = 512,

    /// <summary>The monitor is stopping; always the last event.</summary>
    MonitorStopped = 1024,

    /// <summary>Every event, including the unnamed handshake events.</summary>
    All = 0xFFFF,
}
