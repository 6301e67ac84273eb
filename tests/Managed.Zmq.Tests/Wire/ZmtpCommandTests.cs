using Managed.Zmq.Wire;

namespace Managed.Zmq.Tests.Wire;

/// <summary>Command name matching: exact and case-sensitive.</summary>
public sealed class ZmtpCommandTests
{
    [Theory]
    [InlineData("READY", "READY", true)]
    [InlineData("READY", "ready", false)]
    [InlineData("READY", "READ", false)]
    [InlineData("READ", "READY", false)]
    [InlineData("PING", "PONG", false)]
    public void Is_Name_ExactMatchOnly(string actual, string candidate, bool expected)
    {
        var command = new ZmtpCommand(System.Text.Encoding.ASCII.GetBytes(actual), default);

        Assert.Equal(expected, command.Is(System.Text.Encoding.ASCII.GetBytes(candidate)));
    }
}
