namespace Managed.Zmq.Tests.Api.Monitor;

public class SocketMonitorEventDataTests
{
    private const string FrameLengthMessage = "Event frame must be exactly 6 bytes (2 bytes for event + 4 bytes for value).";

    [Fact]
    public void Parse_LittleEndianFrame_ReadsEventAndValue()
    {
        byte[] frame = [0x08, 0x00, 0x2A, 0x00, 0x00, 0x00];
        SocketMonitorEventData data = SocketMonitorEventData.Parse(frame, "tcp://127.0.0.1:5555");
        Assert.Equal(SocketMonitorEvent.Listening, data.Event);
        Assert.Equal(42, data.Value);
        Assert.Equal("tcp://127.0.0.1:5555", data.Address);
    }

    [Fact]
    public void Parse_NegativeValueAndUnnamedEvent_RoundTrips()
    {
        byte[] frame = [0x00, 0x10, 0xFF, 0xFF, 0xFF, 0xFF];
        SocketMonitorEventData data = SocketMonitorEventData.Parse(frame.AsSpan(), "inproc://x");
        Assert.Equal((SocketMonitorEvent)4096, data.Event);
        Assert.Equal(-1, data.Value);
    }

    [Fact]
    public void Parse_HighEventId_IsUnsigned()
    {
        byte[] frame = [0xFF, 0xFF, 0, 0, 0, 0];
        Assert.Equal(SocketMonitorEvent.All, SocketMonitorEventData.Parse(frame, "").Event);
    }

    [Theory]
    [InlineData(0)]
    [InlineData(5)]
    [InlineData(7)]
    public void ParseSpan_WrongLength_ThrowsArgumentException(int length)
    {
        var ex = Assert.Throws<ArgumentException>(() => SocketMonitorEventData.Parse(new byte[length].AsSpan(), "a"));
        Assert.Equal("eventFrame", ex.ParamName);
        Assert.StartsWith(FrameLengthMessage, ex.Message);
    }

    [Fact]
    public void ParseArray_WrongLength_ThrowsArgumentException()
    {
        var ex = Assert.Throws<ArgumentException>(() => SocketMonitorEventData.Parse(new byte[4], "a"));
        Assert.Equal("eventFrame", ex.ParamName);
    }

    [Fact]
    public void ParseSpan_NullAddress_ThrowsBeforeLengthCheck()
    {
        var ex = Assert.Throws<ArgumentNullException>(() => SocketMonitorEventData.Parse(new byte[1].AsSpan(), null!));
        Assert.Equal("address", ex.ParamName);
    }

    [Fact]
    public void ParseArray_NullFrame_ThrowsArgumentNullForFrameFirst()
    {
        var ex = Assert.Throws<ArgumentNullException>(() => SocketMonitorEventData.Parse((byte[])null!, null!));
        Assert.Equal("eventFrame", ex.ParamName);
    }

    [Fact]
    public void Equality_SameParts_AreEqual()
    {
        var a = new SocketMonitorEventData(SocketMonitorEvent.Connected, 7, "tcp://h:1");
        var b = new SocketMonitorEventData(SocketMonitorEvent.Connected, 7, "tcp://h:1");
        var c = new SocketMonitorEventData(SocketMonitorEvent.Connected, 8, "tcp://h:1");
        Assert.Equal(a, b);
        Assert.True(a == b);
        Assert.True(a != c);
        Assert.Equal(a.GetHashCode(), b.GetHashCode());
    }

    [Fact]
    public void ToString_Record_UsesCompilerFormat()
    {
        var data = new SocketMonitorEventData(SocketMonitorEvent.Accepted, 3, "tcp://a:1");
        Assert.Equal("SocketMonitorEventData { Event = Accepted, Value = 3, Address = tcp://a:1 }", data.ToString());
    }

    [Fact]
    public void Type_Shape_HasNoDeconstruct()
    {
        Assert.Null(typeof(SocketMonitorEventData).GetMethod("Deconstruct"));
        Assert.True(typeof(SocketMonitorEventData).IsValueType);
    }
}
