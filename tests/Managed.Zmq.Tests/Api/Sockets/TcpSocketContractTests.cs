using System.Net;
using System.Net.Sockets;
using System.Text.RegularExpressions;

namespace Managed.Zmq.Tests.Api.Sockets;

/// <summary>The socket contract over <c>tcp://</c> on the loopback interface, plus TCP-only endpoint forms.</summary>
public sealed partial class TcpSocketContractTests() : SocketContractTests(Transport.Tcp)
{
    protected override void AssertBoundEndpointFormat(string lastEndpoint)
    {
        var match = TcpEndpoint().Match(lastEndpoint);
        Assert.True(match.Success, lastEndpoint);
        Assert.NotEqual(0, int.Parse(match.Groups[1].Value, System.Globalization.CultureInfo.InvariantCulture));
    }

    [Fact]
    public void LastEndpoint_BindAllInterfacesEphemeral_ReportsZeroAddressAndRealPort()
    {
        using var socket = new Managed.Zmq.Socket(Context, Managed.Zmq.SocketType.Pull);
        socket.SetOption(SocketOption.Linger, 0);

        socket.Bind("tcp://*:*");

        Assert.Matches(@"^tcp://0\.0\.0\.0:[1-9][0-9]*$", socket.GetOptionString(SocketOption.Last_Endpoint));
    }

    [Fact]
    public void LastEndpoint_BindExplicitPort_EqualsBoundString()
    {
        using var socket = new Managed.Zmq.Socket(Context, Managed.Zmq.SocketType.Pull);
        socket.SetOption(SocketOption.Linger, 0);
        string endpoint = UnusedEndpoint();

        socket.Bind(endpoint);

        Assert.Equal(endpoint, socket.GetOptionString(SocketOption.Last_Endpoint));
    }

    [GeneratedRegex(@"^tcp://127\.0\.0\.1:([0-9]+)$")]
    private static partial Regex TcpEndpoint();
}
