namespace Managed.Zmq.Perf;

/// <summary>
/// <c>local_dr_lat</c> / <c>local_cs_lat &lt;bind-to&gt; &lt;message-size&gt; &lt;roundtrip-count&gt;</c>: local_lat
/// for a <see cref="RoutedPair"/>, ROUTER or SERVER binds and sends every request back to its sender
/// (ROUTER by the id frame, SERVER by <see cref="Message.RoutingId"/>, which a received Message
/// carries and Send uses). <c>remote_dr_lat</c> / <c>remote_cs_lat</c>: remote_lat with DEALER or CLIENT;
/// one-way latency, elapsed / (2 * roundtrip-count), the clock started right after Connect
/// (after the <see cref="PerfWarmup"/> round trips, which the local side also answers).
/// </summary>
internal static class RoutedLatency
{
    public static bool IsLocal(string mode) => mode is "local_dr_lat" or "local_cs_lat";

    public static bool IsRemote(string mode) => mode is "remote_dr_lat" or "remote_cs_lat";

    public static int RunLocal(string mode, RoutedPair pair, ReadOnlySpan<string> args)
    {
        if (!PerfArguments.TryParse(mode, "bind-to", "roundtrip-count", args, out PerfArguments a))
        {
            return 1;
        }

        using var context = new Context();
        using var local = new Socket(context, pair.Local);
        local.Bind(a.Endpoint);

        // As local_routed_lat.c with its two zmq_msg_t: the request is received into a Message and
        // that Message is sent back, so neither side copies the payload.
        using var id = new Message();
        using var message = new Message();
        int total = PerfWarmup.RoundTrips + a.Count;
        for (int i = 0; i != total; i++)
        {
            if (!pair.IdOnMessage)
            {
                local.Recv(id, RecvFlags.None);
                if (!local.HasMore)
                {
                    return LocalThroughput.IncorrectSize();
                }
            }

            if (local.Recv(message, RecvFlags.None) != a.MessageSize)
            {
                return LocalThroughput.IncorrectSize();
            }

            if (!pair.IdOnMessage)
            {
                local.Send(id, SendFlags.SendMore);
            }

            local.Send(message, SendFlags.None);
        }

        return 0;
    }

    public static int RunRemote(string mode, RoutedPair pair, ReadOnlySpan<string> args)
    {
        if (!PerfArguments.TryParse(mode, "connect-to", "roundtrip-count", args, out PerfArguments a))
        {
            return 1;
        }

        if (a.Count < 1)
        {
            Console.Error.WriteLine("roundtrip-count must be at least 1");
            return 1;
        }

        using var context = new Context();
        using var remote = new Socket(context, pair.Remote);
        remote.Connect(a.Endpoint);

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

            remote.Send(request, SendFlags.None);
            if (remote.Recv(buffer.AsSpan(), RecvFlags.None) != a.MessageSize)
            {
                return LocalThroughput.IncorrectSize();
            }
        }

        long elapsed = PerfClock.ElapsedMicroseconds(start);
        PerfReport.PrintLatency(a.MessageSize, a.Count, PerfReport.Latency(a.Count, elapsed));
        return 0;
    }
}
