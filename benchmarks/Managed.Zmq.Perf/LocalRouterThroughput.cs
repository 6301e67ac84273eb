namespace Managed.Zmq.Perf;

/// <summary>
/// <c>local_router_thr &lt;bind-to&gt; &lt;message-size&gt; &lt;message-count&gt;</c>: local_thr for ROUTER to
/// ROUTER. A ROUTER with routing id "local" binds and receives two-frame messages
/// [peer-id][payload]; the clock starts at the first message; the output is local_thr's.
/// </summary>
internal static class LocalRouterThroughput
{
    public const string Name = "local_router_thr";

    public static int Run(ReadOnlySpan<string> args)
    {
        if (!PerfArguments.TryParse(Name, "bind-to", "message-count", args, out PerfArguments a))
        {
            return 1;
        }

        if (a.Count < 1)
        {
            Console.Error.WriteLine("message-count must be at least 1");
            return 1;
        }

        using var context = new Context();
        using var router = new Socket(context, SocketType.Router);
        router.SetOption(SocketOption.Routing_Id, "local"u8.ToArray());
        router.Bind(a.Endpoint);

        byte[] id = new byte[256];
        byte[] buffer = new byte[a.MessageSize + 1];
        if (!ReceiveOne(router, id, buffer, a.MessageSize))
        {
            return LocalThroughput.IncorrectSize();
        }

        long start = PerfClock.Start();
        for (int i = 1; i != a.Count; i++)
        {
            if (!ReceiveOne(router, id, buffer, a.MessageSize))
            {
                return LocalThroughput.IncorrectSize();
            }
        }

        long elapsed = PerfClock.ElapsedMicroseconds(start);
        PerfReport.PrintThroughput(a.MessageSize, a.Count, PerfReport.Throughput(a.Count, elapsed));
        return 0;
    }

    private static bool ReceiveOne(Socket router, byte[] id, byte[] buffer, int size)
    {
        router.Recv(id.AsSpan(), RecvFlags.None);
        if (!router.HasMore)
        {
            return false;
        }

        return router.Recv(buffer.AsSpan(), RecvFlags.None) == size;
    }
}
