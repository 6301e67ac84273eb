namespace Managed.Zmq.Benchmarks;

/// <summary>Socket pattern of a sender/receiver pair.</summary>
public enum Pattern
{
    /// <summary>PUSH connects and sends, PULL binds and receives one frame per message.</summary>
    PushPull,

    /// <summary>
    /// ROUTER (Routing_Id "sender", Router_Mandatory) connects and sends [receiver-id][payload];
    /// ROUTER (Routing_Id "receiver") binds and receives [sender-id][payload].
    /// </summary>
    RouterRouter,
}

/// <summary>Transport of a sender/receiver pair.</summary>
public enum Transport
{
    Tcp,
    Ipc,
    Inproc,
}

/// <summary>Constants shared by every suite.</summary>
internal static class Bench
{
    /// <summary>Messages moved by one benchmark invocation (its OperationsPerInvoke).</summary>
    public const int MessagesPerOperation = 10_000;

    /// <summary>A receive that blocks this long means the run is broken, not slow.</summary>
    public const int TimeoutMilliseconds = 30_000;

    /// <summary>
    /// A suite's parameter values: <paramref name="all"/>, or the comma-separated values of the environment
    /// variable <paramref name="variable"/> when it is set. BenchmarkDotNet's case processes inherit the
    /// environment, so host and cases agree.
    /// </summary>
    public static IEnumerable<T> Selection<T>(string variable, T[] all, Func<string, T> parse)
    {
        string? chosen = Environment.GetEnvironmentVariable(variable);
        return string.IsNullOrWhiteSpace(chosen)
            ? all
            : chosen.Split(',', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries).Select(parse).ToArray();
    }
}
