using Managed.Zmq.Buffers;
using Managed.Zmq.Options;
using Managed.Zmq.Security.Zap;

namespace Managed.Zmq.Perf;

/// <summary>
/// With <c>PERF_GC=1</c>, the throughput tools report on stderr what the whole process (every thread,
/// I/O threads included) allocated on the managed heap per message, and the collections that ran, between
/// the first message and the last. Off by default, so the lines libzmq's tools print stay the only output.
/// </summary>
internal readonly struct PerfGc
{
    private static readonly bool Enabled = Environment.GetEnvironmentVariable("PERF_GC") == "1";

    private readonly long _allocated;
    private readonly int _gen0;
    private readonly int _gen1;
    private readonly int _gen2;

    private PerfGc(long allocated, int gen0, int gen1, int gen2)
    {
        _allocated = allocated;
        _gen0 = gen0;
        _gen1 = gen1;
        _gen2 = gen2;
    }

    public static PerfGc Start() => Enabled
        ? new PerfGc(GC.GetTotalAllocatedBytes(precise: true), GC.CollectionCount(0), GC.CollectionCount(1), GC.CollectionCount(2))
        : default;

    public void Report(int messages)
    {
        if (!Enabled)
        {
            return;
        }

        double perMessage = (double)(GC.GetTotalAllocatedBytes(precise: true) - _allocated) / Math.Max(1, messages);
        Console.Error.WriteLine(
            $"managed allocation: {perMessage:F2} B per message (process-wide); collections gen0/1/2: "
            + $"{GC.CollectionCount(0) - _gen0}/{GC.CollectionCount(1) - _gen1}/{GC.CollectionCount(2) - _gen2}");
    }
}
