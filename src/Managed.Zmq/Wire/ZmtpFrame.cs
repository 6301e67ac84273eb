using System.Buffers.Binary;
using System.Diagnostics;

namespace Managed.Zmq.Wire;

/// <summary>Encodes and decodes ZMTP 3.x frame headers (RFC 37 §Framing, as in RFC 23).</summary>
internal static class ZmtpFrame
{
    /// <summary>The longest header: one flags octet and an 8-octet size.</summary>
    public const int MaxHeaderLength = 9;

    /// <summary>A header with a one-octet size.</summary>
    public const int ShortHeaderLength = 2;

    /// <summary>The largest body a short size can describe.</summary>
    public const int MaxShortBodyLength = byte.MaxValue;

    // Only the three defined bits survive decoding; RFC 23 §Framing reserves the rest and libzmq
    // ignores them on receipt (docs/libzmq-behaviour.md L10), so a peer that sets them must not change what we decode.
    public const ZmtpFrameFlags DefinedFlags = ZmtpFrameFlags.More | ZmtpFrameFlags.Long | ZmtpFrameFlags.Command;

    /// <summary>The header length the encoder uses for a body of <paramref name="bodyLength"/> octets.</summary>
    /// <remarks>A long size is used only above 255 octets, exactly as libzmq's encoder does (docs/libzmq-behaviour.md L10).</remarks>
    public static int GetHeaderLength(long bodyLength)
    {
        Debug.Assert(bodyLength >= 0, "A body length cannot be negative.");
        return bodyLength <= MaxShortBodyLength ? ShortHeaderLength : MaxHeaderLength;
    }

    /// <summary>Writes a frame header and returns its length (2 or 9).</summary>
    /// <remarks>
    /// The LONG bit is chosen from <paramref name="bodyLength"/> whatever <paramref name="flags"/>
    /// says, and reserved bits are cleared because RFC 23 §Framing says they MUST be sent as zero.
    /// </remarks>
    public static int WriteHeader(Span<byte> destination, long bodyLength, ZmtpFrameFlags flags)
    {
        Debug.Assert(bodyLength >= 0, "A body length cannot be negative.");
        flags &= ZmtpFrameFlags.More | ZmtpFrameFlags.Command;

        if (bodyLength <= MaxShortBodyLength)
        {
            destination[1] = (byte)bodyLength;
            destination[0] = (byte)flags;
            return ShortHeaderLength;
        }

        // RFC 23 §Framing: the long size is a 64-bit unsigned integer in network byte order.
        BinaryPrimitives.WriteUInt64BigEndian(destination.Slice(1, 8), (ulong)bodyLength);
        destination[0] = (byte)(flags | ZmtpFrameFlags.Long);
        return MaxHeaderLength;
    }

    /// <summary>Decodes the frame header at the start of <paramref name="source"/>.</summary>
    /// <returns>
    /// <see cref="ZmtpStatus.NeedMoreData"/> until the whole header (2 or 9 octets) is present;
    /// <see cref="ZmtpStatus.Malformed"/> for a long size with its top bit set.
    /// </returns>
    public static ZmtpStatus TryReadHeader(ReadOnlySpan<byte> source, out ZmtpFrameHeader header)
    {
        header = default;
        if (source.Length < ShortHeaderLength)
        {
            return ZmtpStatus.NeedMoreData;
        }

        var flags = (ZmtpFrameFlags)source[0] & DefinedFlags;
        if ((flags & ZmtpFrameFlags.Long) == 0)
        {
            header = new ZmtpFrameHeader(flags, source[1], ShortHeaderLength);
            return ZmtpStatus.Done;
        }

        if (source.Length < MaxHeaderLength)
        {
            return ZmtpStatus.NeedMoreData;
        }

        // RFC 23 §Framing: a long frame carries at most 2^63-1 octets, so the top bit is never set.
        ulong size = BinaryPrimitives.ReadUInt64BigEndian(source.Slice(1, 8));
        if (size > long.MaxValue)
        {
            return ZmtpStatus.Malformed;
        }

        header = new ZmtpFrameHeader(flags, (long)size, MaxHeaderLength);
        return ZmtpStatus.Done;
    }

    /// <summary>Decodes a whole frame (header and body) from the start of <paramref name="source"/>.</summary>
    /// <remarks>
    /// Meant for handshake commands and other frames that are handled in one piece. A body longer
    /// than <paramref name="source"/> (including one that no span could hold) is
    /// <see cref="ZmtpStatus.NeedMoreData"/>; enforcing a size limit is the caller's policy.
    /// </remarks>
    public static ZmtpStatus TryReadFrame(ReadOnlySpan<byte> source, out ZmtpFrameHeader header, out ReadOnlySpan<byte> body)
    {
        body = default;
        ZmtpStatus status = TryReadHeader(source, out header);
        if (status != ZmtpStatus.Done)
        {
            return status;
        }

        if (header.BodyLength > source.Length - header.HeaderLength)
        {
            return ZmtpStatus.NeedMoreData;
        }

        body = source.Slice(header.HeaderLength, (int)header.BodyLength);
        return ZmtpStatus.Done;
    }
}
