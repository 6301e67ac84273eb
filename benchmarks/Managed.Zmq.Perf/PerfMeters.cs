using System.Diagnostics.Metrics;

namespace Managed.Zmq.Perf;

/// <summary>
/// PERF_METERS=1: a <see cref="MeterListener"/> on every instrument of the <c>Managed.Zmq</c> meter, collecting the
/// observable ones every second as an exporter would, so a run measures the cost of being watched
/// (docs/observability.md). Without it nothing listens, the library's default.
/// </summary>
internal static class PerfMeters
{
    private const int CollectIntervalMilliseconds = 1000;

    private static MeterListener? s_listener;
    private static Timer? s_timer;
    private static long s_measurements;

    public static void InstallIfAsked()
    {
        if (Environment.GetEnvironmentVariable("PERF_METERS") != "1")
        {
            return;
        }

        var listener = new MeterListener
        {
            InstrumentPublished = static (instrument, l) =>
            {
                if (instrument.Meter.Name == "Managed.Zmq")
                {
                    l.EnableMeasurementEvents(instrument);
                }
            },
        };
        listener.SetMeasurementEventCallback<long>(static (_, _, _, _) => Interlocked.Increment(ref s_measurements));
        listener.Start();
        s_listener = listener;
        s_timer = new Timer(static _ => s_listener?.RecordObservableInstruments(), null, CollectIntervalMilliseconds, CollectIntervalMilliseconds);
        Console.Error.WriteLine("PERF_METERS=1: a MeterListener collects the Managed.Zmq meter every second");
    }
}
