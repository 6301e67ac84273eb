using Managed.Zmq.Security;

namespace Managed.Zmq.Engine;

/// <summary>What the local side brings to a ZMTP handshake.</summary>
internal sealed class HandshakeSettings
{
    /// <summary>The security mechanism's settings (its name goes in the greeting).</summary>
    public required MechanismSettings Mechanism { get; init; }

    /// <summary>Largest frame accepted (MAXMSGSIZE), -1 for no limit; applies to handshake commands too (docs/libzmq-behaviour.md L10).</summary>
    public long MaxMessageSize { get; init; } = -1;

    /// <summary>Carries a ZAP request to the handler and returns its reply frames (null when there is none).</summary>
    public Func<IReadOnlyList<byte[]>, ValueTask<IReadOnlyList<byte[]>?>>? ZapExchange { get; init; }
}
