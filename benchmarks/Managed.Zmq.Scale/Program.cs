using System.Diagnostics;
using System.Globalization;
using System.Runtime.InteropServices;
using Managed.Zmq.Buffers;
using Managed.Zmq.Options;
using Managed.Zmq.Security.Zap;

namespace Managed.Zmq.Scale;

/// <summary>
/// Scale and attack scenarios (BENCHMARKS.md, "Scale and attack"), each run against a Managed.Zmq server and a libzmq 4.3
/// server (pyzmq) in processes of their own, printed as one markdown table with both columns.
/// <c>Managed.Zmq.Scale [--quick] [options]</c> drives; <c>Managed.Zmq.Scale server ...</c> is the
/// Managed.Zmq server the driver starts. See <c>benchmarks/scale/README.md</c>.
/// </summary>
internal static partial class Program
{
    // Synchronous, and the driver in a method of its own: the server process (whose RSS is measured)
    // then compiles none of the driver's code and loads none of the assemblies only it uses.
    private static int Main(string[] args) =>
        args.Length > 0 && args[0] == "server" ? ScaleServer.Run(args[1..]) : DriveAsync(args).GetAwaiter().GetResult();

    private static async Task<int> DriveAsync(string[] args)
    {
        ScaleOptions options;
        try
        {
            options = ScaleOptions.Parse(args);
        }
        catch (ArgumentException e)
        {
            Console.Error.WriteLine(e.Message);
            return 2;
        }

        if (options.Servers.Contains(ServerKind.Libzmq) && !File.Exists(options.PythonServer))
        {
            Console.Error.WriteLine($"libzmq server script not found: {options.PythonServer} (--python-server PATH)");
            return 2;
        }

        string limits = RaiseFileLimit();
        var results = new Results();
        Scenario[] scenarios =
        [
            new IdleConnectionsScenario(options, results, curve: false),
            new IdleConnectionsScenario(options, results, curve: true),
            new ChurnScenario(options, results),
            new SubscriptionFloodScenario(options, results),
            new CurveHelloFloodScenario(options, results),
            new FdExhaustionScenario(options, results),
            new CommandFloodScenario(options, results),
            new HeartbeatScenario(options, results),
        ];

        var total = Stopwatch.StartNew();
        foreach (var scenario in scenarios.Where(s => options.Scenarios.Contains(s.Name)))
        {
            foreach (var kind in options.Servers)
            {
                Console.Error.WriteLine($"{scenario.Name} on {Results.Name(kind)} (budget {scenario.Budget.TotalSeconds:N0} s)");
                using var budget = new CancellationTokenSource(scenario.Budget);
                try
                {
                    await scenario.RunAsync(kind, budget.Token).WaitAsync(scenario.Budget + TimeSpan.FromSeconds(10)).ConfigureAwait(false);
                }
                catch (Exception e) when (e is OperationCanceledException or TimeoutException)
                {
                    results.Note($"{Results.Name(kind)}, {scenario.Name}: cut off at its {scenario.Budget.TotalSeconds:N0} s budget (its server was killed).");
                }
                catch (Exception e)
                {
                    results.Note($"{Results.Name(kind)}, {scenario.Name}: the driver failed: {e.GetType().Name}: {e.Message}");
                }
            }
        }

        string header = string.Format(CultureInfo.InvariantCulture,
            "## Scale and attack scenarios ({0} mode), {1:yyyy-MM-dd HH:mm} UTC, {2} cores, driver {3}; took {4:N0} s",
            options.Quick ? "quick" : "full", DateTime.UtcNow, Environment.ProcessorCount, limits, total.Elapsed.TotalSeconds);
        Console.WriteLine(results.ToMarkdown(options, header, Acceptance.Judge(options, results)));
        return 0;
    }

    /// <summary>
    /// Raises this process's soft RLIMIT_NOFILE to its hard limit (the idle scenarios hold tens of
    /// thousands of sockets); the servers inherit it, except under prlimit in the fd scenario.
    /// </summary>
    private static string RaiseFileLimit()
    {
        const int RlimitNofile = 7;
        if (getrlimit(RlimitNofile, out var limit) != 0)
        {
            return "RLIMIT_NOFILE unknown";
        }

        if (limit.Current < limit.Max)
        {
            var raised = new RLimit { Current = limit.Max, Max = limit.Max };
            if (setrlimit(RlimitNofile, in raised) == 0)
            {
                limit = raised;
            }
        }

        return string.Format(CultureInfo.InvariantCulture, "RLIMIT_NOFILE {0:N0}", limit.Current);
    }

    [StructLayout(LayoutKind.Sequential)]
    private struct RLimit
    {
        public ulong Current;
        public ulong Max;
    }

    [LibraryImport("libc", SetLastError = true)]
    private static partial int getrlimit(int resource, out RLimit limit);

    [LibraryImport("libc", SetLastError = true)]
    private static partial int setrlimit(int resource, in RLimit limit);
}
