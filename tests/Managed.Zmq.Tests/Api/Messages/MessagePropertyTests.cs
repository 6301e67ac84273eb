namespace Managed.Zmq.Tests.Api.Messages;

public class MessagePropertyTests
{
    [Fact]
    public void Members_Values_MatchLibzmq()
    {
        Assert.Equal(1, (int)MessageProperty.More);
        Assert.Equal(3, (int)MessageProperty.Shared);
        Assert.Equal(ZmqConstants.ZMQ_MORE, (int)MessageProperty.More);
        Assert.Equal(ZmqConstants.ZMQ_SHARED, (int)MessageProperty.Shared);
    }

    [Fact]
    public void Type_Shape_IsIntEnumWithoutFlags()
    {
        Assert.False(typeof(MessageProperty).IsDefined(typeof(FlagsAttribute), false));
        Assert.Equal(typeof(int), Enum.GetUnderlyingType(typeof(MessageProperty)));
        Assert.Equal(2, Enum.GetNames<MessageProperty>().Length);
    }
}
