namespace Managed.Zmq.Tests.Support;

/// <summary>
/// Sockets for the transport tests: every socket has send and receive timeouts, so a broken
/// contract fails a test instead of hanging the run, and Linger 0; disposal closes them all, then
/// their contexts, under a deadline.
/// </summary>
public abstract class TransportSockets : IDisposable
{
    /// <summary>Receive/send timeout of test sockets: generous, only ever reached when a test fails.</summary>
    protected const int Timeout = 5000;

    private readonly List<Socket> _sockets = [];
    private readonly List<Context> _contexts = [];
    private bool _disposed;

    protected TransportSockets()
    {
        Context = NewContext();
    }

    protected Context Context { get; }

    /// <summary>A context that is terminated with the test.</summary>
    protected Context NewContext()
    {
        var context = new Context();
        _contexts.Add(context);
        return context;
    }

    protected Socket Create(SocketType type, Context? context = null)
    {
        var socket = new Socket(context ?? Context, type);
        socket.SetOption(SocketOption.Linger, 0);
        socket.SetOption(SocketOption.Rcvtimeo, Timeout);
        socket.SetOption(SocketOption.Sndtimeo, Timeout);
        _sockets.Add(socket);
        return socket;
    }

    protected static void AssertZmqError(int expected, Action action)
    {
        var ex = Assert.Throws<ZmqException>(action);
        Assert.Equal(expected, ex.ErrorNumber);
    }

    /// <summary>Sends single-frame messages with DontWait until one is refused; returns how many were taken.</summary>
    protected static int SendUntilRefused(Socket socket, int limit = 1_000_000)
    {
        int sent = 0;
        while (sent < limit && socket.Send($"m{sent}", SendFlags.DontWait))
        {
            sent++;
        }

        return sent;
    }

    /// <summary>Receives with DontWait until nothing is queued; returns the messages in order.</summary>
    protected static List<string> DrainNow(Socket socket)
    {
        var received = new List<string>();
        while (socket.TryRecvString(out string? text))
        {
            received.Add(text);
        }

        return received;
    }

    /// <summary>Receives with a short timeout: the next message, or null if none came in time.</summary>
    protected static string? TryRecvString(Socket socket, int timeoutMilliseconds)
    {
        int saved = socket.GetOption<int>(SocketOption.Rcvtimeo);
        socket.SetOption(SocketOption.Rcvtimeo, timeoutMilliseconds);
        try
        {
            return socket.RecvString();
        }
        catch (ZmqException ex) when (ex.ErrorNumber == ZmqConstants.EAGAIN)
        {
            return null;
        }
        finally
        {
            socket.SetOption(SocketOption.Rcvtimeo, saved);
        }
    }

    protected static string[] RecvMessage(Socket socket)
    {
        var frames = new List<string> { socket.RecvString() };
        while (socket.HasMore)
        {
            frames.Add(socket.RecvString());
        }

        return [.. frames];
    }

    protected static void SendMessage(Socket socket, params string[] frames)
    {
        for (int i = 0; i < frames.Length; i++)
        {
            Assert.True(socket.Send(frames[i], i < frames.Length - 1 ? SendFlags.SendMore : SendFlags.None));
        }
    }

    /// <summary>Awaits <paramref name="task"/> for at most ten seconds; fails with <paramref name="because"/> on a hang.</summary>
    protected static async Task<T> CompletesAsync<T>(Task<T> task, string because)
    {
        var finished = await Task.WhenAny(task, Task.Delay(TimeSpan.FromSeconds(10)));
        Assert.True(finished == task, because);
        return await task;
    }

    public void Dispose()
    {
        if (_disposed)
        {
            return;
        }

        _disposed = true;
        foreach (var socket in _sockets)
        {
            socket.Dispose();
        }

        foreach (var context in _contexts)
        {
            // Context.Dispose blocks until sockets are closed; a hang must fail, not stall the run.
            var terminated = Task.Run(context.Dispose);
            Assert.True(terminated.Wait(TimeSpan.FromSeconds(10)), "Context.Dispose did not return after every socket was disposed with Linger 0");
        }

        GC.SuppressFinalize(this);
    }
}
