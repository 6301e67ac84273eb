using Managed.Zmq.Tests.Wire.Support;
using Managed.Zmq.Wire;

namespace Managed.Zmq.Tests.Wire;

/// <summary>Frame header encoding and decoding (RFC 23/37 §Framing, libzmq notes docs/libzmq-behaviour.md L10).</summary>
public sealed class ZmtpFrameTests
{
    [Theory]
    [InlineData(0, 2)]
    [InlineData(1, 2)]
    [InlineData(255, 2)]
    [InlineData(256, 9)]
    [InlineData(65536, 9)]
    [InlineData(long.MaxValue, 9)]
    public void GetHeaderLength_BodyLength_LongOnlyAbove255(long bodyLength, int expected)
    {
        Assert.Equal(expected, ZmtpFrame.GetHeaderLength(bodyLength));
    }

    [Theory]
    [InlineData(0L, 0, "00 00")]
    [InlineData(0L, 1, "01 00")]
    [InlineData(0L, 4, "04 00")]
    [InlineData(255L, 0, "00 FF")]
    [InlineData(255L, 1, "01 FF")]
    [InlineData(256L, 0, "02 00 00 00 00 00 00 01 00")]
    [InlineData(256L, 1, "03 00 00 00 00 00 00 01 00")]
    [InlineData(256L, 4, "06 00 00 00 00 00 00 01 00")]
    [InlineData(0x0102030405060708L, 0, "02 01 02 03 04 05 06 07 08")]
    [InlineData(long.MaxValue, 0, "02 7F FF FF FF FF FF FF FF")]
    public void WriteHeader_Golden_MatchesWire(long bodyLength, byte flags, string expected)
    {
        var destination = new byte[ZmtpFrame.MaxHeaderLength];

        int written = ZmtpFrame.WriteHeader(destination, bodyLength, (ZmtpFrameFlags)flags);

        Assert.Equal(WireBytes.ToHex(WireBytes.Parse(expected)), WireBytes.ToHex(destination.AsSpan(0, written)));
    }

    [Fact]
    public void WriteHeader_LongFlagGivenForShortBody_ClearsLong()
    {
        var destination = new byte[ZmtpFrame.MaxHeaderLength];

        int written = ZmtpFrame.WriteHeader(destination, 5, ZmtpFrameFlags.Long | ZmtpFrameFlags.More);

        Assert.Equal("0105", WireBytes.ToHex(destination.AsSpan(0, written)));
    }

    [Fact]
    public void WriteHeader_ReservedBitsGiven_SendsThemAsZero()
    {
        var destination = new byte[ZmtpFrame.MaxHeaderLength];

        int written = ZmtpFrame.WriteHeader(destination, 3, (ZmtpFrameFlags)0xF9);

        Assert.Equal("0103", WireBytes.ToHex(destination.AsSpan(0, written)));
    }

    [Theory]
    [InlineData("00 00", "flags=None body=0 header=2")]
    [InlineData("01 00", "flags=More body=0 header=2")]
    [InlineData("00 03 'abc'", "flags=None body=3 header=2")]
    [InlineData("01 03 'abc'", "flags=More body=3 header=2")]
    [InlineData("00 FF", "flags=None body=255 header=2")]
    [InlineData("04 05 04 'PING'", "flags=Command body=5 header=2")]
    [InlineData("02 00 00 00 00 00 00 01 00", "flags=Long body=256 header=9")]
    [InlineData("03 00 00 00 00 00 00 01 00", "flags=More, Long body=256 header=9")]
    [InlineData("06 00 00 00 00 00 00 01 00", "flags=Long, Command body=256 header=9")]
    [InlineData("02 00 00 00 00 00 00 00 00", "flags=Long body=0 header=9")]
    [InlineData("02 00 00 00 00 00 00 00 FF", "flags=Long body=255 header=9")]
    [InlineData("02 7F FF FF FF FF FF FF FF", "flags=Long body=9223372036854775807 header=9")]
    public void TryReadHeader_Golden_DecodesAtEverySplit(string vector, string expected)
    {
        byte[] whole = WireBytes.Parse(vector);
        int needed = (whole[0] & 0x02) != 0 ? 9 : 2;

        string actual = SplitFeed.AssertEveryPrefix(whole, needed, WireDecode.Pending, WireDecode.Header);

        Assert.Equal(expected, actual);
    }

    [Theory]
    [InlineData("02 80 00 00 00 00 00 00 00")]
    [InlineData("02 FF FF FF FF FF FF FF FF")]
    [InlineData("03 80 00 00 00 00 00 00 01 'x'")]
    [InlineData("06 80 00 00 00 00 00 00 05")]
    public void TryReadHeader_LongSizeTopBitSet_Malformed(string vector)
    {
        string actual = SplitFeed.AssertEveryPrefix(WireBytes.Parse(vector), 9, WireDecode.Pending, WireDecode.Header);

        Assert.Equal(nameof(ZmtpStatus.Malformed), actual);
    }

    [Theory]
    [InlineData("F8 02 'ab'", "flags=None body=2 header=2")]
    [InlineData("F9 02 'ab'", "flags=More body=2 header=2")]
    [InlineData("FC 02 'ab'", "flags=Command body=2 header=2")]
    [InlineData("FA 00 00 00 00 00 00 00 02 'ab'", "flags=Long body=2 header=9")]
    public void TryReadHeader_ReservedBitsSet_IgnoresThem(string vector, string expected)
    {
        byte[] whole = WireBytes.Parse(vector);
        int needed = (whole[0] & 0x02) != 0 ? 9 : 2;

        Assert.Equal(expected, SplitFeed.AssertEveryPrefix(whole, needed, WireDecode.Pending, WireDecode.Header));
    }

    [Fact]
    public void TryReadHeader_MoreOnCommand_AcceptedAndReported()
    {
        ZmtpStatus status = ZmtpFrame.TryReadHeader(WireBytes.Parse("05 05 04 'PING'"), out ZmtpFrameHeader header);

        Assert.Equal(ZmtpStatus.Done, status);
        Assert.True(header.IsCommand);
        Assert.True(header.More);
    }

    [Theory]
    [InlineData(0L)]
    [InlineData(1L)]
    [InlineData(254L)]
    [InlineData(255L)]
    [InlineData(256L)]
    [InlineData(257L)]
    [InlineData(65535L)]
    [InlineData(int.MaxValue)]
    [InlineData(1L + int.MaxValue)]
    [InlineData(1L + uint.MaxValue)]
    [InlineData(long.MaxValue)]
    public void WriteHeader_ThenTryReadHeader_RoundTrips(long bodyLength)
    {
        foreach (ZmtpFrameFlags flags in new[] { ZmtpFrameFlags.None, ZmtpFrameFlags.More, ZmtpFrameFlags.Command })
        {
            var buffer = new byte[ZmtpFrame.MaxHeaderLength];
            int written = ZmtpFrame.WriteHeader(buffer, bodyLength, flags);

            ZmtpStatus status = ZmtpFrame.TryReadHeader(buffer.AsSpan(0, written), out ZmtpFrameHeader header);

            Assert.Equal(ZmtpStatus.Done, status);
            Assert.Equal(written, header.HeaderLength);
            Assert.Equal(ZmtpFrame.GetHeaderLength(bodyLength), written);
            Assert.Equal(bodyLength, header.BodyLength);
            Assert.Equal(flags, header.Flags & ~ZmtpFrameFlags.Long);
            Assert.Equal(written == 9, (header.Flags & ZmtpFrameFlags.Long) != 0);
        }
    }

    [Theory]
    [InlineData("00 00", "body=[]")]
    [InlineData("01 03 'abc' 'trailing'", "body=[abc]")]
    [InlineData("00 05 'hello'", "body=[hello]")]
    [InlineData("02 00 00 00 00 00 00 00 03 'xyz'", "body=[xyz]")]
    public void TryReadFrame_WholeFrame_ReturnsBodyAtEverySplit(string vector, string expected)
    {
        byte[] whole = WireBytes.Parse(vector);
        ZmtpFrame.TryReadHeader(whole, out ZmtpFrameHeader parsed);
        int needed = (int)parsed.FrameLength;

        string actual = SplitFeed.AssertEveryPrefix(
            whole,
            needed,
            WireDecode.Pending,
            received => WireDecode.Frame(received, (header, body) => $"body={WireBytes.Show(body)}"));

        Assert.Equal(expected, actual);
    }

    [Fact]
    public void TryReadFrame_LongSizeTopBitSet_Malformed()
    {
        ZmtpStatus status = ZmtpFrame.TryReadFrame(WireBytes.Parse("02 80 00 00 00 00 00 00 00"), out _, out _);

        Assert.Equal(ZmtpStatus.Malformed, status);
    }

    [Fact]
    public void TryReadFrame_BodyLargerThanAnySpan_NeedMoreData()
    {
        ZmtpStatus status = ZmtpFrame.TryReadFrame(WireBytes.Parse("02 7F FF FF FF FF FF FF FF 'abc'"), out ZmtpFrameHeader header, out _);

        Assert.Equal(ZmtpStatus.NeedMoreData, status);
        Assert.Equal(long.MaxValue, header.BodyLength);
    }

    [Fact]
    public void WriteHeader_ZeroByteFrame_IsTwoOctets()
    {
        var buffer = new byte[ZmtpFrame.MaxHeaderLength];

        int written = ZmtpFrame.WriteHeader(buffer, 0, ZmtpFrameFlags.None);
        string decoded = WireDecode.Frame(buffer.AsSpan(0, written), (header, body) => $"{header.Flags} {body.Length}");

        Assert.Equal(2, written);
        Assert.Equal("None 0", decoded);
    }
}
