namespace Managed.Zmq.Security;

/// <summary>Where a security mechanism's handshake stands.</summary>
internal enum MechanismStatus
{
    /// <summary>More commands to exchange.</summary>
    Handshaking,

    /// <summary>Waiting for the ZAP handler's reply before answering the peer (RFC 27).</summary>
    WaitingForZap,

    /// <summary>Done: traffic may flow.</summary>
    Ready,

    /// <summary>Failed; <see cref="IMechanism.Error"/> says how (the connection ends).</summary>
    Error,
}
