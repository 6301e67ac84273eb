namespace Managed.Zmq.Perf;

/// <summary>
/// <c>remote_thr &lt;connect-to&gt; &lt;message-size&gt; &lt;message-count&gt;</c>: PUSH connects and
/// sends the messages, then closes with the default linger so all of them are delivered.
/// </summary>
internal static class RemoteThroughput
{
    public const string Name = "remote_thr";

    public static int Run(ReadOnlySpan<string> args)
    {
        if (!PerfArguments.TryParse(Name, "connect-to", "message-count", args, out PerfArguments a))
        {
            return 1;
        }

        // Declared before the socket so it is disposed after it: Context.Dispose then
        // waits (default Linger -1) until every queued message has been written.
        using var context = new Context();
        using var push = new Socket(context, SocketType.Push);
        PerfCurve.Client(push);
        push.Connect(a.Endpoint);

        var gc = PerfGc.Start();
        PerfBuffer.SendAll(push, a.MessageSize, a.Count);
        gc.Report(a.Count);
        return 0;
    }
}
