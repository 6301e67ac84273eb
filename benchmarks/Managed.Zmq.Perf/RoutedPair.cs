namespace Managed.Zmq.Perf;

/// <summary>
/// The routed pairs the <c>*_dr_*</c> and <c>*_cs_*</c> modes run, as compare.sh's
/// benchmarks/native/*_routed_*.c tools do: ROUTER (local, binds) with DEALER (remote), the
/// classic pair, and SERVER with CLIENT, the thread-safe draft pair, used here from one thread.
/// </summary>
internal sealed record RoutedPair(string Suffix, SocketType Local, SocketType Remote)
{
    public static readonly RoutedPair DealerRouter = new("dr", SocketType.Router, SocketType.Dealer);

    public static readonly RoutedPair ServerClient = new("cs", SocketType.Server, SocketType.Client);

    /// <summary>SERVER keeps the routing id on the message; ROUTER reads it as a frame of its own.</summary>
    public bool IdOnMessage => Local == SocketType.Server;

    /// <summary>The pair whose mode names end in <c>_dr_&lt;kind&gt;</c> or <c>_cs_&lt;kind&gt;</c>, or null.</summary>
    public static RoutedPair? FromMode(string mode) =>
        mode.Contains("_dr_", StringComparison.Ordinal) ? DealerRouter
        : mode.Contains("_cs_", StringComparison.Ordinal) ? ServerClient
        : null;
}
