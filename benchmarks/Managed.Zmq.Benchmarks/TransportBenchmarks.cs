using BenchmarkDotNet.Attributes;

namespace Managed.Zmq.Benchmarks;

/// <summary>
/// PUSH→PULL, 64 B, one reused buffer on each side (Span send/receive), over tcp loopback,
/// ipc (a Unix-domain socket in the temp directory) and inproc.
/// </summary>
[MemoryDiagnoser]
public class TransportBenchmarks
{
    private SocketPair _pair = null!;
    private byte[] _buffer = null!;

    [Params(Transport.Tcp, Transport.Ipc, Transport.Inproc)]
    public Transport Transport { get; set; }

    [Params(64)]
    public int Size { get; set; }

    [GlobalSetup]
    public void Setup()
    {
        _pair = new SocketPair(Pattern.PushPull, Transport);
        _buffer = new byte[Size];
        byte[] payload = new byte[Size];
        _pair.Start((sender, count) =>
        {
            for (int i = 0; i != count; i++)
            {
                sender.Send(payload, SendFlags.None);
            }
        });
    }

    [GlobalCleanup]
    public void Cleanup() => _pair.Dispose();

    [Benchmark(OperationsPerInvoke = Bench.MessagesPerOperation)]
    public int PushPull()
    {
        _pair.SendBatch();
        var socket = _pair.Receiver;
        int bytes = 0;
        for (int i = 0; i != Bench.MessagesPerOperation; i++)
        {
            int received = socket.Recv(_buffer.AsSpan(), RecvFlags.None);
            bytes += received == Size ? received : throw new InvalidOperationException($"received {received} B, expected {Size} B");
        }

        return bytes;
    }
}
