using Managed.Zmq.Wire;

namespace Managed.Zmq.Transports.Ws;

/// <summary>
/// The Sec-WebSocket-Protocol names of ZWS 2.0 (RFC 45 §Handshake) and libzmq's additions: each
/// names the ZMTP mechanism that runs after the upgrade (docs/libzmq-behaviour.md L22).
/// </summary>
internal static class WsProtocols
{
    public const string Null = "ZWS2.0/NULL";
    public const string Plain = "ZWS2.0/PLAIN";

    /// <summary>Not in RFC 45; libzmq offers and accepts it for CURVE.</summary>
    public const string Curve = "ZWS2.0/CURVE";

    /// <summary>The protocol for our mechanism; the only one we offer or accept (RFC 45's bare "ZWS2.0", without a mechanism, is not spoken here).</summary>
    public static string For(ZmtpMechanism mechanism) => mechanism switch
    {
        ZmtpMechanism.Plain => Plain,
        ZmtpMechanism.Curve => Curve,
        _ => Null,
    };
}
