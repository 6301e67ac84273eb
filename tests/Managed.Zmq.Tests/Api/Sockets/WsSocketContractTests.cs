using System.Text.RegularExpressions;

namespace Managed.Zmq.Tests.Api.Sockets;

/// <summary>The socket contract over <c>ws://</c> (ZWS 2.0 on loopback TCP), plus ws-only endpoint forms.</summary>
public sealed partial class WsSocketContractTests() : SocketContractTests(Transport.Ws)
{
    protected override void AssertBoundEndpointFormat(string lastEndpoint)
    {
        var match = WsEndpoint().Match(lastEndpoint);
        Assert.True(match.Success, lastEndpoint);
        Assert.NotEqual(0, int.Parse(match.Groups[1].Value, System.Globalization.CultureInfo.InvariantCulture));
    }

    [Fact]
    public void LastEndpoint_BindAllInterfacesWithoutPath_ReportsZeroAddressAndRootPath()
    {
        using var socket = new Managed.Zmq.Socket(Context, Managed.Zmq.SocketType.Pull);
        socket.SetOption(SocketOption.Linger, 0);

        socket.Bind("ws://*:*");

        // libzmq 4.3 (draft) reports ws://0.0.0.0:PORT/ for this bind.
        Assert.Matches(@"^ws://0\.0\.0\.0:[1-9][0-9]*/$", socket.GetOptionString(SocketOption.Last_Endpoint));
    }

    [Fact]
    public void Connect_PathDiffersFromBind_StillConnects()
    {
        // libzmq's ws listener does not look at the request's path.
        using var pull = new Managed.Zmq.Socket(Context, Managed.Zmq.SocketType.Pull);
        using var push = new Managed.Zmq.Socket(Context, Managed.Zmq.SocketType.Push);
        pull.SetOption(SocketOption.Linger, 0);
        push.SetOption(SocketOption.Linger, 0);
        pull.SetOption(SocketOption.Rcvtimeo, 10_000);
        pull.Bind("ws://127.0.0.1:*/a");
        string bound = pull.GetOptionString(SocketOption.Last_Endpoint);

        push.Connect(bound[..bound.LastIndexOf('/')] + "/other/path");
        push.Send("over ws");

        Assert.Equal("over ws", pull.RecvString());
    }

    [Fact]
    public void LastEndpoint_BindNestedPath_KeepsLastSegmentAsLibzmq()
    {
        using var socket = new Managed.Zmq.Socket(Context, Managed.Zmq.SocketType.Pull);
        socket.SetOption(SocketOption.Linger, 0);

        socket.Bind("ws://127.0.0.1:*/a/b");

        // libzmq 4.3 (draft) keeps only the part after the last '/'.
        Assert.Matches(@"^ws://127\.0\.0\.1:[1-9][0-9]*/b$", socket.GetOptionString(SocketOption.Last_Endpoint));
    }

    [GeneratedRegex(@"^ws://127\.0\.0\.1:([0-9]+)/contract$")]
    private static partial Regex WsEndpoint();
}
