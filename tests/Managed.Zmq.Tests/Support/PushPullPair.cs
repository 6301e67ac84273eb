namespace Managed.Zmq.Tests.Support;

/// <summary>
/// A PULL bound to an endpoint and a PUSH connected to it, in a context of their own, both with
/// linger 0 and blocking calls bounded by a timeout, so a broken test fails instead of hanging.
/// </summary>
internal sealed class PushPullPair : IDisposable
{
    private readonly Context _context = new();

    /// <summary>A pair over <paramref name="transport"/>, on a fresh endpoint (<see cref="TestEndpoint.For"/>).</summary>
    public PushPullPair(Transport transport, string what = "push-pull")
        : this(TestEndpoint.For(transport, what))
    {
    }

    public PushPullPair(string endpoint, int timeoutMilliseconds = 10_000)
    {
        Pull = new Socket(_context, SocketType.Pull);
        Push = new Socket(_context, SocketType.Push);
        Pull.SetOption(SocketOption.Linger, 0);
        Push.SetOption(SocketOption.Linger, 0);
        Pull.SetOption(SocketOption.Rcvtimeo, timeoutMilliseconds);
        Push.SetOption(SocketOption.Sndtimeo, timeoutMilliseconds);
        Pull.Bind(endpoint);
        Push.Connect(Pull.GetOptionString(SocketOption.Last_Endpoint));
    }

    public Socket Pull { get; }

    public Socket Push { get; }

    public void Dispose()
    {
        Push.Dispose();
        Pull.Dispose();
        _context.Dispose();
    }
}
