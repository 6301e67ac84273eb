namespace Managed.Zmq.Benchmarks;

/// <summary>
/// A connected sender/receiver pair in one context plus a long-lived sender thread.
/// The benchmark thread owns <see cref="Receiver"/>; <see cref="Sender"/> belongs to the
/// sender thread once <see cref="Start"/> has run. Each <see cref="SendBatch"/> asks the
/// sender thread to run the batch delegate once; the benchmark thread then receives the
/// batch, so an invocation ends when its last message has arrived.
/// </summary>
internal sealed class SocketPair : IDisposable
{
    public static readonly byte[] ReceiverId = "receiver"u8.ToArray();
    public static readonly byte[] SenderId = "sender"u8.ToArray();

    private BatchSender? _sender;
    private string? _ipcPath;

    public SocketPair(Pattern pattern, Transport transport)
    {
        Pattern = pattern;
        Context = new Context();
        bool routed = pattern == Pattern.RouterRouter;
        Receiver = new Socket(Context, routed ? SocketType.Router : SocketType.Pull);
        Sender = new Socket(Context, routed ? SocketType.Router : SocketType.Push);
        Receiver.SetOption(SocketOption.Linger, 0);
        Sender.SetOption(SocketOption.Linger, 0);
        Receiver.SetOption(SocketOption.Rcvtimeo, Bench.TimeoutMilliseconds);
        Sender.SetOption(SocketOption.Sndtimeo, Bench.TimeoutMilliseconds);
        if (routed)
        {
            Receiver.SetOption(SocketOption.Routing_Id, ReceiverId);
            Sender.SetOption(SocketOption.Routing_Id, SenderId);
            Sender.SetOption(SocketOption.Router_Mandatory, 1);
        }

        string bindTo = transport switch
        {
            Transport.Tcp => "tcp://127.0.0.1:*",
            Transport.Ipc => "ipc://" + (_ipcPath = Path.Combine(Path.GetTempPath(), $"mzq-bench-{Guid.NewGuid():N}.ipc")),
            Transport.Inproc => $"inproc://bench-{Guid.NewGuid():N}",
            _ => throw new ArgumentOutOfRangeException(nameof(transport)),
        };
        Receiver.Bind(bindTo);
        Sender.Connect(Receiver.GetOptionString(SocketOption.Last_Endpoint));
        WaitUntilConnected();
    }

    public Pattern Pattern { get; }

    public Context Context { get; }

    public Socket Sender { get; }

    public Socket Receiver { get; }

    /// <summary>Starts the sender thread; <paramref name="batch"/>(sender, count) sends count messages.</summary>
    public void Start(Action<Socket, int> batch) => _sender = new BatchSender("bench-sender", count => batch(Sender, count));

    /// <summary>Lets the sender thread send <paramref name="count"/> messages.</summary>
    public void SendBatch(int count = Bench.MessagesPerOperation) => _sender!.Request(count);

    public void Dispose()
    {
        _sender?.Dispose();
        Sender.Dispose();
        Receiver.Dispose();
        Context.Dispose();
        if (_ipcPath is not null)
        {
            File.Delete(_ipcPath);
        }
    }

    /// <summary>
    /// Moves one message through so the connection (and for ROUTER the routing id) is up
    /// before the first timed invocation.
    /// </summary>
    private void WaitUntilConnected()
    {
        Span<byte> buffer = stackalloc byte[64];
        if (Pattern == Pattern.RouterRouter)
        {
            var deadline = Environment.TickCount64 + Bench.TimeoutMilliseconds;
            while (true)
            {
                try
                {
                    Sender.Send(ReceiverId, SendFlags.SendMore);
                    break;
                }
                catch (ZmqException ex) when (ex.ErrorNumber == ZmqConstants.EHOSTUNREACH && Environment.TickCount64 < deadline)
                {
                    Thread.Sleep(1);
                }
            }

            Sender.Send("hello"u8, SendFlags.None);
            Receiver.Recv(buffer, RecvFlags.None);
            Receiver.Recv(buffer, RecvFlags.None);
        }
        else
        {
            Sender.Send("hello"u8, SendFlags.None);
            Receiver.Recv(buffer, RecvFlags.None);
        }
    }
}
