using System.Globalization;

namespace Managed.Zmq.Perf;

/// <summary>
/// What the fan-out/fan-in modes share: their four arguments
/// <c>&lt;endpoint&gt; &lt;message-size&gt; &lt;message-count&gt; &lt;peers&gt;</c>, and the context they
/// run in, with <c>PERF_IO_THREADS=n</c> I/O threads when the environment asks (the default is
/// libzmq's, one), as benchmarks/native/perf_common.h does for the libzmq tools.
/// </summary>
internal static class PerfFan
{
    public const string IoThreadsVariable = "PERF_IO_THREADS";

    public static bool TryParse(string usage, ReadOnlySpan<string> args, out PerfArguments arguments, out int peers)
    {
        arguments = default;
        peers = 0;
        if (args.Length != 4)
        {
            Console.WriteLine($"usage: {usage}");
            return false;
        }

        if (!PerfArguments.TryParse(usage, "endpoint", "message-count", args[..3], out arguments))
        {
            return false;
        }

        if (!int.TryParse(args[3], NumberStyles.None, CultureInfo.InvariantCulture, out peers)
            || peers < 1 || arguments.Count < 1)
        {
            Console.Error.WriteLine("message-count and the peer count must be at least 1");
            return false;
        }

        return true;
    }

    public static Context CreateContext()
    {
        var context = new Context();
        string? value = Environment.GetEnvironmentVariable(IoThreadsVariable);
        if (!string.IsNullOrEmpty(value))
        {
            context.SetOption(ContextOption.IoThreads, int.Parse(value, NumberStyles.None, CultureInfo.InvariantCulture));
        }

        return context;
    }
}
