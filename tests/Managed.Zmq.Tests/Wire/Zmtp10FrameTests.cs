using Managed.Zmq.Tests.Wire.Support;
using Managed.Zmq.Wire;

namespace Managed.Zmq.Tests.Wire;

/// <summary>ZMTP 1.0 frame headers (RFC 13 §The Framing Layer; libzmq notes docs/libzmq-behaviour.md L25): the length counts the flags octet.</summary>
public sealed class Zmtp10FrameTests
{
    [Theory]
    [InlineData(0, 2)]
    [InlineData(253, 2)]
    [InlineData(254, 10)]
    [InlineData(300, 10)]
    public void GetHeaderLength_BodyLength_LongFromLength255AsLibzmq(long bodyLength, int expected)
    {
        Assert.Equal(expected, Zmtp10Frame.GetHeaderLength(bodyLength));
    }

    [Theory]
    [InlineData(0L, false, "01 00")]
    [InlineData(0L, true, "01 01")]
    [InlineData(5L, false, "06 00")]
    [InlineData(253L, true, "FE 01")]
    [InlineData(254L, false, "FF 00 00 00 00 00 00 00 FF 00")]
    [InlineData(300L, true, "FF 00 00 00 00 00 00 01 2D 01")]
    [InlineData(0x0102030405060708L, false, "FF 01 02 03 04 05 06 07 09 00")]
    public void WriteHeader_Golden_MatchesRfc13(long bodyLength, bool more, string expected)
    {
        var destination = new byte[Zmtp10Frame.LongHeaderLength];

        int written = Zmtp10Frame.WriteHeader(destination, bodyLength, more);

        Assert.Equal(WireBytes.ToHex(WireBytes.Parse(expected)), WireBytes.ToHex(destination.AsSpan(0, written)));
    }

    [Theory]
    [InlineData("01 00", 0L, false, 2)]
    [InlineData("06 01 'hello'", 5L, true, 2)]
    [InlineData("FF 00 00 00 00 00 00 01 2D 00", 300L, false, 10)]
    // RFC 13 allows the long form for short frames too.
    [InlineData("FF 00 00 00 00 00 00 00 01 01", 0L, true, 10)]
    // Reserved flag bits are ignored, as libzmq's decoder ignores them; the identity's 0x7F is MORE to it.
    [InlineData("03 FE 'ab'", 2L, false, 2)]
    [InlineData("FF 00 00 00 00 00 00 00 01 7F", 0L, true, 10)]
    public void TryReadHeader_Valid_DecodesLengthMinusFlagsOctet(string wire, long bodyLength, bool more, int headerLength)
    {
        var status = Zmtp10Frame.TryReadHeader(WireBytes.Parse(wire), out long body, out bool isMore, out int header);

        Assert.Equal(ZmtpStatus.Done, status);
        Assert.Equal(bodyLength, body);
        Assert.Equal(more, isMore);
        Assert.Equal(headerLength, header);
    }

    [Theory]
    [InlineData("06 00")]
    [InlineData("FF 00 00 00 00 00 00 01 2D 00")]
    public void TryReadHeader_SplitAnywhere_NeedsMoreDataUntilWhole(string wire)
    {
        byte[] whole = WireBytes.Parse(wire);

        SplitFeed.AssertEveryPrefix(whole, "pending", received =>
            Zmtp10Frame.TryReadHeader(received, out long body, out bool more, out _) == ZmtpStatus.Done ? $"{body}:{more}" : "pending");
    }

    [Theory]
    // A length of 0 leaves no room for the flags octet: libzmq's decoder closes (EPROTO), and it shows at once.
    [InlineData("00")]
    [InlineData("FF 00 00 00 00 00 00 00 00")]
    [InlineData("FF 00 00 00 00 00 00 00 00 00")]
    [InlineData("FF 80 00 00 00 00 00 00 00 00")]
    public void TryReadHeader_ImpossibleLength_Malformed(string wire)
    {
        Assert.Equal(ZmtpStatus.Malformed, Zmtp10Frame.TryReadHeader(WireBytes.Parse(wire), out _, out _, out _));
    }

    [Fact]
    public void WriteHeader_ThenTryReadHeader_RoundTrips()
    {
        var buffer = new byte[Zmtp10Frame.LongHeaderLength];
        foreach (long length in new[] { 0L, 1L, 253L, 254L, 255L, 65535L, int.MaxValue })
        {
            int written = Zmtp10Frame.WriteHeader(buffer, length, more: length % 2 == 0);

            Assert.Equal(ZmtpStatus.Done, Zmtp10Frame.TryReadHeader(buffer.AsSpan(0, written), out long body, out bool more, out int header));
            Assert.Equal((length, length % 2 == 0, written), (body, more, header));
        }
    }
}
