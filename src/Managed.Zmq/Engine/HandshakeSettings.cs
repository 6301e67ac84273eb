using Managed.Zmq.Wire;

namespace Managed.Zmq.Engine;

/// <summary>What the local side brings to a ZMTP handshake.</summary>
internal sealed class HandshakeSettings
{
    public required SocketType SocketType { get; init; }

    /// <summary>Our routing id, announced as <c>Identity</c> by REQ, DEALER and ROUTER.</summary>
    public byte[] RoutingId { get; init; } = [];

    public ZmtpMechanism Mechanism { get; init; } = ZmtpMechanism.Null;

    public bool AsServer { get; init; }

    /// <summary>Largest frame accepted (MAXMSGSIZE), -1 for no limit; applies to handshake commands too (L10).</summary>
    public long MaxMessageSize { get; init; } = -1;
}
