namespace Managed.Zmq.Wire;

/// <summary>
/// What serving a ZMTP 2.0 peer (RFC 15) takes beyond ZMTP 3.x: its greeting ends with a socket-type octet
/// instead of a mechanism, and its first frame each way is the sender's identity. Its frames are ZMTP 3.0's
/// without the COMMAND flag, so the 3.x codecs carry its traffic unchanged. A ZMTP 1.0 peer (RFC 13) also
/// opens with its identity, but frames differently (<see cref="Zmtp10Frame"/>).
/// </summary>
internal static class ZmtpLegacy
{
    /// <summary>The revision octet of a ZMTP 2.0 greeting (RFC 15 §Formal Grammar).</summary>
    public const byte Zmtp20Revision = 1;

    /// <summary>
    /// The revision octet of a versioned ZMTP 1.0 greeting: a 12-octet greeting as ZMTP 2.0's, then RFC 13 framing
    /// (docs/libzmq-behaviour.md L2 and docs/libzmq-behaviour.md L25).
    /// </summary>
    public const byte Zmtp10Revision = 0;

    /// <summary>A ZMTP 2.0 greeting: the 10-octet signature, the revision, the socket type.</summary>
    public const int Zmtp20GreetingLength = 12;

    /// <summary>RFC 15 §Formal Grammar numbers the socket types as libzmq's C API does (PAIR 0 … PUSH 8, XPUB 9, XSUB 10).</summary>
    public static byte GetSocketTypeOctet(SocketType socketType) => (byte)socketType;

    /// <summary>The identity frame we send first: flags 0 (final frame), a one-octet length, the routing id.</summary>
    public static byte[] BuildIdentityFrame(ReadOnlySpan<byte> routingId)
    {
        var frame = new byte[ZmtpFrame.GetHeaderLength(routingId.Length) + routingId.Length];
        int header = ZmtpFrame.WriteHeader(frame, routingId.Length, ZmtpFrameFlags.None);
        routingId.CopyTo(frame.AsSpan(header));
        return frame;
    }

    /// <summary>Our identity as a ZMTP 1.0 frame (RFC 13 §The Connection Layer): length, flags 0, the routing id.</summary>
    public static byte[] BuildZmtp10IdentityFrame(ReadOnlySpan<byte> routingId)
    {
        var frame = new byte[Zmtp10Frame.GetHeaderLength(routingId.Length) + routingId.Length];
        int header = Zmtp10Frame.WriteHeader(frame, routingId.Length, more: false);
        routingId.CopyTo(frame.AsSpan(header));
        return frame;
    }
}
