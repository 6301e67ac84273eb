using Managed.Zmq.Options;
using Managed.Zmq.Wire;

namespace Managed.Zmq.Tests.Options;

/// <summary>The mechanism enum meets libzmq's ZMQ_MECHANISM numbers (zmq.h) in one place only.</summary>
public sealed class MechanismNumbersTests
{
    [Theory]
    [InlineData((int)ZmtpMechanism.Null, 0)]
    [InlineData((int)ZmtpMechanism.Plain, 1)]
    [InlineData((int)ZmtpMechanism.Curve, 2)]
    [InlineData((int)ZmtpMechanism.Gssapi, 3)]
    public void ToOptionValue_EachMechanism_IsLibzmqNumber(int mechanism, int expected)
    {
        Assert.Equal(expected, MechanismNumbers.ToOptionValue((ZmtpMechanism)mechanism));
    }

    [Fact]
    public void ToOptionValue_Values_MatchPublicConstants()
    {
        Assert.Equal(ZmqConstants.ZMQ_NULL, MechanismNumbers.ToOptionValue(ZmtpMechanism.Null));
        Assert.Equal(ZmqConstants.ZMQ_PLAIN, MechanismNumbers.ToOptionValue(ZmtpMechanism.Plain));
        Assert.Equal(ZmqConstants.ZMQ_CURVE, MechanismNumbers.ToOptionValue(ZmtpMechanism.Curve));
    }

    [Fact]
    public void GetInt32Mechanism_DefaultSocket_ReadsZmqNull()
    {
        var options = new SocketOptions(SocketType.Dealer, ipv6Default: false);

        Assert.Equal(ZmtpMechanism.Null, options.Mechanism);
        Assert.Equal(ZmqConstants.ZMQ_NULL, options.GetInt32(OptionId.Mechanism));
    }

    [Fact]
    public void GetInt32Mechanism_CurveServer_ReadsZmqCurveNotEnumValue()
    {
        var options = new SocketOptions(SocketType.Dealer, ipv6Default: false);
        Assert.Equal(OptionStatus.Ok, options.SetInt32(OptionId.CurveServer, 1));

        Assert.Equal(ZmtpMechanism.Curve, options.Mechanism);
        Assert.Equal(ZmqConstants.ZMQ_CURVE, options.GetInt32(OptionId.Mechanism));
    }
}
