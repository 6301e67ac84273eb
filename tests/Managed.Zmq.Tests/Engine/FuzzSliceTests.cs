using Managed.Zmq.Tests.Support;

namespace Managed.Zmq.Tests.Engine;

/// <summary>Runs alone: the heap bound reads the process's managed heap, which parallel tests also fill.</summary>
[CollectionDefinition(Name, DisableParallelization = true)]
public sealed class FuzzHeapCollection
{
    public const string Name = "Fuzz heap";
}

/// <summary>
/// A seeded, bounded slice of benchmarks/Managed.Zmq.Fuzz as a unit test: the same inputs every
/// run, so a finding here is reproducible with the tool (<c>--seed</c>).
/// </summary>
[Collection(FuzzHeapCollection.Name)]
public sealed class FuzzSliceTests
{
    [Theory]
    [InlineData(20260720)]
    [InlineData(7)]
    public void PureProtocolPieces_10000SeededInputsPerSeed_NoExceptionHeapBounded(int seed)
    {
        FuzzReport? report = null;

        // The harness samples the heap without collecting: garbage the tests before this one left
        // (hundreds of MiB at times) would count as the fuzz's own. Only what this run holds should.
        GC.Collect();
        GC.WaitForPendingFinalizers();
        GC.Collect();
        var run = BackgroundCall.Start(() => report = FuzzHarness.Run(10_000, seed));

        Assert.True(run.Wait(60_000), "the fuzz slice hung: an input never returned");
        Assert.NotNull(report);
        Assert.True(report.Findings.Count == 0, string.Join(Environment.NewLine, report.Findings));
        Assert.True(report.PeakManagedBytes < 512L << 20, $"heap peaked at {report.PeakManagedBytes >> 20} MiB");
    }
}
