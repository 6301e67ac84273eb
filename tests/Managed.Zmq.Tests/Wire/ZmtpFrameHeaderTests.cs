using Managed.Zmq.Wire;

namespace Managed.Zmq.Tests.Wire;

/// <summary>The derived properties of a decoded header.</summary>
public sealed class ZmtpFrameHeaderTests
{
    [Theory]
    [InlineData(0x00, false, false)]
    [InlineData(0x01, true, false)]
    [InlineData(0x04, false, true)]
    [InlineData(0x05, true, true)]
    [InlineData(0x03, true, false)]
    public void Properties_Flags_ReflectBits(byte flags, bool more, bool isCommand)
    {
        var header = new ZmtpFrameHeader((ZmtpFrameFlags)flags, 10, 2);

        Assert.Equal(more, header.More);
        Assert.Equal(isCommand, header.IsCommand);
    }

    [Fact]
    public void FrameLength_LongHeader_AddsHeaderAndBody()
    {
        var header = new ZmtpFrameHeader(ZmtpFrameFlags.Long, 300, 9);

        Assert.Equal(309, header.FrameLength);
        Assert.Equal(300, header.BodyLength);
        Assert.Equal(9, header.HeaderLength);
    }
}
