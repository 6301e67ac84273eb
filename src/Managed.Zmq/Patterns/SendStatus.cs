namespace Managed.Zmq.Patterns;

/// <summary>Outcome of a pattern's send attempt; the socket maps it onto libzmq's errno.</summary>
internal enum SendStatus
{
    Sent,
    WouldBlock,
    NotSupported,
    InvalidState,
    HostUnreachable,

    /// <summary>The message is not one the socket type can send (a multipart message on SERVER or CLIENT: EINVAL).</summary>
    InvalidArgument,

    /// <summary>The context was shut down (ETERM).</summary>
    Terminated,

    /// <summary>The socket was disposed from another thread while the call waited.</summary>
    Closed,
}
