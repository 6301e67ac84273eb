using Managed.Zmq.Internal;

namespace Managed.Zmq.Transports.Udp;

/// <summary>
/// One RADIO message in one udp datagram, as libzmq 4.3.4's udp engine lays it out: a length octet, the group, then
/// the body (no other framing, no handshake). At most <see cref="MaxSize"/> octets, libzmq's buffer size.
/// </summary>
internal static class UdpDatagram
{
    public const int MaxSize = Tuning.RadioDish.MaxDatagramSize;

    /// <summary>The datagram length of a message, or -1 when it does not fit one datagram (it is then not sent).</summary>
    public static int GetLength(int groupLength, int bodyLength)
    {
        long length = 1L + groupLength + bodyLength;
        return groupLength <= Tuning.RadioDish.MaxGroupLength && length <= MaxSize ? (int)length : -1;
    }

    /// <summary>Writes the length octet and the group; the body goes at <c>1 + group.Length</c>.</summary>
    public static int WriteGroup(Span<byte> datagram, ReadOnlySpan<byte> group)
    {
        datagram[0] = (byte)group.Length;
        group.CopyTo(datagram[1..]);
        return 1 + group.Length;
    }

    /// <summary>
    /// Splits a received datagram; false when it cannot be one (empty, or shorter than its group, which libzmq
    /// ignores too).
    /// </summary>
    public static bool TryRead(ReadOnlySpan<byte> datagram, out ReadOnlySpan<byte> group, out ReadOnlySpan<byte> body)
    {
        if (datagram.IsEmpty || datagram.Length - 1 < datagram[0])
        {
            group = default;
            body = default;
            return false;
        }

        int groupLength = datagram[0];
        group = datagram.Slice(1, groupLength);
        body = datagram[(1 + groupLength)..];
        return true;
    }
}
