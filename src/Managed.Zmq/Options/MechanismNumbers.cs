using Managed.Zmq.Wire;

namespace Managed.Zmq.Options;

/// <summary>
/// The one place where the security mechanism meets libzmq's numbers: inside the library a mechanism is a
/// <see cref="ZmtpMechanism"/>; the <c>Mechanism</c> option reads it as libzmq's C API numbers it (ZMQ_NULL 0, ZMQ_PLAIN 1,
/// ZMQ_CURVE 2, ZMQ_GSSAPI 3), which differ from the enum's values.
/// </summary>
internal static class MechanismNumbers
{
    /// <summary>The value getsockopt(ZMQ_MECHANISM) reports for <paramref name="mechanism"/>.</summary>
    public static int ToOptionValue(ZmtpMechanism mechanism) => mechanism switch
    {
        ZmtpMechanism.Plain => ZmqConstants.ZMQ_PLAIN,
        ZmtpMechanism.Curve => ZmqConstants.ZMQ_CURVE,
        ZmtpMechanism.Gssapi => ZmqConstants.ZMQ_GSSAPI,

        // Unknown is never configured: only a peer's greeting can name a mechanism we do not know.
        _ => ZmqConstants.ZMQ_NULL,
    };
}
