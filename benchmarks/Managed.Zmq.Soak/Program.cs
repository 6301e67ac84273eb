using System.Diagnostics;
using System.Globalization;

namespace Managed.Zmq.Soak;

/// <summary>
/// Soak test (not a CI test): PUSH/PULL and REQ/REP over tcp for a given time while the bound peer
/// restarts every few seconds, checking every message's sequence number.
/// Usage: <c>dotnet run -c Release --project benchmarks/Managed.Zmq.Soak -- [seconds] [restart-seconds]</c>.
/// </summary>
internal static class Program
{
    private static int Main(string[] args)
    {
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
