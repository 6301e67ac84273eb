using System.Globalization;

namespace Managed.Zmq.Perf;

/// <summary>
/// Untimed round trips before a latency mode starts its clock: <c>PERF_WARMUP=&lt;count&gt;</c> in the
/// environment (the arguments stay libzmq's), read the same way by benchmarks/native/perf_common.h
/// and the raw floor. The echoing side answers count + warm-up requests and the asking side times
/// only the last count, so the figure is the steady state: without it, connecting and the first
/// call of every method on the path (the JIT) fall inside the clock. Default 0, libzmq's perf tools'
/// figure.
/// </summary>
internal static class PerfWarmup
{
    public static int RoundTrips { get; } = Parse(Environment.GetEnvironmentVariable("PERF_WARMUP"));

    private static int Parse(string? value)
    {
        if (string.IsNullOrEmpty(value))
        {
            return 0;
        }

        if (!int.TryParse(value, NumberStyles.None, CultureInfo.InvariantCulture, out int count))
        {
            Console.Error.WriteLine($"invalid PERF_WARMUP: {value}");
            Environment.Exit(1);
        }

        return count;
    }
}
