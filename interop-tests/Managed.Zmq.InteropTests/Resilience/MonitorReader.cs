using System.Diagnostics;

namespace Managed.Zmq.InteropTests.Resilience;

/// <summary>Reads a Managed.Zmq socket's monitor stream with a deadline on every read.</summary>
internal sealed class MonitorReader : IDisposable
{
    private readonly Socket _pair;

    private MonitorReader(Socket pair) => _pair = pair;

    public List<SocketMonitorEventData> Seen { get; } = [];

    /// <summary>Attach before the socket connects or binds: events with no reader connected are dropped.</summary>
    public static MonitorReader Attach(Context context, Socket target, int mask = ZmqConstants.ZMQ_EVENT_ALL)
    {
        string endpoint = $"inproc://fault-monitor-{Guid.NewGuid():N}";
        target.Monitor(endpoint, mask);
        var pair = new Socket(context, SocketType.Pair);
        pair.SetOption(SocketOption.Linger, 0);
        pair.Connect(endpoint);
        return new MonitorReader(pair);
    }

    public SocketMonitorEventData WaitFor(SocketMonitorEvent wanted, int timeoutMilliseconds = 10_000)
    {
        var clock = Stopwatch.StartNew();
        while (true)
        {
            int remaining = timeoutMilliseconds - (int)clock.ElapsedMilliseconds;
            Assert.True(remaining > 0, $"no {wanted} within {timeoutMilliseconds} ms; saw {string.Join(", ", Seen.Select(e => (int)e.Event))}");
            _pair.SetOption(SocketOption.Rcvtimeo, remaining);
            byte[] frame;
            try
            {
                frame = _pair.RecvBytes();
            }
            catch (ZmqException ex) when (ex.ErrorNumber == ZmqConstants.EAGAIN)
            {
                continue;
            }

            var data = SocketMonitorEventData.Parse(frame, _pair.RecvString());
            Seen.Add(data);
            if (data.Event == wanted)
            {
                return data;
            }
        }
    }

    public void Dispose() => _pair.Dispose();
}
