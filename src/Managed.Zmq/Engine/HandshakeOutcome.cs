namespace Managed.Zmq.Engine;

/// <summary>How a handshake ended; failures map onto libzmq's monitor events.</summary>
internal enum HandshakeOutcome
{
    Succeeded,

    /// <summary>The peer closed, or an I/O error, before the handshake finished (HANDSHAKE_FAILED_NO_DETAIL).</summary>
    ConnectionLost,

    /// <summary>The peer broke the protocol (HANDSHAKE_FAILED_PROTOCOL with <see cref="HandshakeResult.ProtocolError"/>, unless the mechanism fails it silently).</summary>
    ProtocolError,

    /// <summary>The peer sent ERROR (HANDSHAKE_FAILED_AUTH when the reason is a ZAP status).</summary>
    PeerError,

    /// <summary>The peer speaks ZMTP 1.0 or 2.0, which cannot authenticate, and our socket uses security or ZAP (docs/libzmq-behaviour.md L3).</summary>
    UnsupportedVersion,
}
