using Managed.Zmq.Internal;
using Managed.Zmq.Wire;

namespace Managed.Zmq.Security;

/// <summary>Creates the mechanism a connection uses, from the socket's options.</summary>
internal static class MechanismFactory
{
    /// <summary>
    /// NULL, PLAIN or CURVE; the role comes from <see cref="MechanismSettings.AsServer"/>, never from
    /// the greeting (docs/libzmq-behaviour.md L5).
    /// </summary>
    public static IMechanism Create(MechanismSettings settings)
    {
        ArgumentNullException.ThrowIfNull(settings);
        switch (settings.Mechanism)
        {
            case ZmtpMechanism.Null:
                return new NullMechanism(settings);
            case ZmtpMechanism.Plain:
                return settings.AsServer ? new PlainServer(settings) : new PlainClient(settings);
            case ZmtpMechanism.Curve:
                return settings.AsServer ? new CurveServer(settings) : new CurveClient(settings);
            default:
                ThrowHelper.ThrowArgumentException("Only NULL, PLAIN and CURVE are supported.", nameof(settings));
                return null;
        }
    }
}
