namespace Managed.Zmq.Engine;

/// <summary>What a handshake learnt about the peer, plus any bytes read past the handshake.</summary>
internal sealed class HandshakeResult
{
    public HandshakeOutcome Outcome { get; init; }

    /// <summary>A <c>ZMQ_PROTOCOL_ERROR_*</c> code when <see cref="Outcome"/> is ProtocolError.</summary>
    public int ProtocolError { get; init; }

    /// <summary>The ERROR reason the peer sent, when <see cref="Outcome"/> is PeerError.</summary>
    public string PeerErrorReason { get; init; } = string.Empty;

    public byte PeerMinorVersion { get; init; }

    public SocketType? PeerSocketType { get; init; }

    /// <summary>The peer's <c>Identity</c> property (empty when absent).</summary>
    public byte[] PeerIdentity { get; init; } = [];

    /// <summary>Bytes received after the peer's last handshake command: already traffic.</summary>
    public ReadOnlyMemory<byte> Leftover { get; init; }

    public static HandshakeResult Fail(HandshakeOutcome outcome, int protocolError = 0) => new() { Outcome = outcome, ProtocolError = protocolError };
}
