using System.Globalization;

namespace Managed.Zmq.Perf;

/// <summary>The figures libzmq's perf tools print, computed and formatted the same way.</summary>
internal static class PerfReport
{
    /// <summary>
    /// libzmq local_thr: the count includes the first message although the clock only
    /// starts once it has arrived; a zero interval counts as 1 µs.
    /// </summary>
    public static ulong Throughput(int messageCount, long elapsedMicroseconds)
    {
        if (elapsedMicroseconds == 0)
        {
            elapsedMicroseconds = 1;
        }

        return (ulong)((double)messageCount / elapsedMicroseconds * 1_000_000);
    }

    /// <summary>Megabits per second from a msg/s figure: msg/s * size * 8 / 1e6.</summary>
    public static double Megabits(ulong throughput, int messageSize) =>
        (double)(throughput * (ulong)messageSize * 8) / 1_000_000;

    /// <summary>One-way latency in µs: elapsed / (2 * roundtrips).</summary>
    public static double Latency(int roundtripCount, long elapsedMicroseconds) =>
        (double)elapsedMicroseconds / (roundtripCount * 2.0);

    public static void PrintThroughput(int messageSize, int messageCount, ulong throughput)
    {
        Console.WriteLine($"message size: {messageSize} [B]");
        Console.WriteLine($"message count: {messageCount}");
        Console.WriteLine($"mean throughput: {(int)throughput} [msg/s]");
        Console.WriteLine($"mean throughput: {Megabits(throughput, messageSize).ToString("F3", CultureInfo.InvariantCulture)} [Mb/s]");
    }

    public static void PrintLatency(int messageSize, int roundtripCount, double latency)
    {
        Console.WriteLine($"message size: {messageSize} [B]");
        Console.WriteLine($"roundtrip count: {roundtripCount}");
        Console.WriteLine($"average latency: {latency.ToString("F3", CultureInfo.InvariantCulture)} [us]");
    }
}
