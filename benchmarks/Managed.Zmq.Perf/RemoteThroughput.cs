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

        switch (PerfBuffer.Mode)
        {
            case PerfBufferMode.Message:
            {
                // libzmq's remote_thr: one zmq_msg_t, zmq_msg_init_size + zmq_sendmsg per message.
                using var message = new Message();
                for (int i = 0; i != a.Count; i++)
                {
                    message.Rebuild(a.MessageSize);
                    push.Send(message, SendFlags.None);
                }

                break;
            }

            case PerfBufferMode.Pool:
                for (int i = 0; i != a.Count; i++)
                {
                    using var message = MessagePool.Shared.Rent(a.MessageSize);
                    push.Send(message, SendFlags.None);
                }

                break;
            default:
                ReadOnlySpan<byte> payload = new byte[a.MessageSize];
                for (int i = 0; i != a.Count; i++)
                {
                    push.Send(payload, SendFlags.None);
                }

                break;
        }

        return 0;
    }
}
