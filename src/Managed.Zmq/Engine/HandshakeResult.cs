using Managed.Zmq.Security;
using Managed.Zmq.Wire;

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

    /// <summary>The peer speaks ZMTP 1.0 (RFC 13): its frames are translated both ways, and it gets no commands either.</summary>
    public bool IsZmtp10 { get; init; }

    /// <summary>
    /// An unversioned ZMTP 1.0 peer of a PUB or XPUB: it will never subscribe (RFC 13 §Broadcast Content), so the
    /// connection starts with a "subscribe to everything" from it, as libzmq's does (docs/libzmq-behaviour.md L2).
    /// </summary>
    public bool SubscribesToAll { get; init; }

    /// <summary>
    /// libzmq raises no handshake event for this failure, only DISCONNECTED: it refuses old peers, and decodes their
    /// identity frames, after its greeting is done (docs/libzmq-behaviour.md L25).
    /// </summary>
    public bool Silent { get; init; }

    /// <summary>The mechanism, ready: it encodes and decodes traffic when it encrypts (CURVE).</summary>
    public IMechanism? Mechanism { get; init; }

    /// <summary>The peer's metadata (Socket-Type, Identity, User-Id...).</summary>
    public PeerMetadata PeerMetadata { get; init; } = PeerMetadata.Empty;

    /// <summary>
    /// For a connection lost during the handshake, the errno libzmq reports with HANDSHAKE_FAILED_NO_DETAIL: EPIPE when the
    /// peer closed the stream, ECONNRESET when it reset it or the stream failed otherwise; 0 when no I/O failed.
    /// </summary>
    public int LostErrno { get; set; }

    /// <summary>Bytes received after the peer's last handshake command: already traffic.</summary>
    public ReadOnlyMemory<byte> Leftover { get; init; }

    public static HandshakeResult Fail(HandshakeOutcome outcome, int protocolError = 0) => new() { Outcome = outcome, ProtocolError = protocolError };

    /// <summary>A failure libzmq reports with DISCONNECTED alone (see <see cref="Silent"/>).</summary>
    public static HandshakeResult FailSilently(HandshakeOutcome outcome) => new() { Outcome = outcome, Silent = true };
}
