namespace Managed.Zmq.Perf;

/// <summary>
/// <c>local_rd_thr</c> / <c>local_ps_thr &lt;bind-to&gt; &lt;message-size&gt; &lt;message-count&gt;</c>: local_thr for a
/// <see cref="GroupPair"/>, as benchmarks/native/local_radio_thr.c: DISH (joined) or SUB binds and receives up to the
/// count, stopping early when none has arrived for <see cref="GroupPair.IdleMilliseconds"/> (udp loses datagrams). The
/// clock runs from the first message to the last; the mean divides the messages received by it. Output: local_thr's
/// lines, "message count" being the messages received, and a "message loss" line.
/// <c>remote_rd_thr</c> / <c>remote_ps_thr</c>: RADIO or XPUB connects with Xpub_Nodrop, waits until the peer can
/// receive, and sends the count. A RADIO sends Messages with the group set in every <see cref="PerfBuffer"/> mode (a
/// span send has no group); XPUB sends as <see cref="PerfBuffer"/> says.
/// </summary>
internal static class GroupThroughput
{
    public static bool IsLocal(string mode) => mode is "local_rd_thr" or "local_ps_thr";

    public static bool IsRemote(string mode) => mode is "remote_rd_thr" or "remote_ps_thr";

    public static int RunLocal(string mode, GroupPair pair, ReadOnlySpan<string> args)
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
        if (pair.IsRadioDish)
        {
            local.Join(GroupPair.Group);
        }
        else
        {
            local.SubscribeAll();
        }

        local.SetOption(SocketOption.Rcvtimeo, GroupPair.FirstWaitMilliseconds);
        local.Bind(a.Endpoint);

        var receiver = new Receiver(local, a.MessageSize);
        if (!receiver.Blocking())
        {
            Console.Error.WriteLine($"no message within {GroupPair.FirstWaitMilliseconds} ms");
            return 1;
        }

        local.SetOption(SocketOption.Rcvtimeo, GroupPair.IdleMilliseconds);
        long start = PerfClock.Start();
        var gc = PerfGc.Start();
        long elapsed = 0;
        int received = 1;
        while (received != a.Count)
        {
            if (!receiver.NonBlocking())
            {
                // Ran dry: the clock reads here, just after the last message so far, and only here.
                elapsed = PerfClock.ElapsedMicroseconds(start);
                if (!receiver.Blocking())
                {
                    break; // idle: the sender is done, the rest was lost
                }
            }

            received++;
        }

        if (received == a.Count)
        {
            elapsed = PerfClock.ElapsedMicroseconds(start);
        }

        gc.Report(received - 1);
        int lost = a.Count - received;
        PerfReport.PrintThroughput(a.MessageSize, received, PerfReport.Throughput(received, elapsed));
        Console.WriteLine(FormattableString.Invariant($"message loss: {lost} of {a.Count} ({100.0 * lost / a.Count:F3} %)"));
        return 0;
    }

    public static int RunRemote(string mode, GroupPair pair, ReadOnlySpan<string> args)
    {
        if (!PerfArguments.TryParse(mode, "connect-to", "message-count", args, out PerfArguments a))
        {
            return 1;
        }

        // Context after the socket in disposal order: its Dispose lingers until all is written.
        using var context = new Context();
        using var remote = new Socket(context, pair.Remote);
        remote.SetOption(SocketOption.Xpub_Nodrop, 1);
        remote.Connect(a.Endpoint);
        if (!pair.IsRadioDish)
        {
            // The subscription: from here on every message reaches the SUB.
            using var subscription = new Message();
            remote.Recv(subscription);
        }
        else if (!a.Endpoint.StartsWith("udp://", StringComparison.Ordinal))
        {
            Thread.Sleep(GroupPair.JoinWait);
        }

        var gc = PerfGc.Start();
        if (pair.IsRadioDish)
        {
            // libzmq's remote_thr with the group: one Message, rebuilt and given the group per send.
            using var message = new Message();
            for (int i = 0; i != a.Count; i++)
            {
                message.Rebuild(a.MessageSize);
                message.Group = GroupPair.Group;
                remote.Send(message, SendFlags.None);
            }
        }
        else
        {
            PerfBuffer.SendAll(remote, a.MessageSize, a.Count);
        }

        gc.Report(a.Count);
        return 0;
    }

    /// <summary>One Message (or one array for spans) received into; a receive that times out or finds nothing is false.</summary>
    private sealed class Receiver(Socket socket, int size)
    {
        private readonly Message? _message = PerfBuffer.Mode == PerfBufferMode.Span ? null : new Message();

        // One extra byte so a longer frame is detected rather than silently equal.
        private readonly byte[]? _buffer = PerfBuffer.Mode == PerfBufferMode.Span ? new byte[size + 1] : null;

        public bool NonBlocking() => Check(Receive(RecvFlags.DontWait));

        public bool Blocking()
        {
            try
            {
                return Check(Receive(RecvFlags.None));
            }
            catch (ZmqException e) when (e.ErrorNumber == ZmqConstants.EAGAIN)
            {
                return false; // RCVTIMEO ran out
            }
        }

        private int Receive(RecvFlags flags) =>
            _message is not null ? socket.Recv(_message, flags) : socket.Recv(_buffer.AsSpan(), flags);

        private bool Check(int received)
        {
            if (received < 0)
            {
                return false;
            }

            if (received != size)
            {
                // As the C tool: the run is void, stop here.
                Environment.Exit(LocalThroughput.IncorrectSize());
            }

            return true;
        }
    }
}
