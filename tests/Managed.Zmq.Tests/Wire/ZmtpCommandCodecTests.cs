using Managed.Zmq.Tests.Wire.Support;
using Managed.Zmq.Wire;

namespace Managed.Zmq.Tests.Wire;

/// <summary>Command frames: name-length + name + data in a frame with the COMMAND bit (RFC 23 §Formal Grammar).</summary>
public sealed class ZmtpCommandCodecTests
{
    [Theory]
    [InlineData("05 'READY'", "[READY] []")]
    [InlineData("05 'READY' 0B 'Socket-Type'", "[READY] [\\x0BSocket-Type]")]
    [InlineData("01 'X' 00", "[X] [\\x00]")]
    [InlineData("04 'PINGPONG'", "[PING] [PONG]")]
    public void TryParse_Body_SplitsNameAndData(string body, string expected)
    {
        Assert.True(ZmtpCommandCodec.TryParse(WireBytes.Parse(body), out ZmtpCommand command));
        Assert.Equal(expected, $"{WireBytes.Show(command.Name)} {WireBytes.Show(command.Data)}");
    }

    [Theory]
    [InlineData("")]
    [InlineData("00")]
    [InlineData("00 'READY'")]
    [InlineData("05")]
    [InlineData("05 'READ'")]
    [InlineData("FF 'abc'")]
    public void TryParse_BadBody_ReturnsFalse(string body)
    {
        Assert.False(ZmtpCommandCodec.TryParse(WireBytes.Parse(body), out _));
    }

    [Fact]
    public void TryParse_MaximumNameLength_Accepted()
    {
        byte[] body = [255, .. WireBytes.Pattern(255), 7];

        Assert.True(ZmtpCommandCodec.TryParse(body, out ZmtpCommand command));
        Assert.Equal(255, command.Name.Length);
        Assert.Equal([7], command.Data.ToArray());
    }

    [Theory]
    [InlineData("04 05 04 'PING'", "[PING] data=[]")]
    [InlineData("04 0A 04 'PING' 00 0A 'ctx'", "[PING] data=[\\x00\\x0Actx]")]
    [InlineData("06 00 00 00 00 00 00 00 05 04 'PING'", "[PING] data=[]")]
    [InlineData("05 05 04 'PING'", "[PING] data=[]")]
    public void TryParse_WholeCommandFrame_DecodesAtEverySplit(string vector, string expected)
    {
        string actual = SplitFeed.AssertEveryPrefix(
            WireBytes.Parse(vector),
            WireDecode.Pending,
            received => WireDecode.Command(received, command => $"data={WireBytes.Show(command.Data)}"));

        Assert.Equal(expected, actual);
    }

    [Theory]
    [InlineData("04 00", "bad command")]
    [InlineData("04 01 00", "bad command")]
    [InlineData("04 03 05 'RE'", "bad command")]
    [InlineData("00 05 04 'PING'", "not a command")]
    public void TryParse_BadCommandFrame_RejectedOnceWhole(string vector, string expected)
    {
        string actual = SplitFeed.AssertEveryPrefix(
            WireBytes.Parse(vector),
            WireDecode.Pending,
            received => WireDecode.Command(received, command => "parsed"));

        Assert.Equal(expected, actual);
    }

    [Theory]
    [InlineData(5, 0, 8)]
    [InlineData(5, 249, 257)]
    [InlineData(5, 250, 265)]
    [InlineData(254, 0, 257)]
    [InlineData(255, 0, 265)]
    public void GetFrameLength_Lengths_IncludesHeaderAndNameLength(int nameLength, int dataLength, int expected)
    {
        Assert.Equal(expected, ZmtpCommandCodec.GetFrameLength(nameLength, dataLength));
    }

    [Fact]
    public void WriteFrame_ShortBody_MatchesGoldenBytes()
    {
        var destination = new byte[ZmtpCommandCodec.GetFrameLength(5, 3)];

        int written = ZmtpCommandCodec.WriteFrame(destination, "HELLO"u8, "abc"u8);

        Assert.Equal(destination.Length, written);
        Assert.Equal(WireBytes.ToHex(WireBytes.Parse("04 09 05 'HELLO' 'abc'")), WireBytes.ToHex(destination));
    }

    [Theory]
    [InlineData(249, false)]
    [InlineData(250, true)]
    [InlineData(1000, true)]
    public void WriteFrame_AroundShortLimit_UsesLongSizeAbove255BodyOctets(int dataLength, bool expectLong)
    {
        byte[] data = WireBytes.Pattern(dataLength);
        var destination = new byte[ZmtpCommandCodec.GetFrameLength(5, dataLength)];

        int written = ZmtpCommandCodec.WriteFrame(destination, "READY"u8, data);

        Assert.Equal(destination.Length, written);
        Assert.Equal(expectLong ? 0x06 : 0x04, destination[0]);
        Assert.Equal(ZmtpStatus.Done, ZmtpFrame.TryReadFrame(destination, out ZmtpFrameHeader header, out ReadOnlySpan<byte> body));
        Assert.True(header.IsCommand);
        Assert.False(header.More);
        Assert.True(ZmtpCommandCodec.TryParse(body, out ZmtpCommand command));
        Assert.True(command.Is("READY"u8));
        Assert.True(command.Data.SequenceEqual(data));
    }

    [Fact]
    public void WriteFramePrefix_ThenData_SameAsWriteFrame()
    {
        byte[] data = WireBytes.Pattern(300);
        var whole = new byte[ZmtpCommandCodec.GetFrameLength(8, data.Length)];
        var split = new byte[whole.Length];

        ZmtpCommandCodec.WriteFrame(whole, "INITIATE"u8, data);
        int offset = ZmtpCommandCodec.WriteFramePrefix(split, "INITIATE"u8, data.Length);
        data.CopyTo(split, offset);

        Assert.Equal(whole.Length - data.Length, offset);
        Assert.Equal(WireBytes.ToHex(whole), WireBytes.ToHex(split));
    }
}
