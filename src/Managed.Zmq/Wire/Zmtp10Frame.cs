using System.Buffers.Binary;
using System.Diagnostics;

namespace Managed.Zmq.Wire;

/// <summary>
/// Encodes and decodes ZMTP 1.0 frame headers (RFC 13 §The Framing Layer): a length that counts the
/// flags octet too, then the flags octet, then the body. The length is one octet, or 0xFF followed by
/// an 8-octet big-endian value.
/// </summary>
/// <remarks>
/// The headers are the same size as ZMTP 3.x's (2 octets, or 10 here against 9 there) but in the other
/// order, so a ZMTP 1.0 connection translates every frame between this form and the queue's ZMTP 3.x form.
/// </remarks>
internal static class Zmtp10Frame
{
    /// <summary>The header with a one-octet length: length, flags.</summary>
    public const int ShortHeaderLength = 2;

    /// <summary>The header with an 8-octet length: 0xFF, length, flags.</summary>
    public const int LongHeaderLength = 10;

    /// <summary>The escape octet that introduces an 8-octet length.</summary>
    public const byte LongLengthMarker = 0xFF;

    /// <summary>Bit 0 of the flags octet; bits 1–7 are reserved (RFC 13 §The Framing Layer).</summary>
    public const byte MoreFlag = 0x01;

    /// <summary>The longest body a one-octet length carries: the length (body + flags octet) stays below 0xFF.</summary>
    /// <remarks>libzmq's encoder switches to the long form at a length of 255 (docs/libzmq-behaviour.md L25), and so do we.</remarks>
    public const int MaxShortBodyLength = LongLengthMarker - 2;

    /// <summary>The header length the encoder uses for a body of <paramref name="bodyLength"/> octets.</summary>
    public static int GetHeaderLength(long bodyLength)
    {
        Debug.Assert(bodyLength >= 0, "A body length cannot be negative.");
        return bodyLength <= MaxShortBodyLength ? ShortHeaderLength : LongHeaderLength;
    }

    /// <summary>Writes a frame header for <paramref name="bodyLength"/> octets and returns its length (2 or 10).</summary>
    /// <remarks>Only MORE is ever set: the reserved bits SHOULD be zero (RFC 13).</remarks>
    public static int WriteHeader(Span<byte> destination, long bodyLength, bool more)
    {
        Debug.Assert(bodyLength >= 0 && bodyLength < long.MaxValue, "The length must leave room for the flags octet.");
        byte flags = more ? MoreFlag : (byte)0;
        if (bodyLength <= MaxShortBodyLength)
        {
            destination[1] = flags;
            destination[0] = (byte)(bodyLength + 1);
            return ShortHeaderLength;
        }

        destination[9] = flags;
        BinaryPrimitives.WriteUInt64BigEndian(destination.Slice(1, 8), (ulong)bodyLength + 1);
        destination[0] = LongLengthMarker;
        return LongHeaderLength;
    }

    /// <summary>How long the header starting with <paramref name="firstOctet"/> is.</summary>
    public static int GetHeaderLength(byte firstOctet) => firstOctet == LongLengthMarker ? LongHeaderLength : ShortHeaderLength;

    /// <summary>Decodes the frame header at the start of <paramref name="source"/>.</summary>
    /// <returns>
    /// <see cref="ZmtpStatus.NeedMoreData"/> until the whole header (2 or 10 octets) is present;
    /// <see cref="ZmtpStatus.Malformed"/> for a length of 0 (RFC 13: there is always a flags octet; libzmq's decoder
    /// closes the connection on it) or one no frame can have (above 2^63).
    /// </returns>
    /// <remarks>The flags octet's reserved bits are ignored, as libzmq ignores them: only MORE is read.</remarks>
    public static ZmtpStatus TryReadHeader(ReadOnlySpan<byte> source, out long bodyLength, out bool more, out int headerLength)
    {
        bodyLength = 0;
        more = false;
        headerLength = 0;
        if (source.IsEmpty)
        {
            return ZmtpStatus.NeedMoreData;
        }

        int length = GetHeaderLength(source[0]);
        ulong size = source[0];
        if (length == LongHeaderLength)
        {
            // The 8-octet length can be judged before the flags octet arrives.
            if (source.Length < LongHeaderLength - 1)
            {
                return ZmtpStatus.NeedMoreData;
            }

            size = BinaryPrimitives.ReadUInt64BigEndian(source.Slice(1, 8));
            if (size > long.MaxValue)
            {
                return ZmtpStatus.Malformed;
            }
        }

        if (size == 0)
        {
            return ZmtpStatus.Malformed;
        }

        if (source.Length < length)
        {
            return ZmtpStatus.NeedMoreData;
        }

        bodyLength = (long)size - 1;
        more = (source[length - 1] & MoreFlag) != 0;
        headerLength = length;
        return ZmtpStatus.Done;
    }
}
