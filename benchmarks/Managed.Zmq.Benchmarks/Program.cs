using BenchmarkDotNet.Running;

namespace Managed.Zmq.Benchmarks;

/// <summary>
/// BenchmarkDotNet suites for Managed.Zmq, e.g.
/// <c>dotnet run -c Release --project benchmarks/Managed.Zmq.Benchmarks -- --filter '*ReceiveMode*'</c>.
/// Every BenchmarkDotNet command-line option works (<c>--list flat</c>, <c>--inProcess</c>, <c>--job short</c>, ...).
/// </summary>
internal static class Program
{
    private static int Main(string[] args)
    {
        var summaries = BenchmarkSwitcher.FromAssembly(typeof(Program).Assembly).Run(args, new BenchConfig());
        foreach (var summary in summaries)
        {
            if (summary.HasCriticalValidationErrors || summary.Reports.Any(r => !r.Success))
            {
                return 1;
            }
        }

        return 0;
    }
}
