using System.Globalization;
using Managed.Zmq.Buffers;
using Managed.Zmq.Options;
using Managed.Zmq.Security.Zap;

namespace Managed.Zmq.Perf;

/// <summary>
/// The three positional arguments every libzmq perf tool takes:
/// <c>&lt;endpoint&gt; &lt;message-size&gt; &lt;count&gt;</c>.
/// </summary>
internal readonly record struct PerfArguments(string Endpoint, int MessageSize, int Count)
{
    /// <summary>
    /// Parses <paramref name="args"/> (mode name already removed). On failure prints
    /// libzmq's usage line for the mode and returns <see langword="false"/>.
    /// </summary>
    public static bool TryParse(string mode, string endpointName, string countName, ReadOnlySpan<string> args, out PerfArguments result)
    {
        result = default;
        if (args.Length != 3)
        {
            Console.WriteLine($"usage: {mode} <{endpointName}> <message-size> <{countName}>");
            return false;
        }

        if (!TryParseNonNegative(args[1], out int size))
        {
            Console.Error.WriteLine($"invalid message-size: {args[1]}");
            return false;
        }

        if (!TryParseNonNegative(args[2], out int count))
        {
            Console.Error.WriteLine($"invalid {countName}: {args[2]}");
            return false;
        }

        result = new PerfArguments(args[0], size, count);
        return true;
    }

    /// <summary>
    /// Parses the two arguments of the one-process inproc tools,
    /// <c>&lt;message-size&gt; &lt;count&gt;</c>; <see cref="Endpoint"/> is left empty.
    /// </summary>
    public static bool TryParseInproc(string mode, string countName, ReadOnlySpan<string> args, out PerfArguments result)
    {
        result = default;
        if (args.Length != 2)
        {
            Console.WriteLine($"usage: {mode} <message-size> <{countName}>");
            return false;
        }

        string[] withEndpoint = [string.Empty, args[0], args[1]];
        return TryParse(mode, "unused", countName, withEndpoint, out result);
    }

    private static bool TryParseNonNegative(string text, out int value) =>
        int.TryParse(text, NumberStyles.None, CultureInfo.InvariantCulture, out value);
}
