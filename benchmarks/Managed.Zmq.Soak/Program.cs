using System.Diagnostics;
using System.Globalization;

namespace Managed.Zmq.Soak;

/// <summary>
/// Soak test (not a CI test): PUSH/PULL and REQ/REP over tcp for a given time while the bound peer
/// restarts every few seconds, checking every message's sequence number.
/// Usage: <c>dotnet run -c Release --project benchmarks/Managed.Zmq.Soak -- [seconds] [restart-seconds]</c>.
/// <c>-- netns [seconds] [partition-every-seconds] [ours|libzmq] [output-prefix]</c> runs the network
/// soak instead (root: it creates network namespaces; see NetworkSoak).
/// </summary>
internal static class Program
{
    private static int Main(string[] args)
    {
        if (args.Length > 0 && args[0] == "netns")
        {
            return NetworkSoak.Run(
                TimeSpan.FromSeconds(args.Length > 1 ? int.Parse(args[1], CultureInfo.InvariantCulture) : 300),
                args.Length > 2 ? int.Parse(args[2], CultureInfo.InvariantCulture) : 10,
                args.Length > 3 && args[3] == "libzmq" ? NetworkTests.Harness.NodeKind.LibZmq : NetworkTests.Harness.NodeKind.Ours,
                args.Length > 4 ? args[4] : "network-soak");
        }

        int seconds = args.Length > 0 ? int.Parse(args[0], CultureInfo.InvariantCulture) : 60;
        int restartSeconds = args.Length > 1 ? int.Parse(args[1], CultureInfo.InvariantCulture) : 5;
        var duration = TimeSpan.FromSeconds(seconds);
        var restartEvery = TimeSpan.FromSeconds(restartSeconds);

        Console.WriteLine($"soak: {seconds} s, bound peer restarts every {restartSeconds} s");
        var pipeline = Task.Run(() => PipelineSoak.Run(duration, restartEvery));
        var reqRep = Task.Run(() => RequestReplySoak.Run(duration, restartEvery));
        Task.WaitAll(pipeline, reqRep);
        Console.WriteLine(pipeline.Result);
        Console.WriteLine(reqRep.Result);
        return pipeline.Result.Duplicated == 0 && reqRep.Result.Mismatched == 0 ? 0 : 1;
    }
}
