
using Managed.Zmq.Options;

namespace Managed.Zmq.Tests.Options;

/// <summary>Max_Connections, an option of ours: its number, default, range and refusals (EINVAL, as libzmq refuses bad values).</summary>
public sealed class MaxConnectionsOptionTests
{
    [Fact]
    public void Number_OutsideLibzmqRange_IsOurs()
    {
        Assert.Equal(10_000, (int)SocketOption.Max_Connections);
        Assert.Equal(OptionId.MaxConnections, (int)SocketOption.Max_Connections);
        Assert.True(OptionId.MaxConnections >= OptionId.OwnBase);
        Assert.Equal(OptionKind.Int32, SocketOptions.GetKind(OptionId.MaxConnections));
    }

    [Theory]
    [InlineData(SocketType.Router)]
    [InlineData(SocketType.Pull)]
    [InlineData(SocketType.Stream)]
    public void Get_Default_Is100000(SocketType socketType)
    {
        using var context = new Context();
        using var socket = new Socket(context, socketType);

        Assert.Equal(100_000, socket.GetOption<int>(SocketOption.Max_Connections));
        Assert.Equal(100_000, socket.Core.Options.MaxConnections);
    }

    [Theory]
    [InlineData(-1)]
    [InlineData(1)]
    [InlineData(3)]
    [InlineData(int.MaxValue)]
    public void Set_ValidValue_ReadsBack(int value)
    {
        using var context = new Context();
        using var socket = new Socket(context, SocketType.Router);

        socket.SetOption(SocketOption.Max_Connections, value);

        Assert.Equal(value, socket.GetOption<int>(SocketOption.Max_Connections));
        Assert.Equal(value, socket.Core.Options.MaxConnections);
    }

    [Theory]
    [InlineData(0)]
    [InlineData(-2)]
    [InlineData(int.MinValue)]
    public void Set_ZeroOrBelowMinusOne_FailsWithEinvalAndKeepsValue(int value)
    {
        using var context = new Context();
        using var socket = new Socket(context, SocketType.Router);
        socket.SetOption(SocketOption.Max_Connections, 7);

        var ex = Assert.Throws<ZmqException>(() => socket.SetOption(SocketOption.Max_Connections, value));

        Assert.Equal(ZmqConstants.EINVAL, ex.ErrorNumber);
        Assert.Equal(7, socket.GetOption<int>(SocketOption.Max_Connections));
    }

    [Fact]
    public void TrySet_WrongWidth_IsEinval()
    {
        var options = new SocketOptions(SocketType.Router, ipv6Default: false);

        Assert.Equal(OptionStatus.InvalidArgument, options.TrySet(OptionId.MaxConnections, BitConverter.GetBytes(5L)));
        Assert.Equal(OptionStatus.InvalidArgument, options.TryGet(OptionId.MaxConnections, new byte[sizeof(long)], out _));
    }

    [Theory]
    [InlineData(OptionId.OwnBase - 1)]
    [InlineData(OptionId.OwnBase + OptionId.OwnCount)]
    [InlineData(OptionId.Count)]
    public void TrySet_NumbersAroundOurs_AreEinval(int option)
    {
        var options = new SocketOptions(SocketType.Router, ipv6Default: false);

        Assert.Equal(OptionStatus.InvalidArgument, options.TrySet(option, BitConverter.GetBytes(5)));
        Assert.Equal(OptionStatus.InvalidArgument, options.TryGet(option, new byte[sizeof(int)], out _));
    }

    [Fact]
    public void Clone_Value_Carried()
    {
        var options = new SocketOptions(SocketType.Router, ipv6Default: false);
        Assert.Equal(OptionStatus.Ok, options.TrySet(OptionId.MaxConnections, BitConverter.GetBytes(12)));

        Assert.Equal(12, options.Clone().MaxConnections);
    }
}
