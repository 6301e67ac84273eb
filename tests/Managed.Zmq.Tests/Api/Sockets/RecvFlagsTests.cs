namespace Managed.Zmq.Tests.Api.Sockets;

public class RecvFlagsTests
{
    [Theory]
    [InlineData(RecvFlags.None, 0)]
    [InlineData(RecvFlags.DontWait, 1)]
    public void Member_Value_MatchesLibzmq(RecvFlags flag, int expected) => Assert.Equal(expected, (int)flag);

    [Fact]
    public void Type_Shape_IsIntFlagsWithTwoMembers()
    {
        Assert.True(typeof(RecvFlags).IsDefined(typeof(FlagsAttribute), false));
        Assert.Equal(typeof(int), Enum.GetUnderlyingType(typeof(RecvFlags)));
        Assert.Equal(2, Enum.GetNames<RecvFlags>().Length);
    }
}
