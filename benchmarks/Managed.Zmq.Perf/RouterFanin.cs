namespace Managed.Zmq.Perf;

/// <summary>
/// <c>router_fanin &lt;bind-to&gt; &lt;message-size&gt; &lt;message-count&gt; &lt;dealers&gt;</c>, as
/// benchmarks/native/router_fanin.c: a ROUTER binds and receives the two-frame messages
/// [routing id][payload] of all dealers together; the clock starts at the first message and the
/// lines printed are local_thr's plus the dealer count.
/// </summary>
internal static class RouterFanin
{
    public const string Name = "router_fanin";

    public static int Run(ReadOnlySpan<string> args)
    {
        if (!PerfFan.TryParse($"{Name} <bind-to> <message-size> <message-count> <dealers>", args, out PerfArguments a, out int dealers))
        {
            return 1;
        }

        using var context = PerfFan.CreateContext();
        using var router = new Socket(context, SocketType.Router);
        router.Bind(a.Endpoint);

        using var id = new Message();
        using var payload = new Message();
        long start = 0;
        for (int i = 0; i != a.Count; i++)
        {
            router.Recv(id, RecvFlags.None);
            if (!router.HasMore)
            {
                Console.Error.WriteLine("routing id frame without payload");
                return 1;
            }

            if (router.Recv(payload, RecvFlags.None) != a.MessageSize)
            {
                return LocalThroughput.IncorrectSize();
            }

            if (i == 0)
            {
                start = PerfClock.Start();
            }
        }

        long elapsed = PerfClock.ElapsedMicroseconds(start);
        ulong throughput = PerfReport.Throughput(a.Count, elapsed);
        Console.WriteLine($"message size: {a.MessageSize} [B]");
        Console.WriteLine($"message count: {a.Count}");
        Console.WriteLine($"dealers: {dealers}");
        Console.WriteLine($"mean throughput: {(int)throughput} [msg/s]");
        return 0;
    }
}
