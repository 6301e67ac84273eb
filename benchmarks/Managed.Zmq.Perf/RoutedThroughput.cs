namespace Managed.Zmq.Perf;

/// <summary>
/// <c>local_dr_thr</c> / <c>local_cs_thr &lt;bind-to&gt; &lt;message-size&gt; &lt;message-count&gt;</c>: local_thr
/// for a <see cref="RoutedPair"/>, ROUTER or SERVER binds and receives (ROUTER: the id frame, then the
/// payload). <c>remote_dr_thr</c> / <c>remote_cs_thr</c>: remote_thr with DEALER or CLIENT. Payloads move
/// as <see cref="PerfBuffer"/> says; the output is local_thr's.
/// </summary>
internal static class RoutedThroughput
{
    public static bool IsLocal(string mode) => mode is "local_dr_thr" or "local_cs_thr";

    public static bool IsRemote(string mode) => mode is "remote_dr_thr" or "remote_cs_thr";

    public static int RunLocal(string mode, RoutedPair pair, ReadOnlySpan<string> args)
    {
        if (!PerfArguments.TryParse(mode, "bind-to", "message-count", args, out PerfArguments a))
        {
            return 1;
        }

        if (a.Count < 1)
        {
            Console.Error.WriteLine("message-count must be at least 1");
            return 1;
        }

        using var context = new Context();
        using var local = new Socket(context, pair.Local);
        local.Bind(a.Endpoint);

        var receive = PerfBuffer.CreateReceiver(a.MessageSize);
        bool idFrame = !pair.IdOnMessage;
        bool ReceiveOne()
        {
            if (idFrame)
            {
                receive(local);
                if (!local.HasMore)
                {
                    return false;
                }
            }

            return receive(local) == a.MessageSize;
        }

        if (!ReceiveOne())
        {
            return LocalThroughput.IncorrectSize();
        }

        long start = PerfClock.Start();
        var gc = PerfGc.Start();
        for (int i = 1; i != a.Count; i++)
        {
            if (!ReceiveOne())
            {
                return LocalThroughput.IncorrectSize();
            }
        }

        long elapsed = PerfClock.ElapsedMicroseconds(start);
        gc.Report(a.Count - 1);
        PerfReport.PrintThroughput(a.MessageSize, a.Count, PerfReport.Throughput(a.Count, elapsed));
        return 0;
    }

    public static int RunRemote(string mode, RoutedPair pair, ReadOnlySpan<string> args)
    {
        if (!PerfArguments.TryParse(mode, "connect-to", "message-count", args, out PerfArguments a))
        {
            return 1;
        }

        // Context after the socket in disposal order: its Dispose lingers until all is written.
        using var context = new Context();
        using var remote = new Socket(context, pair.Remote);
        remote.Connect(a.Endpoint);

        var gc = PerfGc.Start();
        PerfBuffer.SendAll(remote, a.MessageSize, a.Count);
        gc.Report(a.Count);
        return 0;
    }
}
