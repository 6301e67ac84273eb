namespace Managed.Zmq.Perf;

/// <summary>
/// <c>inproc_thr &lt;message-size&gt; &lt;message-count&gt;</c>, libzmq's one-process tool: the main
/// thread binds PULL to <c>inproc://thr_test</c>, a worker thread connects PUSH and sends. The
/// clock starts at the first received message; the output is local_thr's.
/// </summary>
internal static class InprocThroughput
{
    public const string Name = "inproc_thr";

    public static int Run(ReadOnlySpan<string> args)
    {
        if (!PerfArguments.TryParseInproc(Name, "message-count", args, out PerfArguments a))
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
        pull.Bind("inproc://thr_test");

        Exception? workerError = null;
        var worker = new Thread(() =>
        {
            try
            {
                using var push = new Socket(context, SocketType.Push);
                push.Connect("inproc://thr_test");
                PerfBuffer.SendAll(push, a.MessageSize, a.Count);
            }
            catch (ZmqException ex)
            {
                workerError = ex;
            }
        })
        {
            Name = "inproc_thr-worker",
        };
        worker.Start();

        var receive = PerfBuffer.CreateReceiver(a.MessageSize);
        if (receive(pull) != a.MessageSize)
        {
            return LocalThroughput.IncorrectSize();
        }

        long start = PerfClock.Start();
        for (int i = 1; i != a.Count; i++)
        {
            if (receive(pull) != a.MessageSize)
            {
                return LocalThroughput.IncorrectSize();
            }
        }

        long elapsed = PerfClock.ElapsedMicroseconds(start);
        worker.Join();
        if (workerError is not null)
        {
            throw workerError;
        }

        PerfReport.PrintThroughput(a.MessageSize, a.Count, PerfReport.Throughput(a.Count, elapsed));
        return 0;
    }
}
