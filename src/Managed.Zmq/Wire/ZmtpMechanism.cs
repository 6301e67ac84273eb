namespace Managed.Zmq.Wire;

/// <summary>The security mechanisms a ZMTP 3.x greeting can name (RFC 23 §Authentication and Confidentiality).</summary>
internal enum ZmtpMechanism
{
    /// <summary>A name this implementation does not know; the connection cannot proceed.</summary>
    Unknown = 0,

    /// <summary>"NULL": no authentication, no confidentiality (RFC 23 §The NULL Security Mechanism).</summary>
    Null,

    /// <summary>"PLAIN": clear-text user name and password (RFC 24).</summary>
    Plain,

    /// <summary>"CURVE": CurveZMQ (RFC 25, 26).</summary>
    Curve,

    /// <summary>"GSSAPI" (RFC 38); recognised only so that it can be rejected by name.</summary>
    Gssapi,
}
