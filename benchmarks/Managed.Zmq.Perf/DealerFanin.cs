namespace Managed.Zmq.Perf;

/// <summary>
/// <c>dealer_fanin &lt;connect-to&gt; &lt;message-size&gt; &lt;message-count&gt; &lt;dealers&gt;</c>, as
/// benchmarks/native/dealer_fanin.c: that many DEALER sockets in one context connect, and one thread
/// sends the messages in turn over them (message i on dealer i mod dealers) with one Message rebuilt
/// per send, then closes with the default linger so everything is delivered.
/// <see cref="RouterFanin"/> measures.
/// </summary>
internal static class DealerFanin
{
    public const string Name = "dealer_fanin";

    public static int Run(ReadOnlySpan<string> args)
    {
        if (!PerfFan.TryParse($"{Name} <connect-to> <message-size> <message-count> <dealers>", args, out PerfArguments a, out int dealers))
        {
            return 1;
        }

        // Declared before the sockets so it is disposed after them and waits for delivery.
        using var context = PerfFan.CreateContext();
        var sockets = new Socket[dealers];
        try
        {
            for (int i = 0; i != dealers; i++)
            {
                sockets[i] = new Socket(context, SocketType.Dealer);
                sockets[i].Connect(a.Endpoint);
            }

            using var message = new Message();
            for (int i = 0; i != a.Count; i++)
            {
                message.Rebuild(a.MessageSize);
                sockets[i % dealers].Send(message, SendFlags.None);
            }

            return 0;
        }
        finally
        {
            foreach (var socket in sockets)
            {
                socket?.Dispose();
            }
        }
    }
}
