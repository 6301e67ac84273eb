using System.Globalization;

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

    private static bool TryParseNonNegative(string text, out int value) =>
        int.TryParse(text, NumberStyles.None, CultureInfo.InvariantCulture, out value);
}
