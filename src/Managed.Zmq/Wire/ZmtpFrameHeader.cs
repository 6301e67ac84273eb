using Managed.Zmq.Buffers;
using Managed.Zmq.Options;
using Managed.Zmq.Security.Zap;

namespace Managed.Zmq.Wire;

/// <summary>A decoded frame header: flags and body size (RFC 23 §Framing).</summary>
internal readonly struct ZmtpFrameHeader
{
    /// <summary>Creates a header.</summary>
    /// <param name="flags">The MORE, LONG and COMMAND bits; reserved bits are expected to be cleared already.</param>
    /// <param name="bodyLength">The number of body octets after the header.</param>
    /// <param name="headerLength">The header's own length on the wire: 2 or 9.</param>
    public ZmtpFrameHeader(ZmtpFrameFlags flags, long bodyLength, int headerLength)
    {
        Flags = flags;
        BodyLength = bodyLength;
        HeaderLength = headerLength;
    }

    /// <summary>The flags octet with the reserved bits 3–7 removed.</summary>
    public ZmtpFrameFlags Flags { get; }

    /// <summary>The number of body octets that follow the header.</summary>
    public long BodyLength { get; }

    /// <summary>The header's length on the wire: 2 for a short size, 9 for a long one.</summary>
    public int HeaderLength { get; }

    /// <summary>The header and body together.</summary>
    public long FrameLength => HeaderLength + BodyLength;

    /// <summary>The MORE bit as received.</summary>
    /// <remarks>
    /// Reported even on a command frame: RFC 23 §Framing forbids it there, but libzmq accepts it
    /// (docs/libzmq-behaviour.md L10), so deciding what it means is left to the caller.
    /// </remarks>
    public bool More => (Flags & ZmtpFrameFlags.More) != 0;

    /// <summary>The COMMAND bit.</summary>
    public bool IsCommand => (Flags & ZmtpFrameFlags.Command) != 0;
}
