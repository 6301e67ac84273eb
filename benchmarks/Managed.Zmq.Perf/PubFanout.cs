namespace Managed.Zmq.Perf;

/// <summary>
/// <c>pub_fanout &lt;bind-to&gt; &lt;message-size&gt; &lt;message-count&gt; &lt;subscribers&gt;</c>, as
/// benchmarks/native/pub_fanout.c: an XPUB (verbose, no-drop) binds, waits for one subscription
/// per subscriber, publishes the messages with one Message rebuilt per send, and closes with the
/// default linger so every subscriber gets every message. <see cref="SubFanout"/> measures.
/// </summary>
internal static class PubFanout
{
    public const string Name = "pub_fanout";

    public static int Run(ReadOnlySpan<string> args)
    {
        if (!PerfFan.TryParse($"{Name} <bind-to> <message-size> <message-count> <subscribers>", args, out PerfArguments a, out int subscribers))
        {
            return 1;
        }

        // Declared before the socket so it is disposed after it and waits for delivery.
        using var context = PerfFan.CreateContext();
        using var pub = new Socket(context, SocketType.XPub);
        pub.SetOption(SocketOption.Xpub_Verbose, 1);
        pub.SetOption(SocketOption.Xpub_Nodrop, 1);
        pub.Bind(a.Endpoint);

        using var message = new Message();
        for (int i = 0; i != subscribers; i++)
        {
            pub.Recv(message, RecvFlags.None);
        }

        for (int i = 0; i != a.Count; i++)
        {
            message.Rebuild(a.MessageSize);
            pub.Send(message, SendFlags.None);
        }

        return 0;
    }
}
