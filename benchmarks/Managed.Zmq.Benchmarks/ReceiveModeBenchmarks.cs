using BenchmarkDotNet.Attributes;

namespace Managed.Zmq.Benchmarks;

/// <summary>Receive styles of Net.Zmq's advanced guide.</summary>
public enum ReceiveMode
{
    /// <summary>Blocking <c>Recv</c> for every frame.</summary>
    Blocking,

    /// <summary><c>Poller.Poll(-1)</c>, then drain with <c>TryRecv</c> (id) and <c>Recv(DontWait)</c> (payload).</summary>
    Poller,

    /// <summary>Spin on <c>TryRecv</c> (SpinWait without Sleep(1)), then <c>Recv(DontWait)</c> for the payload.</summary>
    NonBlocking,
}

/// <summary>
/// ROUTER to ROUTER over tcp loopback: one ROUTER thread sends [receiver-id][payload] from
/// one reused buffer; the benchmark thread receives 10,000 messages per operation in the
/// chosen receive mode into one reused buffer.
/// </summary>
[MemoryDiagnoser]
public class ReceiveModeBenchmarks
{
    private SocketPair _pair = null!;
    private Poller _poller = null!;
    private byte[] _buffer = null!;
    private readonly byte[] _idBuffer = new byte[64];

    [Params(64, 512, 1024, 65536)]
    public int Size { get; set; }

    [Params(ReceiveMode.Blocking, ReceiveMode.Poller, ReceiveMode.NonBlocking)]
    public ReceiveMode Mode { get; set; }

    [GlobalSetup]
    public void Setup()
    {
        _pair = new SocketPair(Pattern.RouterRouter, Transport.Tcp);
        _poller = new Poller(1);
        _poller.Add(_pair.Receiver, PollEvents.In);
        _buffer = new byte[Size];
        byte[] payload = new byte[Size];
        _pair.Start((sender, count) =>
        {
            for (int i = 0; i != count; i++)
            {
                sender.Send(SocketPair.ReceiverId, SendFlags.SendMore);
                sender.Send(payload, SendFlags.None);
            }
        });
    }

    [GlobalCleanup]
    public void Cleanup()
    {
        _poller.Dispose();
        _pair.Dispose();
    }

    [Benchmark(OperationsPerInvoke = Bench.MessagesPerOperation)]
    public int Receive()
    {
        _pair.SendBatch();
        return Mode switch
        {
            ReceiveMode.Blocking => ReceiveBlocking(),
            ReceiveMode.Poller => ReceivePolled(),
            _ => ReceiveSpinning(),
        };
    }

    private int ReceiveBlocking()
    {
        var socket = _pair.Receiver;
        int bytes = 0;
        for (int i = 0; i != Bench.MessagesPerOperation; i++)
        {
            socket.Recv(_idBuffer.AsSpan(), RecvFlags.None);
            bytes += Check(socket.Recv(_buffer.AsSpan(), RecvFlags.None));
        }

        return bytes;
    }

    private int ReceivePolled()
    {
        var socket = _pair.Receiver;
        int bytes = 0;
        int received = 0;
        while (received != Bench.MessagesPerOperation)
        {
            if (_poller.Poll(Bench.TimeoutMilliseconds) == 0)
            {
                throw new TimeoutException("poll timed out");
            }

            while (received != Bench.MessagesPerOperation && socket.TryRecv(_idBuffer, out _))
            {
                bytes += Check(socket.Recv(_buffer.AsSpan(), RecvFlags.DontWait));
                received++;
            }
        }

        return bytes;
    }

    private int ReceiveSpinning()
    {
        var socket = _pair.Receiver;
        int bytes = 0;
        for (int i = 0; i != Bench.MessagesPerOperation; i++)
        {
            var spin = default(SpinWait);
            while (!socket.TryRecv(_idBuffer, out _))
            {
                spin.SpinOnce(sleep1Threshold: -1);
            }

            bytes += Check(socket.Recv(_buffer.AsSpan(), RecvFlags.DontWait));
        }

        return bytes;
    }

    private int Check(int received) =>
        received == Size ? received : throw new InvalidOperationException($"received {received} B, expected {Size} B");
}
