using Managed.Zmq.Security;

namespace Managed.Zmq.Engine;

/// <summary>What a handshake learnt about the peer, plus any bytes read past the handshake.</summary>
internal sealed class HandshakeResult
{
    public HandshakeOutcome Outcome { get; init; }

    /// <summary>A <c>ZMQ_PROTOCOL_ERROR_*</c> code when <see cref="Outcome"/> is ProtocolError.</summary>
    public int ProtocolError { get; init; }

    /// <summary>How the mechanism failed (monitor event and value), when it did.</summary>
    public MechanismError? MechanismError { get; init; }

    public byte PeerMinorVersion { get; init; }

    /// <summary>The peer speaks ZMTP 2.0 (RFC 15): no commands may be sent to it, so no heartbeats.</summary>
    public bool IsZmtp20 { get; init; }

    /// <summary>The mechanism, ready: it encodes and decodes traffic when it encrypts (CURVE).</summary>
    public IMechanism? Mechanism { get; init; }

    /// <summary>The peer's metadata (Socket-Type, Identity, User-Id...).</summary>
    public PeerMetadata PeerMetadata { get; init; } = PeerMetadata.Empty;

    /// <summary>Bytes received after the peer's last handshake command: already traffic.</summary>
    public ReadOnlyMemory<byte> Leftover { get; init; }

    public static HandshakeResult Fail(HandshakeOutcome outcome, int protocolError = 0) => new() { Outcome = outcome, ProtocolError = protocolError };
}
