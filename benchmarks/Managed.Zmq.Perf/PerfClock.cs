using System.Diagnostics;

namespace Managed.Zmq.Perf;

/// <summary>
/// Whole-microsecond monotonic stopwatch, the resolution libzmq's
/// <c>zmq_stopwatch_start/stop</c> reports, so both sides round the same way.
/// </summary>
internal static class PerfClock
{
    public static long Start() => Stopwatch.GetTimestamp();

    public static long ElapsedMicroseconds(long start)
    {
        long ticks = Stopwatch.GetTimestamp() - start;
        return (long)(ticks * (1_000_000.0 / Stopwatch.Frequency));
    }
}
