using System.Diagnostics;

namespace Managed.Zmq.Wire;

/// <summary>Writes and reads the 64-octet ZMTP 3.x greeting (RFC 37 §Formal Grammar and RFC 37 §Version Negotiation, as in RFC 23).</summary>
internal static class ZmtpGreeting
{
    /// <summary>The full greeting.</summary>
    public const int Length = 64;

    /// <summary>The signature (10 octets) plus the major version: all a peer needs to pick a protocol.</summary>
    public const int VersionPrefixLength = 11;

    /// <summary>The signature alone.</summary>
    public const int SignatureLength = 10;

    /// <summary>The major version we announce.</summary>
    public const byte MajorVersion = 3;

    /// <summary>The minor version we announce: ZMTP 3.1, as libzmq ≥ 4.3.3 does.</summary>
    public const byte MinorVersion = 1;

    /// <summary>The mechanism name field's width.</summary>
    public const int MechanismLength = 20;

    private const int MajorOffset = 10;
    private const int MinorOffset = 11;
    private const int MechanismOffset = 12;
    private const int AsServerOffset = 32;

    // RFC 23 §Authentication and Confidentiality: the name is compared over all 20 octets, so the
    // NUL padding is part of each constant.
    private static ReadOnlySpan<byte> NullName => "NULL\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0"u8;

    private static ReadOnlySpan<byte> PlainName => "PLAIN\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0"u8;

    private static ReadOnlySpan<byte> CurveName => "CURVE\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0"u8;

    private static ReadOnlySpan<byte> GssapiName => "GSSAPI\0\0\0\0\0\0\0\0\0\0\0\0\0\0"u8;

    /// <summary>The 20-octet, NUL-padded name of <paramref name="mechanism"/>; empty for <see cref="ZmtpMechanism.Unknown"/>.</summary>
    public static ReadOnlySpan<byte> GetMechanismName(ZmtpMechanism mechanism) => mechanism switch
    {
        ZmtpMechanism.Null => NullName,
        ZmtpMechanism.Plain => PlainName,
        ZmtpMechanism.Curve => CurveName,
        ZmtpMechanism.Gssapi => GssapiName,
        _ => default,
    };

    /// <summary>Writes our full 64-octet ZMTP 3.1 greeting.</summary>
    /// <remarks>
    /// The padding is <c>00…00 01</c>, the ZMTP 1.0 length of an empty identity plus one, which is
    /// what libzmq sends when no routing id is set (docs/libzmq-behaviour.md L1) and what RFC 23 §Detecting ZMTP 1.0 and 2.0
    /// Peers allows. A ZMTP 3 peer ignores it; a ZMTP 1.0 peer reads it as our identity frame.
    /// </remarks>
    public static void Write(Span<byte> destination, ZmtpMechanism mechanism, bool asServer) => Write(destination, mechanism, asServer, routingIdLength: 0);

    /// <summary>Writes our full greeting; the signature's padding carries <paramref name="routingIdLength"/> + 1, as libzmq's does.</summary>
    /// <remarks>
    /// RFC 23 §Detecting ZMTP 1.0 and 2.0 Peers: the padding is what a ZMTP 1.0 peer reads as the length of our
    /// identity frame (flags included); libzmq fills it in from its routing id, and so do we.
    /// </remarks>
    public static void Write(Span<byte> destination, ZmtpMechanism mechanism, bool asServer, int routingIdLength)
    {
        Debug.Assert(mechanism != ZmtpMechanism.Unknown, "Only a known mechanism can be announced.");
        Span<byte> greeting = destination.Slice(0, Length);
        greeting.Clear();

        // RFC 23 §Formal Grammar: signature = %xFF padding %x7F.
        greeting[0] = 0xFF;
        System.Buffers.Binary.BinaryPrimitives.WriteUInt64BigEndian(greeting.Slice(1, 8), (ulong)routingIdLength + 1);
        greeting[9] = 0x7F;
        greeting[MajorOffset] = MajorVersion;
        greeting[MinorOffset] = MinorVersion;
        GetMechanismName(mechanism).CopyTo(greeting.Slice(MechanismOffset, MechanismLength));
        greeting[AsServerOffset] = asServer ? (byte)1 : (byte)0;
    }

    /// <summary>Tells from the first octets of a peer's greeting which protocol generation it speaks.</summary>
    /// <remarks>
    /// RFC 23 §Detecting ZMTP 1.0 and 2.0 Peers: octet 0 other than 0xFF, or bit 0 of octet 9
    /// clear, means ZMTP 1.0, which the first octet alone can already show. Otherwise octet 10
    /// decides. The RFC calls revision 2 ZMTP 2.0, but libzmq speaks 3.x to it (docs/libzmq-behaviour.md L2), so only 0 and
    /// 1 count as old here. Padding octets 1–8 are never looked at (RFC 23 §Version Negotiation).
    /// </remarks>
    public static ZmtpGreetingKind Classify(ReadOnlySpan<byte> received)
    {
        if (received.IsEmpty)
        {
            return ZmtpGreetingKind.NeedMoreData;
        }

        if (received[0] != 0xFF)
        {
            return ZmtpGreetingKind.Unversioned;
        }

        if (received.Length < SignatureLength)
        {
            return ZmtpGreetingKind.NeedMoreData;
        }

        if ((received[SignatureLength - 1] & 0x01) == 0)
        {
            return ZmtpGreetingKind.Unversioned;
        }

        if (received.Length < VersionPrefixLength)
        {
            return ZmtpGreetingKind.NeedMoreData;
        }

        return received[MajorOffset] <= 1 ? ZmtpGreetingKind.Zmtp2OrOlder : ZmtpGreetingKind.Zmtp3;
    }

    /// <summary>Parses a peer's full ZMTP 3.x greeting.</summary>
    /// <returns>
    /// <see cref="ZmtpStatus.Malformed"/> as soon as <see cref="Classify"/> shows the peer is not
    /// ZMTP 3.x; otherwise <see cref="ZmtpStatus.NeedMoreData"/> until all 64 octets are present.
    /// An unknown mechanism is not malformed: it parses as <see cref="ZmtpMechanism.Unknown"/>, so
    /// that the caller can close with the right reason.
    /// </returns>
    public static ZmtpStatus TryParse(ReadOnlySpan<byte> received, out ZmtpPeerGreeting greeting)
    {
        greeting = default;
        ZmtpGreetingKind kind = Classify(received);
        if (kind is ZmtpGreetingKind.Unversioned or ZmtpGreetingKind.Zmtp2OrOlder)
        {
            return ZmtpStatus.Malformed;
        }

        if (received.Length < Length)
        {
            return ZmtpStatus.NeedMoreData;
        }

        // RFC 37 §Version Negotiation: higher versions MUST be accepted, so the minor version and
        // any major above 3 pass through unchecked, and the filler is not validated either.
        greeting = new ZmtpPeerGreeting(
            received[MajorOffset],
            received[MinorOffset],
            ParseMechanism(received.Slice(MechanismOffset, MechanismLength)),
            received[AsServerOffset] != 0);
        return ZmtpStatus.Done;
    }

    private static ZmtpMechanism ParseMechanism(ReadOnlySpan<byte> name)
    {
        if (name.SequenceEqual(NullName))
        {
            return ZmtpMechanism.Null;
        }

        if (name.SequenceEqual(PlainName))
        {
            return ZmtpMechanism.Plain;
        }

        if (name.SequenceEqual(CurveName))
        {
            return ZmtpMechanism.Curve;
        }

        return name.SequenceEqual(GssapiName) ? ZmtpMechanism.Gssapi : ZmtpMechanism.Unknown;
    }
}
