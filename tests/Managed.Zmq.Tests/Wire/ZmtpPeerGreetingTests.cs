using Managed.Zmq.Wire;

namespace Managed.Zmq.Tests.Wire;

/// <summary>Which subscription encoding a peer's announced version calls for (RFC 37 §Version Negotiation, docs/libzmq-behaviour.md L2).</summary>
public sealed class ZmtpPeerGreetingTests
{
    [Theory]
    [InlineData(3, 0, true)]
    [InlineData(3, 1, false)]
    [InlineData(3, 2, false)]
    [InlineData(4, 0, false)]
    [InlineData(2, 0, false)]
    public void IsZmtp30_Version_OnlyForExactly30(byte major, byte minor, bool expected)
    {
        var greeting = new ZmtpPeerGreeting(major, minor, ZmtpMechanism.Null, asServer: false);

        Assert.Equal(expected, greeting.IsZmtp30);
    }
}
