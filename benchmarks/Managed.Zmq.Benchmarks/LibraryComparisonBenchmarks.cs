using BenchmarkDotNet.Attributes;
using NetMQ;

namespace Managed.Zmq.Benchmarks;

/// <summary>The managed ZeroMQ libraries this benchmark project can restore.</summary>
public enum Library
{
    /// <summary>This library.</summary>
    ManagedZmq,

    /// <summary>NetMQ 4.0.4.5 (pure C#); Net.Zmq does not restore from this machine's registry.</summary>
    NetMQ,
}

/// <summary>
/// A side-by-side with the other .NET ZeroMQs: PUSH→PULL over tcp loopback, one process, the sender on
/// a thread of its own and the receiver on the benchmark thread (<see cref="SocketPair"/>'s layout for both),
/// 10,000 messages per operation. Each library uses its lightest allocation-free calls where it has them: ours
/// sends one array as a span and receives into one array; NetMQ sends a <see cref="Msg"/> over one array and
/// receives into one <see cref="Msg"/> (NetMQ's default buffer pool gives each received message a new array).
/// </summary>
[MemoryDiagnoser]
public class LibraryComparisonBenchmarks
{
    private SocketPair? _ours;
    private NetMqPair? _netmq;
    private byte[] _buffer = null!;

    [Params(Library.ManagedZmq, Library.NetMQ)]
    public Library Library { get; set; }

    [Params(64, 1024, 65536)]
    public int Size { get; set; }

    [GlobalSetup]
    public void Setup()
    {
        _buffer = new byte[Size];
        if (Library == Library.NetMQ)
        {
            _netmq = new NetMqPair(Size);
            return;
        }

        _ours = new SocketPair(Pattern.PushPull, Transport.Tcp);
        byte[] payload = new byte[Size];
        _ours.Start((sender, count) =>
        {
            for (int i = 0; i != count; i++)
            {
                sender.Send(payload, SendFlags.None);
            }
        });
    }

    [GlobalCleanup]
    public void Cleanup()
    {
        _ours?.Dispose();
        _netmq?.Dispose();
    }

    [Benchmark(OperationsPerInvoke = Bench.MessagesPerOperation)]
    public long PushPullTcp() => Library == Library.NetMQ ? ReceiveNetMq() : ReceiveOurs();

    private long ReceiveOurs()
    {
        _ours!.SendBatch();
        var socket = _ours.Receiver;
        long bytes = 0;
        for (int i = 0; i != Bench.MessagesPerOperation; i++)
        {
            bytes += Expect(socket.Recv(_buffer.AsSpan(), RecvFlags.None));
        }

        return bytes;
    }

    private long ReceiveNetMq()
    {
        _netmq!.SendBatch();
        var socket = _netmq.Receiver;
        long bytes = 0;
        var msg = default(Msg);
        for (int i = 0; i != Bench.MessagesPerOperation; i++)
        {
            msg.InitEmpty();
            if (!socket.TryReceive(ref msg, Timeout))
            {
                throw new TimeoutException($"NetMQ received nothing for {Timeout}");
            }

            bytes += Expect(msg.Size);
            msg.Close();
        }

        return bytes;
    }

    private static readonly TimeSpan Timeout = TimeSpan.FromMilliseconds(Bench.TimeoutMilliseconds);

    private int Expect(int received) =>
        received == Size ? received : throw new InvalidOperationException($"received {received} B, expected {Size} B");
}
