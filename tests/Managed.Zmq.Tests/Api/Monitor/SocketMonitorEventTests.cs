namespace Managed.Zmq.Tests.Api.Monitor;

public class SocketMonitorEventTests
{
    [Theory]
    [InlineData(SocketMonitorEvent.None, 0)]
    [InlineData(SocketMonitorEvent.Connected, ZmqConstants.ZMQ_EVENT_CONNECTED)]
    [InlineData(SocketMonitorEvent.ConnectDelayed, 2)]
    [InlineData(SocketMonitorEvent.ConnectRetried, 4)]
    [InlineData(SocketMonitorEvent.Listening, 8)]
    [InlineData(SocketMonitorEvent.BindFailed, 16)]
    [InlineData(SocketMonitorEvent.Accepted, 32)]
    [InlineData(SocketMonitorEvent.AcceptFailed, 64)]
    [InlineData(SocketMonitorEvent.Closed, 128)]
    [InlineData(SocketMonitorEvent.CloseFailed, 256)]
    [InlineData(SocketMonitorEvent.Disconnected, 512)]
    [InlineData(SocketMonitorEvent.MonitorStopped, 1024)]
    [InlineData(SocketMonitorEvent.All, 0xFFFF)]
    public void Member_Value_MatchesLibzmq(SocketMonitorEvent e, int expected) => Assert.Equal(expected, (int)e);

    [Fact]
    public void Type_Shape_IsIntFlagsWithThirteenMembers()
    {
        Assert.True(typeof(SocketMonitorEvent).IsDefined(typeof(FlagsAttribute), false));
        Assert.Equal(typeof(int), Enum.GetUnderlyingType(typeof(SocketMonitorEvent)));
        Assert.Equal(13, Enum.GetNames<SocketMonitorEvent>().Length);
    }

    [Fact]
    public void Members_Values_MatchZmqConstantsEvents()
    {
        Assert.Equal(ZmqConstants.ZMQ_EVENT_MONITOR_STOPPED, (int)SocketMonitorEvent.MonitorStopped);
        Assert.Equal(ZmqConstants.ZMQ_EVENT_ALL, (int)SocketMonitorEvent.All);
    }
}
