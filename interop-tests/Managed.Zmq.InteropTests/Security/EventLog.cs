using Managed.Zmq.InteropTests.Infrastructure;
using Managed.Zmq.Buffers;
using Managed.Zmq.Options;
using Managed.Zmq.Security.Zap;

namespace Managed.Zmq.InteropTests.Security;

/// <summary>One monitor event: libzmq's event number, its value, and when it was read.</summary>
internal readonly record struct MonitorEvent(int Event, int Value, long At);

/// <summary>
/// Reads a socket's monitor PAIR on its own thread and keeps every event, so a test can wait for
/// one (bounded) or count them over a window without racing the reader.
/// </summary>
internal sealed class EventLog : IDisposable
{
    public const int Connected = 0x0001, ConnectRetried = 0x0004, Accepted = 0x0020, Disconnected = 0x0200,
        HandshakeFailedNoDetail = 0x0800, HandshakeSucceeded = 0x1000, HandshakeFailedProtocol = 0x2000,
        HandshakeFailedAuth = 0x4000;

    private readonly IEnd _pair;
    private readonly List<MonitorEvent> _events = [];
    private readonly Thread _reader;
    private volatile bool _stop;

    public EventLog(IEnd pair, string owner)
    {
        _pair = pair;
        Owner = owner;
        _reader = new Thread(Read) { IsBackground = true, Name = $"monitor of {owner}" };
        _reader.Start();
    }

    public string Owner { get; }

    private void Read()
    {
        while (!_stop)
        {
            byte[][]? message;
            try
            {
                message = _pair.TryRecvMessage(Timeouts.Probe);
            }
            catch (Exception) when (_stop)
            {
                return;
            }

            if (message is null || message[0].Length < 6)
                continue;
            var e = new MonitorEvent(BitConverter.ToUInt16(message[0], 0), BitConverter.ToInt32(message[0], 2), Environment.TickCount64);
            lock (_events)
            {
                _events.Add(e);
                Monitor.PulseAll(_events);
            }
        }
    }

    public MonitorEvent[] Snapshot()
    {
        lock (_events)
            return [.. _events];
    }

    /// <summary>The first event matching <paramref name="match"/>, waiting at most <paramref name="timeout"/>; null if none.</summary>
    public MonitorEvent? TryWaitFor(Func<MonitorEvent, bool> match, TimeSpan timeout)
    {
        var end = Environment.TickCount64 + (long)timeout.TotalMilliseconds;
        lock (_events)
        {
            while (true)
            {
                foreach (var e in _events)
                {
                    if (match(e))
                        return e;
                }

                var left = end - Environment.TickCount64;
                if (left <= 0)
                    return null;
                Monitor.Wait(_events, (int)left);
            }
        }
    }

    public MonitorEvent? TryWaitFor(int @event, TimeSpan timeout) => TryWaitFor(e => e.Event == @event, timeout);

    /// <summary>Waits (up to <see cref="Timeouts.Settle"/>) for <paramref name="event"/>, optionally with <paramref name="value"/>.</summary>
    public MonitorEvent WaitFor(int @event, int? value = null)
    {
        var found = TryWaitFor(e => e.Event == @event && (value is null || e.Value == value), Timeouts.Settle);
        Assert.True(found is not null,
            $"{Owner}: no monitor event {Describe(@event, value)} within {Timeouts.Settle.TotalSeconds} s; saw {this}.");
        return found!.Value;
    }

    /// <summary>Fails if an event matching <paramref name="match"/> shows up within <paramref name="window"/> (a bounded observation, not a sleep used to synchronise).</summary>
    public void AssertNone(Func<MonitorEvent, bool> match, TimeSpan window, string what)
    {
        var found = TryWaitFor(match, window);
        Assert.True(found is null, $"{Owner}: unexpected {what} (event {found?.Event} value {found?.Value}); saw {this}.");
    }

    public int Count(int @event)
    {
        lock (_events)
            return _events.Count(e => e.Event == @event);
    }

    public override string ToString() =>
        "[" + string.Join(", ", Snapshot().Select(e => Describe(e.Event, e.Value))) + "]";

    private static string Describe(int @event, int? value) => value is null ? $"0x{@event:X}" : $"0x{@event:X}/{value} (0x{value:X})";

    public void Dispose()
    {
        _stop = true;
        _reader.Join(Timeouts.Io);
        _pair.Dispose();
    }
}
