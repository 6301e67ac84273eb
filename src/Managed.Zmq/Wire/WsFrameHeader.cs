namespace Managed.Zmq.Wire;

/// <summary>A decoded WebSocket frame header (RFC 6455 §5.2).</summary>
/// <param name="Final">FIN: the last frame of its message.</param>
/// <param name="Opcode">What the payload is.</param>
/// <param name="Masked">MASK: the payload is XORed with <paramref name="MaskKey"/> (every client-to-server frame).</param>
/// <param name="PayloadLength">The payload length in octets.</param>
/// <param name="MaskKey">The masking key as four octets in wire order packed into an int (little-endian load).</param>
/// <param name="HeaderLength">Octets the header takes (2 to 14).</param>
internal readonly record struct WsFrameHeader(bool Final, WsOpcode Opcode, bool Masked, long PayloadLength, uint MaskKey, int HeaderLength)
{
    /// <summary>True for close, ping and pong (opcodes 0x8 and up, RFC 6455 §5.5).</summary>
    public bool IsControl => (byte)Opcode >= 0x8;
}
