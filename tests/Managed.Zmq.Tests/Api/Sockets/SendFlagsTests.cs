namespace Managed.Zmq.Tests.Api.Sockets;

public class SendFlagsTests
{
    [Theory]
    [InlineData(SendFlags.None, 0)]
    [InlineData(SendFlags.DontWait, 1)]
    [InlineData(SendFlags.SendMore, 2)]
    public void Member_Value_MatchesLibzmq(SendFlags flag, int expected) => Assert.Equal(expected, (int)flag);

    [Fact]
    public void Type_Shape_IsIntFlagsWithThreeMembers()
    {
        Assert.True(typeof(SendFlags).IsDefined(typeof(FlagsAttribute), false));
        Assert.Equal(typeof(int), Enum.GetUnderlyingType(typeof(SendFlags)));
        Assert.Equal(3, Enum.GetNames<SendFlags>().Length);
    }
}
