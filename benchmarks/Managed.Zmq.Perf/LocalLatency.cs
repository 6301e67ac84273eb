namespace Managed.Zmq.Perf;

/// <summary>
/// <c>local_lat &lt;bind-to&gt; &lt;message-size&gt; &lt;roundtrip-count&gt;</c>: REP binds and
/// echoes every request back (<see cref="PerfWarmup"/> more first).
/// </summary>
internal static class LocalLatency
{
    public const string Name = "local_lat";

    public static int Run(ReadOnlySpan<string> args)
    {
        if (!PerfArguments.TryParse(Name, "bind-to", "roundtrip-count", args, out PerfArguments a))
        {
            return 1;
        }

        using var context = new Context();
        using var rep = new Socket(context, SocketType.Rep);
        PerfCurve.Server(rep);
        rep.Bind(a.Endpoint);

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

        return 0;
    }
}
