// Reads the console log of a BufferStrategyBenchmarks run made with --launchCount N and says how the
// cases compare launch by launch, not only in BenchmarkDotNet's pooled summary: each launch is a process
// of its own, and on a small VM processes settle into different speeds, so one launch per case can
// put either strategy ahead by chance.
//
//   BUFFER_SIZES=64 BUFFER_STRATEGIES=ByteArray,MessagePool \
//     dotnet run -c Release --project benchmarks/Managed.Zmq.Benchmarks -- --filter '*BufferStrategy*' --launchCount 10 > run.log
//   dotnet run -c Release benchmarks/launch-ratios/LaunchRatios.cs -- run.log
//
// For each case: the median, min and max over launches of the launch's mean time per message. Then, for
// the two comparisons BENCHMARKS.md's BufferStrategy section asks about (MessagePool against ByteArray, MessageZeroCopy against Message), the speed ratio
// of the medians (above 1: the first is faster), and over every pair of one launch of each: the share of
// pairs in which the first is faster and the 10th-90th percentile of the pair ratios.
using System.Globalization;
using System.Text.RegularExpressions;

if (args.Length != 1)
{
    Console.Error.WriteLine("usage: LaunchRatios.cs BENCHMARKDOTNET_LOG");
    return 2;
}

var caseLine = new Regex(@"^// Benchmark: BufferStrategyBenchmarks\.Transfer: \S+?(?:\(.*?\))? \[Pattern=(\w+), Strategy=(\w+), Size=(\d+)\]");
var launchLine = new Regex(@"^// Launch: (\d+) / \d+");
var resultLine = new Regex(@"^WorkloadResult\s+\d+: \d+ op, [\d.]+ ns, ([\d.,]+) (ns|us|μs|ms)/op");

// (pattern, size, strategy) -> launch -> workload results in ns per message
var launches = new Dictionary<(string Pattern, int Size, string Strategy), SortedDictionary<int, List<double>>>();
(string, int, string)? current = null;
int launch = 0;
foreach (string line in File.ReadLines(args[0]))
{
    if (caseLine.Match(line) is { Success: true } c)
    {
        current = (c.Groups[1].Value, int.Parse(c.Groups[3].Value, CultureInfo.InvariantCulture), c.Groups[2].Value);
        continue;
    }

    if (launchLine.Match(line) is { Success: true } l)
    {
        launch = int.Parse(l.Groups[1].Value, CultureInfo.InvariantCulture);
        continue;
    }

    if (current is { } key && resultLine.Match(line) is { Success: true } r)
    {
        double value = double.Parse(r.Groups[1].Value.Replace(",", string.Empty), CultureInfo.InvariantCulture);
        value *= r.Groups[2].Value switch { "ns" => 1, "ms" => 1e6, _ => 1e3 };
        if (!launches.TryGetValue(key, out var byLaunch))
        {
            launches[key] = byLaunch = new SortedDictionary<int, List<double>>();
        }

        if (!byLaunch.TryGetValue(launch, out var results))
        {
            byLaunch[launch] = results = [];
        }

        results.Add(value);
    }
}

var means = launches.ToDictionary(e => e.Key, e => e.Value.Values.Select(v => v.Average()).ToArray());
foreach (var ((pattern, size, strategy), values) in means.OrderBy(e => e.Key.Pattern).ThenBy(e => e.Key.Size).ThenBy(e => e.Key.Strategy))
{
    Console.WriteLine($"{pattern,-13} {size,7} {strategy,-16} launches {values.Length,2}  median {Median(values),10:F1} ns  min {values.Min(),10:F1}  max {values.Max(),10:F1}");
}

Console.WriteLine();
(string Faster, string Than)[] comparisons = [("MessagePool", "ByteArray"), ("MessageZeroCopy", "Message")];
foreach (var (pattern, size) in means.Keys.Select(k => (k.Pattern, k.Size)).Distinct().OrderBy(k => k.Pattern).ThenBy(k => k.Size))
{
    foreach (var (first, second) in comparisons)
    {
        if (!means.TryGetValue((pattern, size, first), out var a) || !means.TryGetValue((pattern, size, second), out var b))
        {
            continue;
        }

        // Speed ratio = the second's time / the first's time, for every pairing of one launch of each.
        double[] pairs = a.SelectMany(ta => b.Select(tb => tb / ta)).Order().ToArray();
        double ahead = pairs.Count(p => p > 1) / (double)pairs.Length;
        Console.WriteLine(
            $"{pattern,-13} {size,7} {first} vs {second}: {Median(b) / Median(a):F2} (medians)  " +
            $"faster in {ahead:P0} of {pairs.Length} launch pairs  10-90%: {pairs[pairs.Length / 10]:F2}-{pairs[pairs.Length * 9 / 10]:F2}");
    }
}

return 0;

static double Median(double[] values)
{
    double[] sorted = values.Order().ToArray();
    int middle = sorted.Length / 2;
    return sorted.Length % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}
