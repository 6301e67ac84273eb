using System.Buffers.Binary;
using System.Diagnostics;

namespace Managed.Zmq.Wire;

/// <summary>Builds and reads PING and PONG (RFC 37 §Connection Heartbeating).</summary>
internal static class ZmtpHeartbeat
{
    /// <summary>The longest ping context: ping-context = 0*16OCTET.</summary>
    public const int MaxContextLength = 16;

    private const int TtlLength = sizeof(ushort);

    /// <summary>The whole PING frame length; contexts over 16 octets count as 16, as <see cref="WritePing"/> truncates them.</summary>
    public static int GetPingFrameLength(int contextLength) =>
        ZmtpCommandCodec.GetFrameLength(ZmtpCommandNames.Ping.Length, TtlLength + Math.Min(contextLength, MaxContextLength));

    /// <summary>The whole PONG frame length; contexts over 16 octets count as 16, as <see cref="WritePong"/> truncates them.</summary>
    public static int GetPongFrameLength(int contextLength) =>
        ZmtpCommandCodec.GetFrameLength(ZmtpCommandNames.Pong.Length, Math.Min(contextLength, MaxContextLength));

    /// <summary>Writes a whole PING frame and returns its length.</summary>
    /// <remarks>
    /// The TTL is always written, even when 0: libzmq reads it without checking the length (docs/libzmq-behaviour.md L13).
    /// </remarks>
    public static int WritePing(Span<byte> destination, ushort ttlDeciseconds, ReadOnlySpan<byte> context)
    {
        Debug.Assert(context.Length <= MaxContextLength, "A ping context is at most 16 octets.");
        context = Truncate(context);
        int written = ZmtpCommandCodec.WriteFramePrefix(destination, ZmtpCommandNames.Ping, TtlLength + context.Length);

        // RFC 37 §Connection Heartbeating: the TTL is a 16-bit unsigned integer in network order.
        BinaryPrimitives.WriteUInt16BigEndian(destination.Slice(written, TtlLength), ttlDeciseconds);
        written += TtlLength;
        context.CopyTo(destination.Slice(written));
        return written + context.Length;
    }

    /// <summary>Writes a whole PONG frame echoing <paramref name="context"/> and returns its length.</summary>
    /// <remarks>RFC 37 §Connection Heartbeating: the echoed context MUST NOT exceed 16 octets, so a longer one is cut.</remarks>
    public static int WritePong(Span<byte> destination, ReadOnlySpan<byte> context) =>
        ZmtpCommandCodec.WriteFrame(destination, ZmtpCommandNames.Pong, Truncate(context));

    /// <summary>Reads the TTL and context of a PING command's data.</summary>
    /// <returns>False when the data is shorter than the 2-octet TTL.</returns>
    /// <remarks>
    /// A context longer than the RFC's 16 octets is cut to 16 rather than refused, so the PONG
    /// still goes out and stays within the grammar; libzmq does the same (docs/libzmq-behaviour.md L13).
    /// </remarks>
    public static bool TryParsePing(ReadOnlySpan<byte> commandData, out ushort ttlDeciseconds, out ReadOnlySpan<byte> context)
    {
        if (commandData.Length < TtlLength)
        {
            ttlDeciseconds = 0;
            context = default;
            return false;
        }

        ttlDeciseconds = BinaryPrimitives.ReadUInt16BigEndian(commandData);
        context = Truncate(commandData.Slice(TtlLength));
        return true;
    }

    /// <summary>Converts a heartbeat TTL option in milliseconds to the wire's tenths of a second.</summary>
    /// <remarks>Truncates and clamps to 0–65535 as libzmq does (docs/libzmq-behaviour.md L13); callers talking to libzmq should keep it ≤ 655 ds.</remarks>
    public static ushort ToTtlDeciseconds(int ttlMilliseconds)
    {
        if (ttlMilliseconds <= 0)
        {
            return 0;
        }

        return (ushort)Math.Min(ttlMilliseconds / 100, ushort.MaxValue);
    }

    private static ReadOnlySpan<byte> Truncate(ReadOnlySpan<byte> context) =>
        context.Length <= MaxContextLength ? context : context.Slice(0, MaxContextLength);
}
