namespace Managed.Zmq.Perf;

/// <summary>
/// <c>remote_lat &lt;connect-to&gt; &lt;message-size&gt; &lt;roundtrip-count&gt;</c>: REQ connects and
/// times the roundtrips. As in libzmq the clock starts right after Connect (after the
/// <see cref="PerfWarmup"/> round trips when asked for), and the result is one-way latency:
/// elapsed / (2 * roundtrip-count).
/// </summary>
internal static class RemoteLatency
{
    public const string Name = "remote_lat";

    public static int Run(ReadOnlySpan<string> args)
    {
        if (!PerfArguments.TryParse(Name, "connect-to", "roundtrip-count", args, out PerfArguments a))
        {
            return 1;
        }

        if (a.Count < 1)
        {
            Console.Error.WriteLine("roundtrip-count must be at least 1");
            return 1;
        }

        using var context = new Context();
        using var req = new Socket(context, SocketType.Req);
        PerfCurve.Client(req);
        req.Connect(a.Endpoint);

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
