using Managed.Zmq.Tests.Wire.Support;
using Managed.Zmq.Wire;

namespace Managed.Zmq.Tests.Wire;

/// <summary>
/// The 64-octet greeting and old-peer detection (RFC 23/37 §Formal Grammar, §Version Negotiation,
/// §Detecting ZMTP 1.0 and 2.0 Peers; libzmq notes docs/libzmq-behaviour.md L1, docs/libzmq-behaviour.md L2).
/// </summary>
public sealed class ZmtpGreetingTests
{
    private const string NullGreeting = "FF 00*7 01 7F 03 01 'NULL' 00*16 00 00*31";
    private const string PlainServerGreeting = "FF 00*7 01 7F 03 01 'PLAIN' 00*15 01 00*31";
    private const string CurveClientGreeting = "FF 00*7 01 7F 03 01 'CURVE' 00*15 00 00*31";

    [Theory]
    [InlineData(1, false, NullGreeting)]
    [InlineData(2, true, PlainServerGreeting)]
    [InlineData(3, false, CurveClientGreeting)]
    [InlineData(4, false, "FF 00*7 01 7F 03 01 'GSSAPI' 00*14 00 00*31")]
    public void Write_Mechanism_MatchesGoldenBytes(int mechanism, bool asServer, string expected)
    {
        var destination = new byte[ZmtpGreeting.Length];

        ZmtpGreeting.Write(destination, (ZmtpMechanism)mechanism, asServer);

        Assert.Equal(WireBytes.ToHex(WireBytes.Parse(expected)), WireBytes.ToHex(destination));
    }

    [Fact]
    public void Write_DestinationDirty_OverwritesAll64Octets()
    {
        byte[] destination = Enumerable.Repeat((byte)0xEE, ZmtpGreeting.Length + 1).ToArray();

        ZmtpGreeting.Write(destination, ZmtpMechanism.Null, asServer: false);

        Assert.Equal(WireBytes.ToHex(WireBytes.Parse(NullGreeting)), WireBytes.ToHex(destination.AsSpan(0, ZmtpGreeting.Length)));
        Assert.Equal(0xEE, destination[ZmtpGreeting.Length]);
    }

    [Fact]
    public void Write_ThenTryParse_RoundTrips()
    {
        foreach (ZmtpMechanism mechanism in new[] { ZmtpMechanism.Null, ZmtpMechanism.Plain, ZmtpMechanism.Curve, ZmtpMechanism.Gssapi })
        {
            foreach (bool asServer in new[] { false, true })
            {
                var buffer = new byte[ZmtpGreeting.Length];
                ZmtpGreeting.Write(buffer, mechanism, asServer);

                Assert.Equal(ZmtpGreetingKind.Zmtp3, ZmtpGreeting.Classify(buffer));
                Assert.Equal(ZmtpStatus.Done, ZmtpGreeting.TryParse(buffer, out ZmtpPeerGreeting greeting));
                Assert.Equal(3, greeting.Major);
                Assert.Equal(1, greeting.Minor);
                Assert.Equal(mechanism, greeting.Mechanism);
                Assert.Equal(asServer, greeting.AsServer);
            }
        }
    }

    [Theory]
    // ZMTP 1.0 short identity frame: octet 0 is a length, not 0xFF; one octet is enough to tell.
    [InlineData("01 00", 1, "Unversioned")]
    [InlineData("06 00 'hello'", 1, "Unversioned")]
    [InlineData("00", 1, "Unversioned")]
    // ZMTP 1.0 long identity frame: 0xFF, 8-octet length, flags octet with bit 0 clear.
    [InlineData("FF 00 00 00 00 00 00 01 01 00 'x'", 10, "Unversioned")]
    [InlineData("FF 00*7 01 7E 03 01", 10, "Unversioned")]
    // ZMTP 2.0 (revision 1) and the 0MQ 3.x pre-release revision 0.
    [InlineData("FF 00*7 01 7F 01 05 00 00", 11, "Zmtp2OrOlder")]
    [InlineData("FF 00*7 01 7F 00 05", 11, "Zmtp2OrOlder")]
    // Revision 2 is 2.0 by the RFC but libzmq speaks 3.x to it (docs/libzmq-behaviour.md L2).
    [InlineData("FF 00*7 01 7F 02", 11, "Zmtp3")]
    [InlineData("FF 00*7 01 7F 03 00 'NULL'", 11, "Zmtp3")]
    [InlineData("FF 00*7 01 7F 03 01", 11, "Zmtp3")]
    [InlineData("FF 00*7 01 7F 04 00", 11, "Zmtp3")]
    [InlineData("FF 00*7 01 7F FF", 11, "Zmtp3")]
    // Padding is never validated (RFC 23 §Version Negotiation): a plain-zero one and arbitrary octets.
    [InlineData("FF 00*8 7F 03", 11, "Zmtp3")]
    [InlineData("FF 00 00 00 00 00 00 00 06 7F 03", 11, "Zmtp3")]
    [InlineData("FF 12 34 56 78 9A BC DE F0 7F 03", 11, "Zmtp3")]
    // Bit 0 of octet 9 alone matters; the other bits of octet 9 are not checked either.
    [InlineData("FF 00*8 01 03", 11, "Zmtp3")]
    public void Classify_Prefix_DecidesAsSoonAsPossible(string vector, int needed, string expected)
    {
        string actual = SplitFeed.AssertEveryPrefix(
            WireBytes.Parse(vector),
            needed,
            nameof(ZmtpGreetingKind.NeedMoreData),
            received => ZmtpGreeting.Classify(received).ToString());

        Assert.Equal(expected, actual);
    }

    [Theory]
    [InlineData(NullGreeting, "Done 3.1 Null server=False")]
    [InlineData(PlainServerGreeting, "Done 3.1 Plain server=True")]
    [InlineData(CurveClientGreeting, "Done 3.1 Curve server=False")]
    // ZMTP 3.0, as libzmq 4.3.0–4.3.2 announce it.
    [InlineData("FF 00*7 01 7F 03 00 'NULL' 00*16 00 00*31", "Done 3.0 Null server=False")]
    // Future versions are accepted as 3.x (RFC 37 §Version Negotiation) and reported as sent.
    [InlineData("FF 00*7 01 7F 03 02 'NULL' 00*16 00 00*31", "Done 3.2 Null server=False")]
    [InlineData("FF 00*7 01 7F 04 00 'NULL' 00*16 00 00*31", "Done 4.0 Null server=False")]
    [InlineData("FF 00*7 01 7F 02 00 'NULL' 00*16 00 00*31", "Done 2.0 Null server=False")]
    // Padding 00..01 (libzmq, no routing id; the vectors above) and 00..06 (libzmq, 5-octet
    // routing id) and all-zero are equally fine: padding is not validated (docs/libzmq-behaviour.md L1).
    [InlineData("FF 00*7 06 7F 03 01 'NULL' 00*16 00 00*31", "Done 3.1 Null server=False")]
    [InlineData("FF 00*8 7F 03 01 'NULL' 00*16 00 00*31", "Done 3.1 Null server=False")]
    // The filler is not validated, and neither is the as-server octet's value (docs/libzmq-behaviour.md L5).
    [InlineData("FF 00*7 01 7F 03 01 'NULL' 00*16 00 AA*31", "Done 3.1 Null server=False")]
    [InlineData("FF 00*7 01 7F 03 01 'NULL' 00*16 01 00*31", "Done 3.1 Null server=True")]
    // Unknown or almost-right names are Unknown, never Malformed (RFC 23: exact match over 20 octets).
    [InlineData("FF 00*7 01 7F 03 01 'FOO' 00*17 00 00*31", "Done 3.1 Unknown server=False")]
    [InlineData("FF 00*7 01 7F 03 01 'null' 00*16 00 00*31", "Done 3.1 Unknown server=False")]
    [InlineData("FF 00*7 01 7F 03 01 'NULL' 20*16 00 00*31", "Done 3.1 Unknown server=False")]
    [InlineData("FF 00*7 01 7F 03 01 'NULL' 00*15 58 00 00*31", "Done 3.1 Unknown server=False")]
    [InlineData("FF 00*7 01 7F 03 01 'NULLX' 00*15 00 00*31", "Done 3.1 Unknown server=False")]
    [InlineData("FF 00*7 01 7F 03 01 00*20 00 00*31", "Done 3.1 Unknown server=False")]
    public void TryParse_Greeting_NeedsAll64OctetsThenParses(string vector, string expected)
    {
        byte[] whole = WireBytes.Parse(vector);
        Assert.Equal(ZmtpGreeting.Length, whole.Length);

        string actual = SplitFeed.AssertEveryPrefix(whole, WireDecode.Pending, ParseGreeting);

        Assert.Equal(expected, actual);
    }

    [Theory]
    [InlineData("01 00 78*62", 1)]
    [InlineData("FF 00*7 01 7E 03 01 'NULL' 00*16 00 00*31", 10)]
    [InlineData("FF 00*7 01 7F 01 05 00*52", 11)]
    [InlineData("FF 00*7 01 7F 00 05 00*52", 11)]
    public void TryParse_OldPeer_MalformedOnceClassified(string vector, int needed)
    {
        string actual = SplitFeed.AssertEveryPrefix(WireBytes.Parse(vector), needed, WireDecode.Pending, ParseGreeting);

        Assert.Equal(nameof(ZmtpStatus.Malformed), actual);
    }

    [Fact]
    public void TryParse_MoreThan64Octets_IgnoresTheRest()
    {
        byte[] whole = WireBytes.Parse(NullGreeting + " 04 19 05 'READY'");

        Assert.Equal("Done 3.1 Null server=False", ParseGreeting(whole));
    }

    [Theory]
    [InlineData(1, "'NULL' 00*16")]
    [InlineData(2, "'PLAIN' 00*15")]
    [InlineData(3, "'CURVE' 00*15")]
    [InlineData(4, "'GSSAPI' 00*14")]
    [InlineData(0, "")]
    public void GetMechanismName_Mechanism_NulPaddedTo20(int mechanism, string expected)
    {
        Assert.Equal(WireBytes.ToHex(WireBytes.Parse(expected)), WireBytes.ToHex(ZmtpGreeting.GetMechanismName((ZmtpMechanism)mechanism)));
    }

    private static string ParseGreeting(ReadOnlySpan<byte> received)
    {
        ZmtpStatus status = ZmtpGreeting.TryParse(received, out ZmtpPeerGreeting greeting);
        return status == ZmtpStatus.Done
            ? $"Done {greeting.Major}.{greeting.Minor} {greeting.Mechanism} server={greeting.AsServer}"
            : status.ToString();
    }
}
