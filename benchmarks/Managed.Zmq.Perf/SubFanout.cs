namespace Managed.Zmq.Perf;

/// <summary>
/// <c>sub_fanout &lt;connect-to&gt; &lt;message-size&gt; &lt;message-count&gt; &lt;subscribers&gt;</c>, as
/// benchmarks/native/sub_fanout.c: that many SUB sockets in one context subscribe to everything and
/// connect; one thread drains each without blocking in turn and blocks in a poll only when a whole
/// pass found nothing. The clock starts at the first message; prints the published rate (each
/// message reaching every subscriber) and the delivery rate.
/// </summary>
internal static class SubFanout
{
    public const string Name = "sub_fanout";

    public static int Run(ReadOnlySpan<string> args)
    {
        if (!PerfFan.TryParse($"{Name} <connect-to> <message-size> <message-count> <subscribers>", args, out PerfArguments a, out int subscribers))
        {
            return 1;
        }

        using var context = PerfFan.CreateContext();
        var subs = new Socket[subscribers];
        var remaining = new int[subscribers];
        using var poller = new Poller(subscribers);
        try
        {
            for (int i = 0; i != subscribers; i++)
            {
                subs[i] = new Socket(context, SocketType.Sub);
                subs[i].Subscribe(string.Empty);
                subs[i].Connect(a.Endpoint);
                remaining[i] = a.Count;
                poller.Add(subs[i], PollEvents.In);
            }

            using var message = new Message();
            long left = (long)a.Count * subscribers;
            long start = 0;
            bool started = false;
            while (left > 0)
            {
                bool progress = false;
                for (int i = 0; i != subscribers; i++)
                {
                    while (remaining[i] > 0)
                    {
                        int size = subs[i].Recv(message, RecvFlags.DontWait);
                        if (size < 0)
                        {
                            break;
                        }

                        if (size != a.MessageSize)
                        {
                            return LocalThroughput.IncorrectSize();
                        }

                        if (!started)
                        {
                            start = PerfClock.Start();
                            started = true;
                        }

                        remaining[i]--;
                        left--;
                        progress = true;
                    }
                }

                if (!progress)
                {
                    poller.Poll(-1);
                }
            }

            long elapsed = PerfClock.ElapsedMicroseconds(start);
            ulong published = PerfReport.Throughput(a.Count, elapsed);
            Console.WriteLine($"message size: {a.MessageSize} [B]");
            Console.WriteLine($"message count: {a.Count}");
            Console.WriteLine($"subscribers: {subscribers}");
            Console.WriteLine($"mean throughput: {(int)published} [msg/s]");
            Console.WriteLine($"deliveries: {published * (ulong)subscribers} [msg/s]");
            return 0;
        }
        finally
        {
            foreach (var sub in subs)
            {
                sub?.Dispose();
            }
        }
    }
}
