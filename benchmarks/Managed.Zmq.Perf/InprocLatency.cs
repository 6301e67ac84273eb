namespace Managed.Zmq.Perf;

/// <summary>
/// <c>inproc_lat &lt;message-size&gt; &lt;roundtrip-count&gt;</c>, libzmq's one-process tool: the main
/// thread binds REP to <c>inproc://lat_test</c> and echoes; a worker thread connects REQ and
/// times the roundtrips from right after Connect (after the <see cref="PerfWarmup"/> round trips).
/// The output is remote_lat's (one-way µs).
/// </summary>
internal static class InprocLatency
{
    public const string Name = "inproc_lat";

    public static int Run(ReadOnlySpan<string> args)
    {
        if (!PerfArguments.TryParseInproc(Name, "roundtrip-count", args, out PerfArguments a))
        {
            return 1;
        }

        if (a.Count < 1)
        {
            Console.Error.WriteLine("roundtrip-count must be at least 1");
            return 1;
        }

        using var context = new Context();
        using var rep = new Socket(context, SocketType.Rep);
        rep.Bind("inproc://lat_test");

        Exception? workerError = null;
        int workerResult = 0;
        var worker = new Thread(() =>
        {
            try
            {
                workerResult = TimeRoundtrips(context, a);
            }
            catch (ZmqException ex)
            {
                workerError = ex;
            }
        })
        {
            Name = "inproc_lat-worker",
        };
        worker.Start();

        byte[] buffer = new byte[a.MessageSize + 1];
        ReadOnlySpan<byte> reply = buffer.AsSpan(0, a.MessageSize);
        int total = PerfWarmup.RoundTrips + a.Count;
        for (int i = 0; i != total; i++)
        {
            if (rep.Recv(buffer.AsSpan(), RecvFlags.None) != a.MessageSize)
            {
                return LocalThroughput.IncorrectSize();
            }

            rep.Send(reply, SendFlags.None);
        }

        worker.Join();
        if (workerError is not null)
        {
            throw workerError;
        }

        return workerResult;
    }

    private static int TimeRoundtrips(Context context, PerfArguments a)
    {
        using var req = new Socket(context, SocketType.Req);
        req.Connect("inproc://lat_test");

        byte[] buffer = new byte[a.MessageSize + 1];
        ReadOnlySpan<byte> request = buffer.AsSpan(0, a.MessageSize);

        int warmup = PerfWarmup.RoundTrips;
        long start = 0;
        for (int i = 0; i != warmup + a.Count; i++)
        {
            if (i == warmup)
            {
                start = PerfClock.Start();
            }

            req.Send(request, SendFlags.None);
            if (req.Recv(buffer.AsSpan(), RecvFlags.None) != a.MessageSize)
            {
                return LocalThroughput.IncorrectSize();
            }
        }

        long elapsed = PerfClock.ElapsedMicroseconds(start);
        PerfReport.PrintLatency(a.MessageSize, a.Count, PerfReport.Latency(a.Count, elapsed));
        return 0;
    }
}
