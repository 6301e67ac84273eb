namespace Managed.Zmq.Tests.Api.Errors;

public class ErrorCodeTests
{
    [Theory]
    [InlineData("ENOENT", 2)]
    [InlineData("EINTR", 4)]
    [InlineData("EAGAIN", 11)]
    [InlineData("EACCES", 13)]
    [InlineData("EFAULT", 14)]
    [InlineData("ENODEV", 19)]
    [InlineData("EINVAL", 22)]
    [InlineData("EMFILE", 24)]
    [InlineData("ENAMETOOLONG", 36)]
    [InlineData("ENOTSOCK", 88)]
    [InlineData("EMSGSIZE", 90)]
    [InlineData("EPROTONOSUPPORT", 93)]
    [InlineData("ENOTSUP", 95)]
    [InlineData("EAFNOSUPPORT", 97)]
    [InlineData("EADDRINUSE", 98)]
    [InlineData("EADDRNOTAVAIL", 99)]
    [InlineData("ENETDOWN", 100)]
    [InlineData("ENETUNREACH", 101)]
    [InlineData("ENETRESET", 102)]
    [InlineData("ECONNABORTED", 103)]
    [InlineData("ECONNRESET", 104)]
    [InlineData("ENOBUFS", 105)]
    [InlineData("ENOTCONN", 107)]
    [InlineData("ETIMEDOUT", 110)]
    [InlineData("ECONNREFUSED", 111)]
    [InlineData("EHOSTUNREACH", 113)]
    [InlineData("EINPROGRESS", 115)]
    [InlineData("EFSM", 156384763)]
    [InlineData("ENOCOMPATPROTO", 156384764)]
    [InlineData("ETERM", 156384765)]
    [InlineData("EMTHREAD", 156384766)]
    [InlineData("EBUFFERSMALL", 156384812)]
    [InlineData("ESIZEMISMATCH", 156384813)]
    public void Member_Value_MatchesApiTable(string name, int expected) =>
        Assert.Equal(expected, (int)Enum.Parse<ErrorCode>(name));

    [Fact]
    public void Type_Shape_Is33IntMembersNoZeroNoFlags()
    {
        Assert.Equal(typeof(int), Enum.GetUnderlyingType(typeof(ErrorCode)));
        Assert.False(typeof(ErrorCode).IsDefined(typeof(FlagsAttribute), false));
        Assert.Equal(33, Enum.GetNames<ErrorCode>().Length);
        Assert.DoesNotContain(0, Enum.GetValues<ErrorCode>().Select(v => (int)v));
    }
}
