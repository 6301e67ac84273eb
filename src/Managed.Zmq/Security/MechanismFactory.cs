using System.Runtime.CompilerServices;
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
                return CreatePlain(settings);
            case ZmtpMechanism.Curve:
                return CreateCurve(settings);
            default:
                ThrowHelper.ThrowArgumentException("Only NULL, PLAIN and CURVE are supported.", nameof(settings));
                return null;
        }
    }

    // PLAIN and CURVE are built in methods of their own, never inlined: compiling Create (which
    // every connection runs) then does not load the PLAIN and CURVE types, whose code uses
    // System.Security.Cryptography; a process that speaks only NULL never maps that assembly.
    [MethodImpl(MethodImplOptions.NoInlining)]
    private static IMechanism CreatePlain(MechanismSettings settings)
        => settings.AsServer ? new PlainServer(settings) : new PlainClient(settings);

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static IMechanism CreateCurve(MechanismSettings settings)
        => settings.AsServer ? new CurveServer(settings) : new CurveClient(settings);
}
