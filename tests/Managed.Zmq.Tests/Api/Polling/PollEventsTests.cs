namespace Managed.Zmq.Tests.Api.Polling;

public class PollEventsTests
{
    [Theory]
    [InlineData(PollEvents.None, 0)]
    [InlineData(PollEvents.In, 1)]
    [InlineData(PollEvents.Out, 2)]
    [InlineData(PollEvents.Err, 4)]
    [InlineData(PollEvents.Pri, 8)]
    public void Member_Value_MatchesLibzmq(PollEvents events, short expected) => Assert.Equal(expected, (short)events);

    [Fact]
    public void Type_Shape_IsShortFlagsWithFiveMembers()
    {
        Assert.True(typeof(PollEvents).IsDefined(typeof(FlagsAttribute), false));
        Assert.Equal(typeof(short), Enum.GetUnderlyingType(typeof(PollEvents)));
        Assert.Equal(5, Enum.GetNames<PollEvents>().Length);
    }
}
