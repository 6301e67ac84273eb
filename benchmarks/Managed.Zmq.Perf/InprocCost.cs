using System.Diagnostics;
using System.Globalization;

namespace Managed.Zmq.Perf;

/// <summary>
/// <c>inproc_cost &lt;batch|catchup&gt; &lt;message-count&gt; [push-pull|dealer-router|client-server]</c>: what one 64 B inproc
/// PUSH→PULL (or DEALER→ROUTER, CLIENT→SERVER) message costs the
/// library, on one thread, in a form a loaded machine cannot blur. Messages go in batches of
/// <see cref="BatchSize"/>, each batch timed on its own; noise (other processes, preemption) only ever adds time
/// to a batch, so the low percentiles of the batch times are what the code costs. <c>batch</c> sends a batch,
/// then receives it; <c>catchup</c> sends one message, receives it, then finds the pipe empty with a
/// non-blocking receive, as a reader that keeps up with its sender does at every message. Message mode as
/// <c>inproc_thr</c> with PERF_BUFFER=message: one Message rebuilt per send, one received into.
/// </summary>
internal static class InprocCost
{
    public const string Name = "inproc_cost";

    private const int MessageSize = 64;

    /// <summary>The socket pairs the optional third argument names: the classic PUSH/PULL (default), DEALER to ROUTER, and the thread-safe CLIENT to SERVER, each used from this one thread.</summary>
    private const string PushPull = "push-pull";

    private const string DealerRouter = "dealer-router";

    private const string ClientServer = "client-server";

    /// <summary>Messages per timed batch: well under the HWM, and tens of microseconds, far below a time slice.</summary>
    private const int BatchSize = 1000;

    /// <summary>The first tenth of the batches is left out: first calls, caches and pools warming.</summary>
    private const int WarmupDivisor = 10;

    private const double NanosecondsPerSecond = 1e9;

    public static int Run(ReadOnlySpan<string> args)
    {
        if (args.Length is not (2 or 3) || (args[0] != "batch" && args[0] != "catchup")
            || !int.TryParse(args[1], NumberStyles.None, CultureInfo.InvariantCulture, out int count) || count < BatchSize * WarmupDivisor
            || !TryParsePair(args.Length == 3 ? args[2] : PushPull, out var receiverType, out var senderType))
        {
            Console.WriteLine($"usage: {Name} <batch|catchup> <message-count> [{PushPull}|{DealerRouter}|{ClientServer}]   (message-count at least {BatchSize * WarmupDivisor})");
            return 1;
        }

        bool catchUp = args[0] == "catchup";
        using var context = new Context();
        using var pull = new Socket(context, receiverType);
        using var push = new Socket(context, senderType);
        bool idFrame = receiverType == SocketType.Router;
        string endpoint = "inproc://cost-" + Guid.NewGuid().ToString("N");
        pull.Bind(endpoint);
        push.Connect(endpoint);
        using var sent = new Message();
        using var received = new Message();

        int batches = count / BatchSize;
        var nanosecondsPerMessage = new double[batches];
        for (int b = 0; b < batches; b++)
        {
            long start = Stopwatch.GetTimestamp();
            if (catchUp)
            {
                for (int i = 0; i < BatchSize; i++)
                {
                    sent.Rebuild(MessageSize);
                    push.Send(sent, SendFlags.None);
                    ReceiveOne(pull, received, idFrame);
                    if (pull.TryRecv(received, out _))
                    {
                        Console.Error.WriteLine("a message arrived that was never sent");
                        return 1;
                    }
                }
            }
            else
            {
                for (int i = 0; i < BatchSize; i++)
                {
                    sent.Rebuild(MessageSize);
                    push.Send(sent, SendFlags.None);
                }

                for (int i = 0; i < BatchSize; i++)
                {
                    ReceiveOne(pull, received, idFrame);
                }
            }

            nanosecondsPerMessage[b] = (Stopwatch.GetTimestamp() - start) * NanosecondsPerSecond / Stopwatch.Frequency / BatchSize;
        }

        var measured = nanosecondsPerMessage.AsSpan(batches / WarmupDivisor);
        measured.Sort();
        Console.WriteLine($"mode: {args[0]}, {receiverType} <- {senderType}, batches: {measured.Length} of {BatchSize} messages");
        Console.WriteLine(string.Create(
            CultureInfo.InvariantCulture,
            $"ns per message: min {measured[0]:F1}  p10 {Percentile(measured, 0.10):F1}  p25 {Percentile(measured, 0.25):F1}  median {Percentile(measured, 0.50):F1}"));
        return 0;
    }

    /// <summary>One message: ROUTER receives the routing id frame first, then the payload.</summary>
    private static void ReceiveOne(Socket receiver, Message received, bool idFrame)
    {
        if (idFrame)
        {
            receiver.Recv(received, RecvFlags.None);
        }

        receiver.Recv(received, RecvFlags.None);
    }

    private static bool TryParsePair(string pair, out SocketType receiver, out SocketType sender)
    {
        (receiver, sender) = pair switch
        {
            PushPull => (SocketType.Pull, SocketType.Push),
            DealerRouter => (SocketType.Router, SocketType.Dealer),
            ClientServer => (SocketType.Server, SocketType.Client),
            _ => (SocketType.Pair, SocketType.Pair),
        };
        return receiver != SocketType.Pair;
    }

    private static double Percentile(ReadOnlySpan<double> sorted, double quantile) => sorted[(int)(quantile * (sorted.Length - 1))];
}
