using System.Buffers;
using System.Runtime.InteropServices;
using BenchmarkDotNet.Attributes;

namespace Managed.Zmq.Benchmarks;

/// <summary>The five buffer strategies of Net.Zmq's advanced guide.</summary>
public enum BufferStrategy
{
    /// <summary><c>new byte[size]</c> per message on both sides; <c>Send(byte[])</c> / <c>Recv(byte[])</c>.</summary>
    ByteArray,

    /// <summary><c>ArrayPool&lt;byte&gt;.Shared</c> rent/return on both sides; span send/receive.</summary>
    ArrayPool,

    /// <summary><c>new Message(size)</c> per send; one reused <c>Message</c> receives (the API's allocation-free receive).</summary>
    Message,

    /// <summary>
    /// <c>new Message(ptr, size, free)</c> over <c>NativeMemory.Alloc</c> per send (freed by the
    /// callback); one reused <c>Message</c> receives.
    /// </summary>
    MessageZeroCopy,

    /// <summary>
    /// <c>MessagePool.Shared.Rent(size)</c> per send; one rented Message receives with
    /// <c>Recv(msg, size)</c>, which keeps it pooled.
    /// </summary>
    MessagePool,

    /// <summary>
    /// One <c>Message</c> per sender, rebuilt with <c>Rebuild(size)</c> for each send (it keeps its own buffer); one
    /// reused <c>Message</c> receives. No allocation per message.
    /// </summary>
    MessageReuse,

    /// <summary>
    /// One <c>Message</c> per sender, rebuilt from <c>MessagePool.Shared</c> with <c>Rebuild(pool, size)</c> for each
    /// send; one rented Message receives with <c>Recv(msg, size)</c>. No allocation per message.
    /// </summary>
    MessagePoolReuse,
}

/// <summary>
/// Buffer strategies × message sizes × {PUSH→PULL, ROUTER→ROUTER} over tcp loopback.
/// The strategy applies to the payload frame on both sides; ROUTER id frames go through a
/// reused buffer. 10,000 messages per operation, so Allocated is bytes per message
/// (process-wide: sender thread, receiver thread and I/O threads).
/// </summary>
[MemoryDiagnoser]
public class BufferStrategyBenchmarks
{
    private static readonly Action<nint> FreeNative = static p => FreeNativeMemory(p);

    private SocketPair _pair = null!;
    private readonly byte[] _idBuffer = new byte[64];

    /// <summary>The receiver's one Message (Message and MessageZeroCopy) or rented Message (MessagePool).</summary>
    private Message _incoming = null!;

    /// <summary>The sender's one Message (MessageReuse, MessagePoolReuse).</summary>
    private Message _outgoing = null!;

    [Params(Pattern.PushPull, Pattern.RouterRouter)]
    public Pattern Pattern { get; set; }

    [ParamsSource(nameof(Strategies))]
    public BufferStrategy Strategy { get; set; }

    [ParamsSource(nameof(Sizes))]
    public int Size { get; set; }

    /// <summary>Every strategy, or those named in BUFFER_STRATEGIES (comma-separated), for a focused many-launch run.</summary>
    public static IEnumerable<BufferStrategy> Strategies =>
        Bench.Selection("BUFFER_STRATEGIES", Enum.GetValues<BufferStrategy>(), Enum.Parse<BufferStrategy>);

    /// <summary>The six sizes, or those listed in BUFFER_SIZES (comma-separated bytes).</summary>
    public static IEnumerable<int> Sizes =>
        Bench.Selection("BUFFER_SIZES", [64, 512, 1024, 65536, 131072, 262144], int.Parse);

    [GlobalSetup]
    public void Setup()
    {
        _pair = new SocketPair(Pattern, Transport.Tcp);
        _incoming = Strategy is BufferStrategy.MessagePool or BufferStrategy.MessagePoolReuse ? MessagePool.Shared.Rent(Size) : new Message();
        bool routed = Pattern == Pattern.RouterRouter;
        int size = Size;
        var strategy = Strategy;

        // The reuse strategies' one outgoing Message, used by the sender thread only.
        var outgoing = _outgoing = new Message();
        _pair.Start((sender, count) =>
        {
            for (int i = 0; i != count; i++)
            {
                if (routed)
                {
                    sender.Send(SocketPair.ReceiverId, SendFlags.SendMore);
                }

                SendOne(sender, strategy, size, outgoing);
            }
        });
    }

    [GlobalCleanup]
    public void Cleanup()
    {
        _pair.Dispose();
        _incoming.Dispose();
        _outgoing.Dispose();
    }

    [Benchmark(OperationsPerInvoke = Bench.MessagesPerOperation)]
    public long Transfer()
    {
        _pair.SendBatch();
        var socket = _pair.Receiver;
        bool routed = Pattern == Pattern.RouterRouter;
        long bytes = 0;
        for (int i = 0; i != Bench.MessagesPerOperation; i++)
        {
            if (routed)
            {
                socket.Recv(_idBuffer.AsSpan(), RecvFlags.None);
            }

            bytes += ReceiveOne(socket, Strategy, Size, _incoming);
        }

        return bytes;
    }

    private static void SendOne(Socket socket, BufferStrategy strategy, int size, Message outgoing)
    {
        switch (strategy)
        {
            case BufferStrategy.ByteArray:
            {
                byte[] data = new byte[size];
                data[0] = 1;
                socket.Send(data, SendFlags.None);
                break;
            }

            case BufferStrategy.ArrayPool:
            {
                byte[] data = ArrayPool<byte>.Shared.Rent(size);
                data[0] = 1;
                socket.Send(data.AsSpan(0, size), SendFlags.None);
                ArrayPool<byte>.Shared.Return(data);
                break;
            }

            case BufferStrategy.Message:
            {
                using var message = new Message(size);
                message.Data[0] = 1;
                socket.Send(message, SendFlags.None);
                break;
            }

            case BufferStrategy.MessageZeroCopy:
            {
                nint memory = AllocateNative(size);
                using var message = new Message(memory, size, FreeNative);
                socket.Send(message, SendFlags.None);
                break;
            }

            case BufferStrategy.MessageReuse:
                outgoing.Rebuild(size);
                outgoing.Data[0] = 1;
                socket.Send(outgoing, SendFlags.None);
                break;

            case BufferStrategy.MessagePoolReuse:
                outgoing.Rebuild(MessagePool.Shared, size);
                outgoing.Data[0] = 1;
                socket.Send(outgoing, SendFlags.None);
                break;

            default:
            {
                using var message = MessagePool.Shared.Rent(size);
                message.Data[0] = 1;
                socket.Send(message, SendFlags.None);
                break;
            }
        }
    }

    private static int ReceiveOne(Socket socket, BufferStrategy strategy, int size, Message incoming)
    {
        int received;
        switch (strategy)
        {
            case BufferStrategy.ByteArray:
            {
                byte[] data = new byte[size];
                received = socket.Recv(data, RecvFlags.None);
                break;
            }

            case BufferStrategy.ArrayPool:
            {
                byte[] data = ArrayPool<byte>.Shared.Rent(size);
                received = socket.Recv(data.AsSpan(0, size), RecvFlags.None);
                ArrayPool<byte>.Shared.Return(data);
                break;
            }

            case BufferStrategy.Message:
            case BufferStrategy.MessageZeroCopy:
            case BufferStrategy.MessageReuse:
                received = socket.Recv(incoming, RecvFlags.None);
                break;

            default:
                received = socket.Recv(incoming, size, RecvFlags.None);
                break;
        }

        return received == size ? received : throw new InvalidOperationException($"received {received} B, expected {size} B");
    }

    private static unsafe nint AllocateNative(int size)
    {
        byte* memory = (byte*)NativeMemory.Alloc((nuint)size);
        memory[0] = 1;
        return (nint)memory;
    }

    private static unsafe void FreeNativeMemory(nint memory) => NativeMemory.Free((void*)memory);
}
