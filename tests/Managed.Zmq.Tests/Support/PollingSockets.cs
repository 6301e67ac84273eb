using Managed.Zmq.Inproc;

namespace Managed.Zmq.Tests.Support;

/// <summary>Socket helpers for the polling tests: Linger 0 so a context never waits on a test's leftovers, and unique endpoints.</summary>
internal static class PollingSockets
{
    /// <summary>Generous bound on every wait, so a broken wake-up fails a test instead of hanging the run.</summary>
    public static readonly TimeSpan WaitLimit = TimeSpan.FromSeconds(10);

    private static int s_counter;

    public static Socket Open(Context context, SocketType type)
    {
        var socket = new Socket(context, type);
        socket.SetOption(SocketOption.Linger, 0);
        return socket;
    }

    public static string InprocEndpoint() => $"inproc://polling-{Environment.ProcessId}-{Interlocked.Increment(ref s_counter)}";

    public static string IpcEndpoint() =>
        $"ipc://{Path.Combine(Path.GetTempPath(), $"mzq-poll-{Environment.ProcessId}-{Interlocked.Increment(ref s_counter)}.ipc")}";

    /// <summary>Binds <paramref name="socket"/> on the transport and returns the endpoint to connect to.</summary>
    public static string BindAny(Socket socket, string transport)
    {
        string endpoint = transport switch
        {
            "inproc" => InprocEndpoint(),
            "ipc" => IpcEndpoint(),
            _ => "tcp://127.0.0.1:0",
        };
        socket.Bind(endpoint);
        return socket.GetOptionString(SocketOption.Last_Endpoint);
    }

    /// <summary>A bound receiver and a connected sender of the given types on the transport.</summary>
    public static (Socket Receiver, Socket Sender) Pair(Context context, SocketType receiverType, SocketType senderType, string transport)
    {
        var receiver = Open(context, receiverType);
        var sender = Open(context, senderType);
        sender.Connect(BindAny(receiver, transport));
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
