using System.Collections.Concurrent;
using System.Diagnostics.Metrics;
using Managed.Zmq.Diagnostics;

namespace Managed.Zmq.Tests.Support;

/// <summary>
/// A <see cref="MeterListener"/> on the <c>Managed.Zmq</c> meter that keeps, per instrument and tag set, the
/// running sum of counter increments and the last value of observable instruments. Tests filter by their own
/// endpoint (unique per test), so tests running in parallel do not disturb each other.
/// </summary>
internal sealed class MetricsProbe : IDisposable
{
    private readonly MeterListener _listener = new();
    private readonly ConcurrentDictionary<(string Instrument, string Tags), long> _sums = new();
    private readonly ConcurrentDictionary<(string Instrument, string Tags), long> _observed = new();

    public MetricsProbe()
    {
        _listener.InstrumentPublished = (instrument, listener) =>
        {
            if (instrument.Meter.Name == "Managed.Zmq")
            {
                listener.EnableMeasurementEvents(instrument);
            }
        };
        _listener.SetMeasurementEventCallback<long>(OnMeasurement);
        _listener.Start();
    }

    public HashSet<string> Published { get; } = [];

    private void OnMeasurement(Instrument instrument, long value, ReadOnlySpan<KeyValuePair<string, object?>> tags, object? state)
    {
        lock (Published)
        {
            Published.Add(instrument.Name);
        }

        string key = string.Join(",", tags.ToArray().OrderBy(t => t.Key, StringComparer.Ordinal).Select(t => $"{t.Key}={t.Value}"));
        if (instrument.IsObservable)
        {
            _observed[(instrument.Name, key)] = value;
        }
        else
        {
            _sums.AddOrUpdate((instrument.Name, key), value, (_, sum) => sum + value);
        }
    }

    private static string Tags(string type, string endpoint) => $"zmq.endpoint={endpoint},zmq.socket.type={type}";

    /// <summary>The sum of a counter's increments for <paramref name="type"/> and <paramref name="endpoint"/> (extra tags appended as "k=v").</summary>
    public long Counted(string instrument, string type, string endpoint, string? extra = null) =>
        _sums.GetValueOrDefault((instrument, extra is null ? Tags(type, endpoint) : ExtraTags(type, endpoint, extra)));

    private static string ExtraTags(string type, string endpoint, string extra) =>
        string.Join(",", new[] { $"zmq.endpoint={endpoint}", $"zmq.socket.type={type}", extra }.Order(StringComparer.Ordinal));

    /// <summary>Collects the observable instruments now and returns one's value for <paramref name="type"/> and <paramref name="endpoint"/>.</summary>
    public long Observe(string instrument, string type, string endpoint)
    {
        _listener.RecordObservableInstruments();
        return _observed.GetValueOrDefault((instrument, Tags(type, endpoint)));
    }

    /// <summary>Collects now; the value of an instrument tagged with the socket type only.</summary>
    public long ObserveType(string instrument, string type)
    {
        _listener.RecordObservableInstruments();
        return _observed.GetValueOrDefault((instrument, $"zmq.socket.type={type}"));
    }

    /// <summary>
    /// Collects now; the value of <paramref name="type"/>'s overflow series (endpoints folded past the series
    /// limit) in this collection, 0 if it measured none.
    /// </summary>
    public long ObserveOverflow(string instrument, string type)
    {
        var key = (instrument, $"{ZmqMetrics.OverflowTag}=True,zmq.socket.type={type}");
        _observed.TryRemove(key, out _);
        _listener.RecordObservableInstruments();
        return _observed.GetValueOrDefault(key);
    }

    /// <summary>A socket's totals by endpoint as the metrics read them, gone pipes' counts included (no listener needed).</summary>
    public static Dictionary<string, PipeTotals> SocketTotals(Socket socket)
    {
        var totals = new Dictionary<string, PipeTotals>(StringComparer.Ordinal);
        socket.Core.Meters.Collect(totals);
        return totals;
    }

    public void Dispose() => _listener.Dispose();
}
