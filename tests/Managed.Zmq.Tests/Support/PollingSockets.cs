namespace Managed.Zmq.Tests.Support;

/// <summary>
/// Socket helpers for the polling tests: Linger 0 so a context never waits on a test's leftovers, send and receive
/// timeouts of <see cref="WaitLimit"/> so a synchronous Send or Recv that a broken library never completes fails the test
/// instead of hanging the run, and unique endpoints.
/// </summary>
internal static class PollingSockets
{
    /// <summary>Generous bound on every wait, so a broken wake-up fails a test instead of hanging the run.</summary>
    public static readonly TimeSpan WaitLimit = TimeSpan.FromSeconds(10);

    public static Socket Open(Context context, SocketType type)
    {
        var socket = new Socket(context, type);
        socket.SetOption(SocketOption.Linger, 0);
        socket.SetOption(SocketOption.Rcvtimeo, (int)WaitLimit.TotalMilliseconds);
        socket.SetOption(SocketOption.Sndtimeo, (int)WaitLimit.TotalMilliseconds);
        return socket;
    }

    /// <summary>A bound receiver and a connected sender of the given types on the transport.</summary>
    public static (Socket Receiver, Socket Sender) Pair(Context context, SocketType receiverType, SocketType senderType, Transport transport)
    {
        var receiver = Open(context, receiverType);
        var sender = Open(context, senderType);
        sender.Connect(TestEndpoint.Bind(receiver, transport));
        return (receiver, sender);
    }

    /// <summary>Waits (event-driven, bounded) until <paramref name="socket"/> has a frame to receive.</summary>
    public static void WaitReadable(Socket socket)
    {
        using var poller = new Poller(1);
        poller.Add(socket, PollEvents.In);
        Assert.Equal(1, poller.Poll(WaitLimit));
    }

    public static void AssertZmqError(int expected, Action action)
    {
        var exception = Assert.Throws<ZmqException>(action);
        Assert.Equal(expected, exception.ErrorNumber);
    }
}
