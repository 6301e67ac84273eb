using System.Collections.Concurrent;
using System.Diagnostics;

namespace Managed.Zmq.NetNode;

/// <summary>
/// Collects one socket's monitor events on a thread of its own, each stamped with the wall clock
/// (Unix ms) when it was read, so that the test can relate it to when it cut or healed a link.
/// </summary>
public sealed class MonitorLog : IDisposable
{
    private readonly BlockingCollection<string> _events = [];
    private readonly Socket _pair;
    private readonly Thread _reader;
    private volatile bool _stopping;

    public MonitorLog(Context context, Socket target, string name)
    {
        string endpoint = $"inproc://netnode-monitor-{name}";
        target.Monitor(endpoint, ZmqConstants.ZMQ_EVENT_ALL);
        _pair = new Socket(context, SocketType.Pair);
        _pair.SetOption(SocketOption.Linger, 0);
        _pair.SetOption(SocketOption.Rcvtimeo, 100);
        _pair.Connect(endpoint);
        _reader = new Thread(Read) { IsBackground = true, Name = $"monitor {name}" };
        _reader.Start();
    }

    /// <summary>Everything read since the last call, oldest first, as NAME@UNIXMS@ENDPOINT tokens.</summary>
    public string Drain()
    {
        var taken = new List<string>();
        while (_events.TryTake(out string? e))
        {
            taken.Add(e);
        }

        return string.Join(' ', taken);
    }

    /// <summary>
    /// Takes events until one named <paramref name="name"/> (for <paramref name="endpoint"/>, if
    /// given) arrives or the timeout runs out;
    /// returns whether it came and every event taken, oldest first.
    /// </summary>
    public (bool Found, string Taken) WaitFor(string name, int timeoutMilliseconds, string? endpoint = null)
    {
        var taken = new List<string>();
        var clock = Stopwatch.StartNew();
        while (true)
        {
            int remaining = Math.Max(0, timeoutMilliseconds - (int)clock.ElapsedMilliseconds);
            if (!_events.TryTake(out string? e, remaining))
            {
                return (false, string.Join(' ', taken));
            }

            taken.Add(e);
            if (e.StartsWith(name + "@", StringComparison.Ordinal) && (endpoint is null || e.EndsWith("@" + endpoint, StringComparison.Ordinal)))
            {
                return (true, string.Join(' ', taken));
            }
        }
    }

    private void Read()
    {
        while (!_stopping)
        {
            byte[] frame;
            string address;
            try
            {
                frame = _pair.RecvBytes();
                address = _pair.RecvString();
            }
            catch (ZmqException ex) when (ex.ErrorNumber == ZmqConstants.EAGAIN)
            {
                continue;
            }
            catch (Exception) when (_stopping)
            {
                return;
            }

            var data = SocketMonitorEventData.Parse(frame, address);
            _events.Add($"{EventNames.Of((int)data.Event)}@{DateTimeOffset.UtcNow.ToUnixTimeMilliseconds()}@{data.Address}");
        }
    }

    public void Dispose()
    {
        _stopping = true;
        _reader.Join();
        _pair.Dispose();
        _events.Dispose();
    }
}

/// <summary>libzmq's monitor event numbers as the lower-case names both node programs report.</summary>
public static class EventNames
{
    public static string Of(int value) => value switch
    {
        1 => "connected",
        2 => "connect_delayed",
        4 => "connect_retried",
        8 => "listening",
        16 => "bind_failed",
        32 => "accepted",
        64 => "accept_failed",
        128 => "closed",
        256 => "close_failed",
        512 => "disconnected",
        1024 => "monitor_stopped",
        2048 => "handshake_failed_no_detail",
        4096 => "handshake_succeeded",
        8192 => "handshake_failed_protocol",
        16384 => "handshake_failed_auth",
        _ => $"event{value}",
    };
}
