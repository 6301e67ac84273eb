using System.Diagnostics;

namespace Managed.Zmq.Perf;

/// <summary>
/// <c>receive_modes &lt;message-size&gt; &lt;message-count&gt;</c>: the Blocking-versus-Poller
/// comparison in steady state. One process, ROUTER→ROUTER over tcp loopback, a sender thread; the
/// receiver alternates blocking <c>Recv</c> and <c>Poller.Poll</c> + <c>TryRecv</c>/<c>Recv(DontWait)</c>
/// over 20 rounds of message-count messages each, in the order B P P B B P P B ... so that a drift
/// of the machine over the run (rates still climb for a while after start) favours neither mode.
/// Prints each round's rate, the ratio Poller/Blocking of each pair after the first four rounds
/// (warm-up), and their median.
/// </summary>
/// <remarks>
/// BenchmarkDotNet's ReceiveModeBenchmarks restart the sender every 10,000 messages, and single runs
/// there move by a third; this mode measures the two waits over long streams instead.
/// </remarks>
internal static class ReceiveModes
{
    public const string Name = "receive_modes";

    private const int Rounds = 20;
    private const int WarmUpRounds = 4;

    public static int Run(ReadOnlySpan<string> args)
    {
        if (!PerfArguments.TryParseInproc(Name, "message-count", args, out PerfArguments a) || a.Count < 1)
        {
            return 1;
        }

        using var context = new Context();
        using var receiver = new Socket(context, SocketType.Router);
        using var sender = new Socket(context, SocketType.Router);
        byte[] receiverId = "receiver"u8.ToArray();
        receiver.SetOption(SocketOption.Routing_Id, receiverId);
        sender.SetOption(SocketOption.Router_Mandatory, 1);
        sender.SetOption(SocketOption.Sndtimeo, 10_000);
        receiver.SetOption(SocketOption.Rcvtimeo, 10_000);
        receiver.Bind("tcp://127.0.0.1:*");
        sender.Connect(receiver.GetOptionString(SocketOption.Last_Endpoint));

        byte[] payload = new byte[a.MessageSize];
        byte[] id = new byte[64];
        byte[] buffer = new byte[a.MessageSize + 1];
        SendFirst(sender, receiverId, payload);
        receiver.Recv(id);
        receiver.Recv(buffer);

        using var poller = new Poller(1);
        poller.Add(receiver, PollEvents.In);
        var rates = new double[Rounds];
        for (int round = 0; round < Rounds; round++)
        {
            bool polled = round % 4 is 1 or 2;
            var producer = new Thread(() =>
            {
                for (int i = 0; i < a.Count; i++)
                {
                    sender.Send(receiverId, SendFlags.SendMore);
                    sender.Send(payload, SendFlags.None);
                }
            });
            long start = Stopwatch.GetTimestamp();
            producer.Start();
            if (polled)
            {
                ReceivePolled(receiver, poller, id, buffer, a.Count);
            }
            else
            {
                for (int i = 0; i < a.Count; i++)
                {
                    receiver.Recv(id);
                    receiver.Recv(buffer);
                }
            }

            rates[round] = a.Count / Stopwatch.GetElapsedTime(start).TotalSeconds;
            producer.Join();
            Console.WriteLine($"round {round + 1,2} {(polled ? "Poller  " : "Blocking")} {rates[round],14:N0} msg/s");
        }

        var ratios = new List<double>();
        for (int round = WarmUpRounds; round + 1 < Rounds; round += 2)
        {
            // Each pair holds one round of each mode, in either order.
            bool pollerFirst = round % 4 == 2;
            ratios.Add(pollerFirst ? rates[round] / rates[round + 1] : rates[round + 1] / rates[round]);
        }

        ratios.Sort();
        Console.WriteLine($"Poller/Blocking per pair after warm-up: {string.Join(", ", ratios.Select(r => r.ToString("F2", System.Globalization.CultureInfo.InvariantCulture)))}");
        Console.WriteLine($"median Poller/Blocking: {ratios[ratios.Count / 2].ToString("F2", System.Globalization.CultureInfo.InvariantCulture)} ({a.MessageSize} B)");
        return 0;
    }

    /// <summary>The sender retries its first message until the handshake has named the receiver (ROUTER_MANDATORY).</summary>
    private static void SendFirst(Socket sender, byte[] receiverId, byte[] payload)
    {
        var clock = Stopwatch.StartNew();
        while (true)
        {
            try
            {
                sender.Send(receiverId, SendFlags.SendMore);
                sender.Send(payload, SendFlags.None);
                return;
            }
            catch (ZmqException ex) when (ex.ErrorNumber == ZmqConstants.EHOSTUNREACH && clock.ElapsedMilliseconds < 10_000)
            {
                Thread.Sleep(1);
            }
        }
    }

    private static void ReceivePolled(Socket receiver, Poller poller, byte[] id, byte[] buffer, int count)
    {
        int received = 0;
        while (received < count)
        {
            if (poller.Poll(10_000) == 0)
            {
                throw new TimeoutException("poll timed out");
            }

            while (received < count && receiver.TryRecv(id, out _))
            {
                receiver.Recv(buffer, RecvFlags.DontWait);
                received++;
            }
        }
    }
}
