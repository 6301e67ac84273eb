namespace Managed.Zmq.Tests.Api.Contexts;

public class ContextOptionTests
{
    [Theory]
    [InlineData(nameof(ContextOption.IoThreads), 1)]
    [InlineData(nameof(ContextOption.MaxSockets), 2)]
    [InlineData(nameof(ContextOption.SocketLimit), 3)]
    [InlineData(nameof(ContextOption.ThreadPriority), 3)]
    [InlineData(nameof(ContextOption.ThreadSchedPolicy), 4)]
    [InlineData(nameof(ContextOption.MaxMsgSize), 5)]
    [InlineData(nameof(ContextOption.MsgTSize), 6)]
    [InlineData(nameof(ContextOption.ThreadAffinityCpuAdd), 7)]
    [InlineData(nameof(ContextOption.ThreadAffinityCpuRemove), 8)]
    [InlineData(nameof(ContextOption.ThreadNamePrefix), 9)]
    public void Member_Value_MatchesLibzmq(string name, int expected) =>
        Assert.Equal(expected, (int)Enum.Parse<ContextOption>(name));

    [Fact]
    public void Type_Shape_IsIntEnumWithTenNamesAndNoFlags()
    {
        Assert.False(typeof(ContextOption).IsDefined(typeof(FlagsAttribute), false));
        Assert.Equal(typeof(int), Enum.GetUnderlyingType(typeof(ContextOption)));
        Assert.Equal(10, Enum.GetNames<ContextOption>().Length);
    }
}
