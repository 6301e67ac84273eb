namespace Managed.Zmq.Wire;

/// <summary>Names of <see cref="ZmtpMechanism"/> values as text.</summary>
internal static class ZmtpMechanismNames
{
    /// <summary>
    /// The name as the greeting spells it, without its NUL padding ("NULL", "PLAIN", "CURVE", "GSSAPI"), as
    /// Socket.GetPeers reports it; empty for <see cref="ZmtpMechanism.Unknown"/>.
    /// </summary>
    public static string ToText(ZmtpMechanism mechanism) => mechanism switch
    {
        ZmtpMechanism.Null => "NULL",
        ZmtpMechanism.Plain => "PLAIN",
        ZmtpMechanism.Curve => "CURVE",
        ZmtpMechanism.Gssapi => "GSSAPI",
        _ => string.Empty,
    };
}
