namespace Managed.Zmq.Pipes;

/// <summary>What an I/O thread tells a socket about one of its pipes.</summary>
internal enum PipeEventKind
{
    /// <summary>A pipe joins the socket (an accepted connection finished its handshake).</summary>
    Attached,

    /// <summary>A handshake completed over the pipe (first connect or reconnect).</summary>
    Connected,

    /// <summary>The connection under a long-lived (connect) pipe was lost; the pipe stays.</summary>
    Disconnected,

    /// <summary>The pipe leaves the socket with its queued messages.</summary>
    Detached,

    /// <summary>inproc: the peer socket closed; deliver what is queued, then detach.</summary>
    PeerClosed,
}
