using System.Diagnostics;

namespace Managed.Zmq.Tests.Support;

/// <summary>
/// Reads a socket's monitor stream on a PAIR connected to a unique inproc
/// endpoint. Attach it before the socket binds or connects: the monitor drops events nobody is
/// connected to receive. Every read has a deadline.
/// </summary>
internal sealed class MonitorProbe : IDisposable
{
    public const int DefaultTimeout = 30_000;

    public const int HandshakeFailedNoDetail = 0x0800;
    public const int HandshakeSucceeded = 0x1000;
    public const int HandshakeFailedProtocol = 0x2000;
    public const int HandshakeFailedAuth = 0x4000;

    private readonly Socket _pair;

    private MonitorProbe(Socket pair, string endpoint)
    {
        _pair = pair;
        Endpoint = endpoint;
    }

    public string Endpoint { get; }

    /// <summary>Every event read so far, in order.</summary>
    public List<SocketMonitorEventData> Seen { get; } = [];

    public static MonitorProbe Attach(Context context, Socket target, int mask = ZmqConstants.ZMQ_EVENT_ALL)
    {
        string endpoint = TestEndpoint.Inproc("monitor");
        target.Monitor(endpoint, mask);
        return Connect(context, endpoint);
    }

    public static MonitorProbe Connect(Context context, string endpoint)
    {
        var pair = new Socket(context, SocketType.Pair);
        pair.SetOption(SocketOption.Linger, 0);
        pair.Connect(endpoint);
        return new MonitorProbe(pair, endpoint);
    }

    /// <summary>The next event, or null if none arrives within <paramref name="timeoutMilliseconds"/>.</summary>
    public SocketMonitorEventData? Next(int timeoutMilliseconds = DefaultTimeout)
    {
        _pair.SetOption(SocketOption.Rcvtimeo, Math.Max(1, timeoutMilliseconds));
        byte[] frame;
        try
        {
            frame = _pair.RecvBytes();
        }
        catch (ZmqException ex) when (ex.ErrorNumber == ZmqConstants.EAGAIN)
        {
            return null;
        }

        Assert.True(_pair.HasMore, "a monitor event is two frames");
        _pair.SetOption(SocketOption.Rcvtimeo, DefaultTimeout);
        string address = _pair.RecvString();
        var data = SocketMonitorEventData.Parse(frame, address);
        Seen.Add(data);
        return data;
    }

    /// <summary>Reads until <paramref name="eventId"/> arrives (others are kept in <see cref="Seen"/>); fails at the deadline.</summary>
    public SocketMonitorEventData WaitFor(int eventId, int timeoutMilliseconds = DefaultTimeout)
    {
        var clock = Stopwatch.StartNew();
        while (true)
        {
            int remaining = timeoutMilliseconds - (int)clock.ElapsedMilliseconds;
            var next = remaining > 0 ? Next(remaining) : null;
            if (next is null)
            {
                Assert.Fail($"No event {eventId} (0x{eventId:X}) within {timeoutMilliseconds} ms; saw [{Describe()}].");
            }

            if ((int)next.Value.Event == eventId)
            {
                return next.Value;
            }
        }
    }

    public SocketMonitorEventData WaitFor(SocketMonitorEvent eventId, int timeoutMilliseconds = DefaultTimeout) => WaitFor((int)eventId, timeoutMilliseconds);

    /// <summary>Reads whatever arrives until <paramref name="quietMilliseconds"/> pass with no event.</summary>
    public void Drain(int quietMilliseconds)
    {
        while (Next(quietMilliseconds) is not null)
        {
        }
    }

    public int Count(int eventId) => Seen.Count(e => (int)e.Event == eventId);

    /// <summary>
    /// Waits for DISCONNECTED and asserts that no handshake event came before it: how libzmq ends a connection whose
    /// peer metadata it refuses under NULL or as a PLAIN or CURVE server (docs/libzmq-behaviour.md L6).
    /// </summary>
    public void AssertClosedWithoutHandshakeEvent()
    {
        WaitFor(SocketMonitorEvent.Disconnected);
        Assert.DoesNotContain(Seen, e => (int)e.Event is HandshakeFailedNoDetail or HandshakeSucceeded or HandshakeFailedProtocol
            or HandshakeFailedAuth);
    }

    public int Count(SocketMonitorEvent eventId) => Count((int)eventId);

    public string Describe() => string.Join(", ", Seen.Select(e => $"{(int)e.Event}:{e.Value}:{e.Address}"));

    public void Dispose() => _pair.Dispose();
}
