namespace Managed.Zmq.Perf;

/// <summary>
/// <c>local_thr &lt;bind-to&gt; &lt;message-size&gt; &lt;message-count&gt;</c>: PULL binds and
/// receives the messages; the clock starts at the first received message (libzmq rule).
/// </summary>
internal static class LocalThroughput
{
    public const string Name = "local_thr";

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
        using var pull = new Socket(context, SocketType.Pull);
        PerfCurve.Server(pull);
        pull.Bind(a.Endpoint);

        var receive = PerfBuffer.CreateReceiver(a.MessageSize);
        int Receive() => receive(pull);

        if (Receive() != a.MessageSize)
        {
            return IncorrectSize();
        }

        long start = PerfClock.Start();
        var gc = PerfGc.Start();
        for (int i = 1; i != a.Count; i++)
        {
            if (Receive() != a.MessageSize)
            {
                return IncorrectSize();
            }
        }

        long elapsed = PerfClock.ElapsedMicroseconds(start);
        gc.Report(a.Count - 1);
        PerfReport.PrintThroughput(a.MessageSize, a.Count, PerfReport.Throughput(a.Count, elapsed));
        return 0;
    }

    internal static int IncorrectSize()
    {
        Console.Error.WriteLine("message of incorrect size received");
        return 1;
    }
}
