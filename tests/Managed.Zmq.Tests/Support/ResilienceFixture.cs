namespace Managed.Zmq.Tests.Support;

/// <summary>
/// A context per test and sockets that cannot hang a run: Linger 0 and 5 s send/receive timeouts
/// unless a test sets its own. Disposes sockets, then the context.
/// </summary>
public abstract class ResilienceFixture : IDisposable
{
    protected const int Timeout = 5000;

    /// <summary>
    /// How long a good client may take to be served: a deadline that only a hang reaches, far above
    /// what a loaded machine needs (the flood tests make thousands of connections beside it).
    /// </summary>
    protected const int ServeDeadline = 60_000;

    private readonly List<IDisposable> _owned = [];

    protected ResilienceFixture()
    {
        Context = new Context();
    }

    protected Context Context { get; }

    protected Socket Create(SocketType type)
    {
        var socket = new Socket(Context, type);
        socket.SetOption(SocketOption.Linger, 0);
        socket.SetOption(SocketOption.Rcvtimeo, Timeout);
        socket.SetOption(SocketOption.Sndtimeo, Timeout);
        _owned.Add(socket);
        return socket;
    }

    private protected T Own<T>(T disposable)
        where T : IDisposable
    {
        _owned.Add(disposable);
        return disposable;
    }

    private protected MonitorProbe Monitor(Socket socket, int mask = ZmqConstants.ZMQ_EVENT_ALL) => Own(MonitorProbe.Attach(Context, socket, mask));

    /// <summary>Binds to an ephemeral loopback port and returns the concrete endpoint.</summary>
    protected static string BindTcp(Socket socket)
    {
        socket.Bind("tcp://127.0.0.1:*");
        return socket.GetOptionString(SocketOption.Last_Endpoint);
    }

    /// <summary>A loopback endpoint nobody listens on, held so no other test is given its port (<see cref="Tests.Support.RefusedPort"/>).</summary>
    protected static string UnusedTcpEndpoint() => Tests.Support.RefusedPort.TcpEndpoint();

    /// <summary>A fresh PUSH client delivers one message to <paramref name="pull"/>: the server still serves good peers.</summary>
    protected void AssertServesGoodClient(Socket pull, string endpoint)
    {
        using var push = new Socket(Context, SocketType.Push);
        push.SetOption(SocketOption.Linger, 0);
        push.SetOption(SocketOption.Sndtimeo, Timeout);
        push.Connect(endpoint);
        string token = Guid.NewGuid().ToString("N");
        Assert.True(push.Send(token));
        pull.SetOption(SocketOption.Rcvtimeo, ServeDeadline);
        string received;
        do
        {
            // Earlier tests in the same case may have delivered other messages first.
            received = pull.RecvString();
        }
        while (received != token);
    }

    public void Dispose()
    {
        for (int i = _owned.Count - 1; i >= 0; i--)
        {
            _owned[i].Dispose();
        }

        Context.Dispose();
        GC.SuppressFinalize(this);
    }
}
