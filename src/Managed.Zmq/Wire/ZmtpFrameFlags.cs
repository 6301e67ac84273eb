namespace Managed.Zmq.Wire;

/// <summary>The flags octet that opens every ZMTP 3.x frame.</summary>
/// <remarks>
/// RFC 23 §Framing: bit 0 is MORE, bit 1 is LONG, bit 2 is COMMAND, bits 3–7 are reserved and
/// sent as zero.
/// </remarks>
[Flags]
internal enum ZmtpFrameFlags : byte
{
    /// <summary>Last frame of a message, short size, message frame.</summary>
    None = 0,

    /// <summary>More frames of the same message follow.</summary>
    More = 1,

    /// <summary>The size field is 8 octets (big-endian) instead of 1.</summary>
    Long = 2,

    /// <summary>The frame carries a command rather than message data.</summary>
    Command = 4,
}
