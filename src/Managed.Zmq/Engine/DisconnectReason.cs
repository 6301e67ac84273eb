namespace Managed.Zmq.Engine;

/// <summary>Why a connection ended: decides reconnect and the monitor event (first reason wins).</summary>
internal enum DisconnectReason
{
    None = 0,

    /// <summary>The peer closed the stream or the OS reported an error: reconnect (docs/libzmq-behaviour.md L15).</summary>
    ConnectionLost = 100,

    /// <summary>Handshake or heartbeat timer ran out: reconnect (docs/libzmq-behaviour.md L14).</summary>
    Timeout = 101,

    /// <summary>The peer broke ZMTP: no reconnect to that endpoint (docs/libzmq-behaviour.md L15).</summary>
    ProtocolError = 200,

    /// <summary>The handshake failed for a reason that forbids retrying with the same settings (ERROR received, old version, bad socket type).</summary>
    HandshakeRejected = 201,

    /// <summary>We closed it: Disconnect, Unbind, socket close, context termination.</summary>
    LocalClose = 300,
}
