using NetMQ;
using NetMQ.Sockets;

namespace Managed.Zmq.Benchmarks;

/// <summary>
/// NetMQ's PUSH→PULL over tcp loopback in <see cref="SocketPair"/>'s layout: the PULL binds and receives
/// on the benchmark thread, the PUSH connects and sends each batch from a thread of its own.
/// </summary>
internal sealed class NetMqPair : IDisposable
{
    private static readonly TimeSpan Timeout = TimeSpan.FromMilliseconds(Bench.TimeoutMilliseconds);

    private readonly BatchSender _sender;
    private readonly byte[] _payload;

    public NetMqPair(int size)
    {
        _payload = new byte[size];
        Receiver = new PullSocket();
        Sender = new PushSocket();
        Receiver.Options.Linger = TimeSpan.Zero;
        Sender.Options.Linger = TimeSpan.Zero;
        int port = Receiver.BindRandomPort("tcp://127.0.0.1");
        Sender.Connect($"tcp://127.0.0.1:{port}");

        // One message through, so the connection is up before the first timed invocation.
        Sender.SendFrame("hello");
        if (!Receiver.TryReceiveFrameString(Timeout, out _))
        {
            throw new InvalidOperationException("NetMQ pair did not connect");
        }

        _sender = new BatchSender("netmq-sender", SendMessages);
    }

    public PullSocket Receiver { get; }

    public PushSocket Sender { get; }

    public void SendBatch(int count = Bench.MessagesPerOperation) => _sender.Request(count);

    public void Dispose()
    {
        _sender.Dispose();
        Sender.Dispose();
        Receiver.Dispose();
        NetMQConfig.Cleanup(block: false);
    }

    /// <summary>
    /// NetMQ's lightest send: a <see cref="Msg"/> over the one payload array (InitGC wraps it without a copy;
    /// NetMQ copies it into its encoder), as our side sends one reused array.
    /// </summary>
    private void SendMessages(int count)
    {
        var msg = default(Msg);
        for (int i = 0; i != count; i++)
        {
            msg.InitGC(_payload, _payload.Length);
            if (!Sender.TrySend(ref msg, Timeout, more: false))
            {
                throw new TimeoutException($"NetMQ could not send for {Timeout}");
            }

            msg.Close();
        }
    }
}
