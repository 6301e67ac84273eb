using System.Text;
using Managed.Zmq.Wire;

namespace Managed.Zmq.Tests.Wire;

/// <summary>The text name of each mechanism is its greeting name without the NUL padding (RFC 23).</summary>
public sealed class ZmtpMechanismNamesTests
{
    [Theory]
    [InlineData((int)ZmtpMechanism.Null, "NULL")]
    [InlineData((int)ZmtpMechanism.Plain, "PLAIN")]
    [InlineData((int)ZmtpMechanism.Curve, "CURVE")]
    [InlineData((int)ZmtpMechanism.Gssapi, "GSSAPI")]
    public void ToText_KnownMechanism_IsGreetingNameWithoutPadding(int mechanism, string expected)
    {
        string text = ZmtpMechanismNames.ToText((ZmtpMechanism)mechanism);

        Assert.Equal(expected, text);
        Assert.Equal(expected, Encoding.ASCII.GetString(ZmtpGreeting.GetMechanismName((ZmtpMechanism)mechanism)).TrimEnd('\0'));
    }

    [Fact]
    public void ToText_Unknown_Empty()
    {
        Assert.Equal(string.Empty, ZmtpMechanismNames.ToText(ZmtpMechanism.Unknown));
    }
}
