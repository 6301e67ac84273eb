using System.Diagnostics;
using System.Globalization;
using Managed.Zmq.Tests.Support;

// Managed.Zmq.Fuzz [--iterations N] [--seed S]
// Feeds N random and mutated inputs (default 1,000,000) to the pure ZMTP pieces and the security
// mechanisms, then prints inputs/s, the peak heap, the slowest input and every finding. Exit code 1
// when anything was found, 2 when an input hung (the watchdog prints the elapsed time and exits).
long iterations = 1_000_000;
int seed = Environment.TickCount;
for (int i = 0; i + 1 < args.Length; i += 2)
{
    switch (args[i])
    {
        case "--iterations":
            iterations = long.Parse(args[i + 1], CultureInfo.InvariantCulture);
            break;
        case "--seed":
            seed = int.Parse(args[i + 1], CultureInfo.InvariantCulture);
            break;
        default:
            Console.Error.WriteLine($"unknown option {args[i]}");
            return 64;
    }
}

Console.WriteLine($"Managed.Zmq.Fuzz: {iterations:N0} inputs, seed {seed}");
FuzzReport? report = null;
long lastProgress = Stopwatch.GetTimestamp();
var worker = new Thread(() => report = FuzzHarness.Run(iterations, seed, line =>
{
    Interlocked.Exchange(ref lastProgress, Stopwatch.GetTimestamp());
    Console.WriteLine(line);
}, FuzzHarness.SlowInputMilliseconds))
{
    IsBackground = true,
    Name = "fuzz",
};
worker.Start();

// Watchdog: progress is reported every 100,000 inputs; a minute without it means an input hangs.
while (!worker.Join(1000))
{
    if (Stopwatch.GetElapsedTime(Interlocked.Read(ref lastProgress)) > TimeSpan.FromMinutes(1))
    {
        Console.WriteLine($"HANG: no progress for a minute (seed {seed}); rerun with the same seed under a debugger.");
        return 2;
    }
}

var result = report!;
Console.WriteLine($"{result.Inputs:N0} inputs in {result.Elapsed.TotalSeconds:N1} s = {result.InputsPerSecond:N0} inputs/s");
Console.WriteLine($"peak managed heap {result.PeakManagedBytes >> 20} MiB, slowest input {result.SlowestInput.TotalMilliseconds:N1} ms");
Console.WriteLine($"{result.Findings.Count} findings");
foreach (string finding in result.Findings)
{
    Console.WriteLine(finding);
}

return result.Findings.Count == 0 ? 0 : 1;
