
using Managed.Zmq.Options;

namespace Managed.Zmq.Tests.Options;

/// <summary>
/// Integer options against the option table (docs/options.md): defaults, round trips, ranges and the exact-width rule that libzmq enforces
/// (a 4-byte option never accepts 8 bytes and the other way round).
/// </summary>
public sealed class SocketOptionsIntegerTests
{
    public static TheoryData<string> Readable => IntegerOptionCases.Names(c => c.CanRead);

    public static TheoryData<string> Writable => IntegerOptionCases.Names(c => c.CanWrite);

    public static TheoryData<string> ReadOnly => IntegerOptionCases.Names(c => !c.CanWrite);

    public static TheoryData<string> WriteOnly => IntegerOptionCases.Names(c => !c.CanRead);

    public static TheoryData<string> ReadableExactWidth =>
        IntegerOptionCases.Names(c => c.CanRead && c.Option != OptionId.ThreadSafe);

    /// <summary>Listed samples plus both ends of the valid range, for options that can be written and read back.</summary>
    public static TheoryData<string, long> RoundTrips =>
        IntegerOptionCases.Values(c => [.. c.Samples, c.Min, c.Max], c => c.CanRead && c.CanWrite);

    /// <summary>Listed samples and range ends for write-only options, which can only be checked for acceptance.</summary>
    public static TheoryData<string, long> WriteOnlyValues =>
        IntegerOptionCases.Values(c => [.. c.Samples, c.Min, c.Max], c => !c.CanRead);

    public static TheoryData<string, long> BelowMinimum =>
        IntegerOptionCases.Values(c => [c.Min - 1, c.WidthMin], c => c.CanWrite && c.Min > c.WidthMin);

    public static TheoryData<string, long> AboveMaximum =>
        IntegerOptionCases.Values(c => [c.Max + 1, c.WidthMax], c => c.CanWrite && c.Max < c.WidthMax);

    [Theory]
    [MemberData(nameof(Readable))]
    public void TryGet_NewSocket_ReturnsDefault(string name)
    {
        IntegerOptionCase row = IntegerOptionCases.Get(name);
        var options = new SocketOptions(row.SocketType, ipv6Default: false);

        Assert.Equal(row.Default, options.GetInteger(row.Option, row.Width));
    }

    [Theory]
    [MemberData(nameof(RoundTrips))]
    public void TrySet_ValidValue_ReadsBack(string name, long value)
    {
        IntegerOptionCase row = IntegerOptionCases.Get(name);
        var options = new SocketOptions(row.SocketType, ipv6Default: false);

        Assert.Equal(OptionStatus.Ok, options.SetInteger(row.Option, row.Width, value));
        Assert.Equal(row.ReadBack(value), options.GetInteger(row.Option, row.Width));
    }

    [Theory]
    [MemberData(nameof(WriteOnlyValues))]
    public void TrySet_WriteOnlyValidValue_Succeeds(string name, long value)
    {
        IntegerOptionCase row = IntegerOptionCases.Get(name);
        var options = new SocketOptions(row.SocketType, ipv6Default: false);

        Assert.Equal(OptionStatus.Ok, options.SetInteger(row.Option, row.Width, value));
    }

    [Theory]
    [MemberData(nameof(BelowMinimum))]
    public void TrySet_BelowMinimum_ReturnsEinvalAndKeepsValue(string name, long value)
    {
        AssertRejectedAndUnchanged(IntegerOptionCases.Get(name), value);
    }

    [Theory]
    [MemberData(nameof(AboveMaximum))]
    public void TrySet_AboveMaximum_ReturnsEinvalAndKeepsValue(string name, long value)
    {
        AssertRejectedAndUnchanged(IntegerOptionCases.Get(name), value);
    }

    [Theory]
    [MemberData(nameof(Writable))]
    public void TrySet_WrongWidth_ReturnsEinval(string name)
    {
        IntegerOptionCase row = IntegerOptionCases.Get(name);
        var options = new SocketOptions(row.SocketType, ipv6Default: false);

        foreach (int width in new[] { 0, 1, 2, 3, 5, 7, 8, 9, 16 }.Where(w => w != row.Width))
        {
            Assert.Equal(OptionStatus.InvalidArgument, options.TrySet(row.Option, new byte[width]));
        }
    }

    [Theory]
    [MemberData(nameof(ReadableExactWidth))]
    public void TryGet_WrongWidth_ReturnsEinval(string name)
    {
        IntegerOptionCase row = IntegerOptionCases.Get(name);
        var options = new SocketOptions(row.SocketType, ipv6Default: false);

        foreach (int width in new[] { 0, 1, 2, 3, 5, 7, 8, 9, 16 }.Where(w => w != row.Width))
        {
            Assert.Equal(OptionStatus.InvalidArgument, options.TryGet(row.Option, new byte[width], out int length));
            Assert.Equal(0, length);
        }
    }

    [Theory]
    [MemberData(nameof(ReadOnly))]
    public void TrySet_ReadOnlyOption_ReturnsEinval(string name)
    {
        IntegerOptionCase row = IntegerOptionCases.Get(name);
        var options = new SocketOptions(row.SocketType, ipv6Default: false);

        Assert.Equal(OptionStatus.InvalidArgument, options.SetInteger(row.Option, row.Width, row.Default));
        Assert.Equal(OptionStatus.InvalidArgument, options.SetInteger(row.Option, row.Width, 1));
    }

    [Theory]
    [MemberData(nameof(WriteOnly))]
    public void TryGet_WriteOnlyOption_ReturnsEinval(string name)
    {
        IntegerOptionCase row = IntegerOptionCases.Get(name);
        var options = new SocketOptions(row.SocketType, ipv6Default: false);

        Assert.Equal(OptionStatus.InvalidArgument, options.TryGet(row.Option, new byte[row.Width], out _));
    }

    [Theory]
    [InlineData(SocketType.Pair)]
    [InlineData(SocketType.Pub)]
    [InlineData(SocketType.Sub)]
    [InlineData(SocketType.Req)]
    [InlineData(SocketType.Rep)]
    [InlineData(SocketType.Dealer)]
    [InlineData(SocketType.Router)]
    [InlineData(SocketType.Pull)]
    [InlineData(SocketType.Push)]
    [InlineData(SocketType.XPub)]
    [InlineData(SocketType.XSub)]
    [InlineData(SocketType.Stream)]
    public void TryGet_Type_ReturnsSocketTypeAndIsReadOnly(SocketType socketType)
    {
        var options = new SocketOptions(socketType, ipv6Default: false);

        Assert.Equal((int)socketType, options.GetInt32(OptionId.Type));
        Assert.Equal(OptionStatus.InvalidArgument, options.SetInt32(OptionId.Type, (int)socketType));
        Assert.Equal(OptionStatus.InvalidArgument, options.TryGet(OptionId.Type, new byte[8], out _));
    }

    [Theory]
    [InlineData(false, 0)]
    [InlineData(true, 1)]
    public void Ipv6_ContextDefault_IsInitialValue(bool ipv6Default, int expected)
    {
        var options = new SocketOptions(SocketType.Dealer, ipv6Default);

        Assert.Equal(expected, options.GetInt32(OptionId.Ipv6));
        Assert.Equal(ipv6Default, options.Ipv6);
        Assert.Equal(OptionStatus.Ok, options.SetInt32(OptionId.Ipv6, 1 - expected));
        Assert.Equal(!ipv6Default, options.Ipv6);
    }

    [Theory]
    [InlineData(4)]
    [InlineData(8)]
    [InlineData(16)]
    public void TryGet_ThreadSafeWiderBuffer_FillsLowBytes(int width)
    {
        var options = new SocketOptions(SocketType.Dealer, ipv6Default: false);
        byte[] buffer = [.. Enumerable.Repeat((byte)0xAA, width)];

        Assert.Equal(OptionStatus.Ok, options.TryGet(OptionId.ThreadSafe, buffer, out int length));
        Assert.Equal(sizeof(int), length);
        Assert.All(buffer, b => Assert.Equal(0, b));
        Assert.Equal(OptionStatus.InvalidArgument, options.TryGet(OptionId.ThreadSafe, new byte[3], out _));
    }

    [Theory]
    [InlineData(0, 0)]
    [InlineData(99, 0)]
    [InlineData(100, 100)]
    [InlineData(1050, 1000)]
    [InlineData(1999, 1900)]
    [InlineData(6_553_599, 6_553_500)]
    public void TrySet_HeartbeatTtl_RoundsDownToDeciseconds(int value, int expected)
    {
        var options = new SocketOptions(SocketType.Dealer, ipv6Default: false);

        Assert.Equal(OptionStatus.Ok, options.SetInt32(OptionId.HeartbeatTtl, value));
        Assert.Equal(expected, options.GetInt32(OptionId.HeartbeatTtl));
        Assert.Equal(expected, options.HeartbeatTtl);
    }

    [Fact]
    public void HeartbeatTimeout_Unset_FollowsHeartbeatInterval()
    {
        var options = new SocketOptions(SocketType.Dealer, ipv6Default: false);
        Assert.Equal(OptionStatus.Ok, options.SetInt32(OptionId.HeartbeatInterval, 500));

        Assert.Equal(-1, options.GetInt32(OptionId.HeartbeatTimeout));
        Assert.Equal(500, options.HeartbeatTimeout);

        Assert.Equal(OptionStatus.Ok, options.SetInt32(OptionId.HeartbeatTimeout, 0));
        Assert.Equal(0, options.HeartbeatTimeout);
        Assert.Equal(OptionStatus.InvalidArgument, options.SetInt32(OptionId.HeartbeatTimeout, -1));
    }

    [Fact]
    public void XpubVerbose_AfterVerboser_TurnsOffUnsubscribeForwarding()
    {
        var options = new SocketOptions(SocketType.XPub, ipv6Default: false);

        Assert.Equal(OptionStatus.Ok, options.SetInt32(OptionId.XpubVerboser, 1));
        Assert.True(options.XpubVerbose);
        Assert.True(options.XpubVerboser);

        Assert.Equal(OptionStatus.Ok, options.SetInt32(OptionId.XpubVerbose, 1));
        Assert.True(options.XpubVerbose);
        Assert.False(options.XpubVerboser);

        Assert.Equal(OptionStatus.Ok, options.SetInt32(OptionId.XpubVerboser, 0));
        Assert.False(options.XpubVerbose);
        Assert.False(options.XpubVerboser);
    }

    private static void AssertRejectedAndUnchanged(IntegerOptionCase row, long value)
    {
        var options = new SocketOptions(row.SocketType, ipv6Default: false);

        Assert.Equal(OptionStatus.InvalidArgument, options.SetInteger(row.Option, row.Width, value));
        if (row.CanRead)
        {
            Assert.Equal(row.Default, options.GetInteger(row.Option, row.Width));
        }
    }
}
