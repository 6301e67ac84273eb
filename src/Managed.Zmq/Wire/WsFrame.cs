using System.Buffers.Binary;
using System.Diagnostics;
using System.Numerics;
using System.Runtime.InteropServices;

namespace Managed.Zmq.Wire;

/// <summary>
/// Encodes and decodes WebSocket frame headers and masks payloads (RFC 6455 §5.2, §5.3). ZWS 2.0
/// (RFC 45 §Framing) puts each ZMTP frame in one binary message whose first payload octet is the
/// ZMTP flags (0x01 MORE, 0x02 COMMAND) and the rest the frame body, with no ZMTP size.
/// </summary>
internal static class WsFrame
{
    /// <summary>The longest header: 2 octets, an 8-octet extended length and a 4-octet mask key.</summary>
    public const int MaxHeaderLength = 14;

    /// <summary>The longest control frame payload (RFC 6455 §5.5).</summary>
    public const int MaxControlPayload = 125;

    /// <summary>Payload lengths up to this fit in the 7-bit field.</summary>
    private const int MaxSevenBitLength = 125;

    private const byte SixteenBitMarker = 126;
    private const byte SixtyFourBitMarker = 127;
    private const byte FinBit = 0x80;
    private const byte ReservedBits = 0x70;
    private const byte MaskBit = 0x80;

    /// <summary>ZWS 2.0's MORE flag (RFC 45 §Framing): the same bit as ZMTP's.</summary>
    public const byte ZwsMore = 0x01;

    /// <summary>ZWS 2.0's COMMAND flag (RFC 45 §Framing): 0x02, where ZMTP has its LONG bit (ZMTP's COMMAND is 0x04).</summary>
    public const byte ZwsCommand = 0x02;

    /// <summary>The ZWS 2.0 flags octet that starts a binary message.</summary>
    public static byte ToZwsFlags(ZmtpFrameFlags flags) =>
        (byte)(((flags & ZmtpFrameFlags.More) != 0 ? ZwsMore : 0) | ((flags & ZmtpFrameFlags.Command) != 0 ? ZwsCommand : 0));

    /// <summary>The ZMTP flags a ZWS 2.0 flags octet stands for (other bits ignored, as libzmq ignores them).</summary>
    public static ZmtpFrameFlags FromZwsFlags(byte flags) =>
        ((flags & ZwsMore) != 0 ? ZmtpFrameFlags.More : ZmtpFrameFlags.None) | ((flags & ZwsCommand) != 0 ? ZmtpFrameFlags.Command : ZmtpFrameFlags.None);

    /// <summary>The header length for a payload of <paramref name="payloadLength"/> octets.</summary>
    public static int GetHeaderLength(long payloadLength, bool masked)
    {
        int length = payloadLength <= MaxSevenBitLength ? 2 : payloadLength <= ushort.MaxValue ? 4 : 10;
        return masked ? length + sizeof(uint) : length;
    }

    /// <summary>Writes a final frame's header and returns its length; the payload length is the smallest form (RFC 6455 §5.2).</summary>
    public static int WriteHeader(Span<byte> destination, WsOpcode opcode, long payloadLength, bool masked, uint maskKey)
    {
        Debug.Assert(payloadLength >= 0, "A payload length cannot be negative.");
        destination[0] = (byte)(FinBit | (byte)opcode);
        byte mask = masked ? MaskBit : (byte)0;
        int written;
        if (payloadLength <= MaxSevenBitLength)
        {
            destination[1] = (byte)(mask | (byte)payloadLength);
            written = 2;
        }
        else if (payloadLength <= ushort.MaxValue)
        {
            destination[1] = (byte)(mask | SixteenBitMarker);
            BinaryPrimitives.WriteUInt16BigEndian(destination.Slice(2, 2), (ushort)payloadLength);
            written = 4;
        }
        else
        {
            destination[1] = (byte)(mask | SixtyFourBitMarker);
            BinaryPrimitives.WriteUInt64BigEndian(destination.Slice(2, 8), (ulong)payloadLength);
            written = 10;
        }

        if (masked)
        {
            BinaryPrimitives.WriteUInt32LittleEndian(destination.Slice(written, 4), maskKey);
            written += 4;
        }

        return written;
    }

    /// <summary>Decodes the frame header at the start of <paramref name="source"/>.</summary>
    /// <returns>
    /// <see cref="ZmtpStatus.NeedMoreData"/> until the whole header is present; <see cref="ZmtpStatus.Malformed"/>
    /// for reserved bits set (no extension is negotiated), a 64-bit length with its top bit set, a
    /// length not in its shortest form is accepted (RFC 6455 only says SHOULD for the sender), and a
    /// control frame that is fragmented or longer than 125 octets (RFC 6455 §5.5).
    /// </returns>
    public static ZmtpStatus TryReadHeader(ReadOnlySpan<byte> source, out WsFrameHeader header)
    {
        header = default;
        if (source.Length < 2)
        {
            return ZmtpStatus.NeedMoreData;
        }

        byte first = source[0];
        byte second = source[1];
        if ((first & ReservedBits) != 0)
        {
            return ZmtpStatus.Malformed;
        }

        bool final = (first & FinBit) != 0;
        var opcode = (WsOpcode)(first & 0x0F);
        bool masked = (second & MaskBit) != 0;
        int lengthCode = second & 0x7F;
        int offset = 2;
        long length;
        if (lengthCode == SixteenBitMarker)
        {
            if (source.Length < offset + 2)
            {
                return ZmtpStatus.NeedMoreData;
            }

            length = BinaryPrimitives.ReadUInt16BigEndian(source.Slice(offset, 2));
            offset += 2;
        }
        else if (lengthCode == SixtyFourBitMarker)
        {
            if (source.Length < offset + 8)
            {
                return ZmtpStatus.NeedMoreData;
            }

            // RFC 6455 §5.2: the most significant bit MUST be 0.
            ulong wide = BinaryPrimitives.ReadUInt64BigEndian(source.Slice(offset, 8));
            if (wide > long.MaxValue)
            {
                return ZmtpStatus.Malformed;
            }

            length = (long)wide;
            offset += 8;
        }
        else
        {
            length = lengthCode;
        }

        uint maskKey = 0;
        if (masked)
        {
            if (source.Length < offset + 4)
            {
                return ZmtpStatus.NeedMoreData;
            }

            maskKey = BinaryPrimitives.ReadUInt32LittleEndian(source.Slice(offset, 4));
            offset += 4;
        }

        header = new WsFrameHeader(final, opcode, masked, length, maskKey, offset);
        if (header.IsControl && (!final || length > MaxControlPayload))
        {
            return ZmtpStatus.Malformed;
        }

        return ZmtpStatus.Done;
    }

    /// <summary>
    /// XORs <paramref name="data"/> with the mask key in place (RFC 6455 §5.3), starting at payload
    /// octet <paramref name="payloadOffset"/>, so that a payload can be (un)masked in pieces.
    /// </summary>
    public static void Mask(Span<byte> data, uint maskKey, long payloadOffset) => Mask(data, data, maskKey, payloadOffset);

    /// <summary>
    /// Writes <paramref name="source"/> XORed with the mask key into <paramref name="destination"/> (at least as
    /// long; the same span masks in place), starting at payload octet <paramref name="payloadOffset"/>: a copy and
    /// the (un)masking in one pass over the octets.
    /// </summary>
    public static void Mask(ReadOnlySpan<byte> source, Span<byte> destination, uint maskKey, long payloadOffset)
    {
        int length = source.Length;
        if (destination.Length < length)
        {
            throw new ArgumentException("The destination must hold the whole source.", nameof(destination));
        }

        if (length == 0)
        {
            return;
        }

        // Rotate the key so that its first octet lines up with source[0]; then whole vectors and 8-octet words at
        // once. On a little-endian machine the key repeated as 32-bit lanes is its octets in payload order.
        int shift = (int)(payloadOffset & 3) * 8;
        uint rotated = shift == 0 ? maskKey : (maskKey >> shift) | (maskKey << (32 - shift));
        int i = 0;
        if (BitConverter.IsLittleEndian)
        {
            if (Vector.IsHardwareAccelerated && length >= Vector<byte>.Count)
            {
                // The bounds were checked once above (destination holds source); the loop reads and writes by reference.
                var key = Vector.AsVectorByte(new Vector<uint>(rotated));
                ref byte from = ref MemoryMarshal.GetReference(source);
                ref byte to = ref MemoryMarshal.GetReference(destination);
                for (; i <= length - Vector<byte>.Count; i += Vector<byte>.Count)
                {
                    (Vector.LoadUnsafe(ref from, (nuint)i) ^ key).StoreUnsafe(ref to, (nuint)i);
                }
            }

            ulong wide = rotated | ((ulong)rotated << 32);
            for (; i <= length - sizeof(ulong); i += sizeof(ulong))
            {
                BinaryPrimitives.WriteUInt64LittleEndian(destination[i..], BinaryPrimitives.ReadUInt64LittleEndian(source[i..]) ^ wide);
            }
        }

        for (; i < length; i++)
        {
            destination[i] = (byte)(source[i] ^ (byte)(rotated >> ((i & 3) * 8)));
        }
    }
}
