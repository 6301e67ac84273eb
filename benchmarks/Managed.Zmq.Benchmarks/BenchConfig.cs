using BenchmarkDotNet.Columns;
using BenchmarkDotNet.Configs;
using BenchmarkDotNet.Diagnosers;
using BenchmarkDotNet.Jobs;
using BenchmarkDotNet.Reports;
using BenchmarkDotNet.Running;

namespace Managed.Zmq.Benchmarks;

/// <summary>
/// The config every suite runs with: a short job sized for a shared 2-vCPU machine
/// (2 warm-up and 5 measured iterations of about 250 ms), the memory diagnoser, and a
/// msg/s column. Each benchmark invocation moves <see cref="Bench.MessagesPerOperation"/>
/// messages and reports per message (OperationsPerInvoke), so "Allocated" is bytes per
/// message. Allocation and GC counts are process-wide, so they include the sending thread
/// and the library's I/O threads, not only the receiving benchmark thread.
/// </summary>
internal sealed class BenchConfig : ManualConfig
{
    public BenchConfig()
    {
        Add(DefaultConfig.Instance);
        AddJob(Job.Default
            .WithWarmupCount(2)
            .WithIterationCount(5)
            .WithIterationTime(Perfolizer.Horology.TimeInterval.FromMilliseconds(250))
            .WithId("Short2x5"));
        AddDiagnoser(MemoryDiagnoser.Default);
        AddColumn(new MessagesPerSecondColumn());
        AddColumn(StatisticColumn.Median);
        HideColumns(Column.Error, Column.StdDev, "Job", "WarmupCount", "IterationCount", "IterationTime");
        WithOrderer(new BenchmarkDotNet.Order.DefaultOrderer(BenchmarkDotNet.Order.SummaryOrderPolicy.Declared));
        WithSummaryStyle(SummaryStyle.Default.WithMaxParameterColumnWidth(20));
    }

    /// <summary>Messages per second from the mean time per operation (one operation = one message).</summary>
    private sealed class MessagesPerSecondColumn : IColumn
    {
        public string Id => "MsgPerSec";
        public string ColumnName => "msg/s";
        public bool AlwaysShow => true;
        public ColumnCategory Category => ColumnCategory.Custom;
        public int PriorityInCategory => 0;
        public bool IsNumeric => true;
        public UnitType UnitType => UnitType.Dimensionless;
        public string Legend => "Messages per second: 1 s / mean time per message";

        public string GetValue(Summary summary, BenchmarkCase benchmarkCase) =>
            GetValue(summary, benchmarkCase, SummaryStyle.Default);

        public string GetValue(Summary summary, BenchmarkCase benchmarkCase, SummaryStyle style)
        {
            var stats = summary[benchmarkCase]?.ResultStatistics;
            if (stats is null || stats.Mean <= 0)
            {
                return "NA";
            }

            return (1e9 / stats.Mean).ToString("N0", System.Globalization.CultureInfo.InvariantCulture);
        }

        public bool IsAvailable(Summary summary) => true;

        public bool IsDefault(Summary summary, BenchmarkCase benchmarkCase) => false;
    }
}
