using System.Diagnostics;
using Managed.Zmq.Tests.Support;

namespace Managed.Zmq.Tests.Api.Sockets;

/// <summary>
/// The socket contract (docs/public-api.md; sending, receiving and errors as in Net.Zmq) as one suite that every transport runs: each subclass
/// names its <see cref="Support.Transport"/>, endpoints come from <see cref="TestEndpoint"/>, and
/// the suite checks patterns, multipart delivery, timeouts, HWM, endpoints and teardown the same
/// way over each (STYLE: the Channels ChannelTestBase layout).
/// </summary>
/// <remarks>
/// Synchronisation is by blocking receives with <c>Rcvtimeo</c>, never by sleeping. Every socket
/// created through <see cref="Create"/> has send and receive timeouts, so a broken contract fails
/// a test instead of hanging the run, and Linger 0, so teardown never waits on the network.
/// </remarks>
public abstract partial class SocketContractTests : IDisposable
{
    /// <summary>Receive/send timeout of test sockets: generous, only ever reached when a test fails.</summary>
    protected const int Timeout = 5000;

    private readonly List<Socket> _sockets = [];
    private bool _disposed;

    protected SocketContractTests(Transport transport)
    {
        Transport = transport;
        Context = new Context();
    }

    protected Context Context { get; }

    /// <summary>The transport this run of the suite uses.</summary>
    protected Transport Transport { get; }

    /// <summary>An endpoint to bind: ephemeral/generated, so tests never collide.</summary>
    protected string Endpoint() => TestEndpoint.For(Transport, "contract");

    /// <summary>A concrete endpoint nobody listens on, usable for Connect before Bind.</summary>
    protected string UnusedEndpoint() => TestEndpoint.Unbound(Transport, "contract");

    /// <summary>Checks the transport-specific shape of <c>Last_Endpoint</c> after binding <see cref="Endpoint"/>.</summary>
    protected abstract void AssertBoundEndpointFormat(string lastEndpoint);

    /// <summary>
    /// True when an endpoint is reachable from any context and a connect re-establishes itself to a
    /// new binder (tcp, ipc). inproc names belong to one context and an inproc connect does not
    /// outlive its binder (libzmq): the tests that rely on either say so through this.
    /// </summary>
    protected bool IsNetworkTransport => Transport != Transport.Inproc;

    /// <summary>What every socket of the suite needs for this transport before it binds or connects (wss://: certificates).</summary>
    protected virtual void ConfigureTransport(Socket socket)
    {
    }

    /// <summary>A test socket (timeouts, Linger 0) in <paramref name="context"/>, by default the test's own.</summary>
    protected Socket Create(SocketType type, Context? context = null)
    {
        var socket = new Socket(context ?? Context, type);
        ConfigureTransport(socket);
        socket.SetOption(SocketOption.Linger, 0);
        socket.SetOption(SocketOption.Rcvtimeo, Timeout);
        socket.SetOption(SocketOption.Sndtimeo, Timeout);
        _sockets.Add(socket);
        return socket;
    }

    /// <summary>Binds <paramref name="socket"/> to a fresh endpoint and returns the one to connect to.</summary>
    protected string Bind(Socket socket)
    {
        socket.Bind(Endpoint());
        return socket.GetOptionString(SocketOption.Last_Endpoint);
    }

    /// <summary>A bound and a connected socket, bound side first: (bound, connected).</summary>
    protected (Socket Bound, Socket Connected) Pair(SocketType bound, SocketType connected)
    {
        var b = Create(bound);
        var c = Create(connected);
        c.Connect(Bind(b));
        return (b, c);
    }

    protected static void AssertZmqError(int expected, Action action)
    {
        var ex = Assert.Throws<ZmqException>(action);
        Assert.Equal(expected, ex.ErrorNumber);
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

    /// <summary>
    /// Slow-joiner handshake for pub/sub: publishes <paramref name="probe"/> in a bounded loop until
    /// the subscriber sees one, proving the subscription reached the publisher. Later receives must
    /// skip stray probes (see <see cref="RecvSkipping"/>).
    /// </summary>
    protected static void WaitUntilSubscribed(Socket publisher, Socket subscriber, string probe)
    {
        var clock = Stopwatch.StartNew();
        while (clock.ElapsedMilliseconds < Timeout)
        {
            publisher.Send(probe);
            if (TryRecvString(subscriber, 20) is string received)
            {
                Assert.Equal(probe, received);
                return;
            }
        }

        Assert.Fail($"no '{probe}' reached the subscriber within {Timeout} ms");
    }

    /// <summary>Receives the next single-frame message that is not <paramref name="skip"/>.</summary>
    protected static string RecvSkipping(Socket socket, string skip)
    {
        while (true)
        {
            string text = socket.RecvString();
            if (text != skip)
            {
                return text;
            }
        }
    }

    /// <summary>Awaits <paramref name="task"/> for at most <paramref name="seconds"/>; fails with <paramref name="because"/> on a hang.</summary>
    protected static async Task<T> CompletesAsync<T>(Task<T> task, string because, int seconds = 10)
    {
        await CompletesAsync((Task)task, because, seconds);
        return await task;
    }

    /// <summary>
    /// Runs <paramref name="send"/> <paramref name="count"/> times off the test thread and fails with
    /// <paramref name="because"/> if they do not all return: with Sndtimeo -1 a send that waited would wait forever.
    /// </summary>
    protected static Task SendsWithoutBlockingAsync(int count, Action send, string because) =>
        CompletesAsync(Task.Run(() =>
        {
            for (int i = 0; i < count; i++)
            {
                send();
            }
        }), because);

    protected static async Task CompletesAsync(Task task, string because, int seconds = 10)
    {
        var finished = await Task.WhenAny(task, Task.Delay(TimeSpan.FromSeconds(seconds)));
        Assert.True(finished == task, because);
        await task;
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

        // Context.Dispose blocks until sockets are closed and lingered; a hang must fail, not stall the run.
        var terminated = Task.Run(Context.Dispose);
        Assert.True(terminated.Wait(TimeSpan.FromSeconds(10)), "Context.Dispose did not return after every socket was disposed with Linger 0");
        GC.SuppressFinalize(this);
    }
}
