#:project ../../src/Managed.Zmq/Managed.Zmq.csproj
#:property AllowUnsafeBlocks=true
#:property TieredPGO=true

// A tcp PUSH->PULL loop in one process that adds one piece of a buffer strategy at a time, to see where
// a strategy's cost goes (BENCHMARKS.md, "Where the 64 B gap goes"). BenchmarkDotNet's
// BufferStrategyBenchmarks is the comparison; this loop is its microscope.
//
//   dotnet run -c Release benchmarks/strategy-loop/StrategyLoop.cs -- SIZE COUNT ROUNDS [CASE,CASE,...]
//
// Cases (sender / receiver):
//   span        one reused array, span send         / span receive into one array
//   span-arr    + new byte[SIZE] per message, unsent / span
//   span-obj    + new object[8] per message, unsent  / span
//   span-empty  + new Message().Dispose()            / span
//   span-rent   + MessagePool.Shared.Rent(SIZE).Dispose() / span
//   pool-span   Rent, send its span, Dispose         / span
//   pool        Rent, Send(message), Dispose          / Recv(msg, SIZE) into one rented Message
//   bytes-pool  new byte[SIZE], Send(byte[])          / Recv(msg, SIZE) into one rented Message
//   bytes       new byte[SIZE], Send(byte[])          / new byte[SIZE], Recv(byte[])
//   msg         new Message(SIZE), Send, Dispose      / Recv into one Message
//   zc          NativeMemory.Alloc + new Message(ptr, SIZE, free), Send, Dispose / Recv into one Message
//   msg-malloc  msg, plus the NativeMemory.Alloc and Free that zc's caller pays (the memory unused) / as msg:
//               the control that tells zc's library path from the cost of the caller's own allocation
//   zc-warm     zc over the caller's own warm buffers: taken from a queue (allocated when empty), and the free
//               callback queues them again, so the caller pays neither malloc nor fresh pages / as msg
//   msg-reuse   one Message, Rebuild(SIZE), Send                / Recv into one Message
//   pool-reuse  one Message, Rebuild(MessagePool.Shared, SIZE), Send / Recv(msg, SIZE) into one rented Message
//
// Every case gets a fresh context and connection per round; round 0 is a warm-up and is not counted.
// Prints wall and process CPU time per message for each round, then the median, min and max per case.
using System.Diagnostics;
using System.Runtime.InteropServices;
using Managed.Zmq;

int size = int.Parse(args[0]);
int count = int.Parse(args[1]);
int rounds = int.Parse(args[2]);
string[] cases = args.Length > 3 ? args[3].Split(',') : ["span", "bytes", "pool", "msg", "zc"];
var results = cases.ToDictionary(c => c, _ => new List<double>());
Action<nint> free = static p => FreeNative(p);
byte[] sendBuffer = new byte[size];
byte[] receiveBuffer = new byte[size];

for (int round = 0; round <= rounds; round++)
{
    foreach (string name in cases)
    {
        using var context = new Context();
        using var pull = new Socket(context, SocketType.Pull);
        using var push = new Socket(context, SocketType.Push);
        pull.SetOption(SocketOption.Linger, 0);
        push.SetOption(SocketOption.Linger, 0);
        pull.SetOption(SocketOption.Rcvtimeo, 30_000);
        push.SetOption(SocketOption.Sndtimeo, 30_000);
        pull.Bind("tcp://127.0.0.1:*");
        push.Connect(pull.GetOptionString(SocketOption.Last_Endpoint));
        push.Send("x"u8, SendFlags.None);
        pull.Recv(receiveBuffer, RecvFlags.None);

        using var outgoing = new Message();
        var sender = new Thread(() =>
        {
            for (int i = 0; i < count; i++)
            {
                SendOne(push, name, size, sendBuffer, free, outgoing);
            }
        })
        { Name = "sender" };

        using Message incoming = name is "pool" or "bytes-pool" or "pool-reuse" ? MessagePool.Shared.Rent(size) : new Message();
        var clock = Stopwatch.StartNew();
        var cpuBefore = Process.GetCurrentProcess().TotalProcessorTime;
        sender.Start();
        for (int i = 0; i < count; i++)
        {
            ReceiveOne(pull, name, size, receiveBuffer, incoming);
        }

        sender.Join();
        double wall = clock.Elapsed.TotalNanoseconds / count;
        double cpu = (Process.GetCurrentProcess().TotalProcessorTime - cpuBefore).TotalNanoseconds / count;
        if (round > 0)
        {
            results[name].Add(wall);
        }

        Console.WriteLine($"round {round} {name,-10} {wall,10:F1} ns/msg  cpu {cpu,10:F1} ns/msg  gen0 {GC.CollectionCount(0)}");
    }
}

foreach ((string name, List<double> times) in results)
{
    times.Sort();
    Console.WriteLine($"{name,-10} median {times[times.Count / 2],10:F1} ns/msg  min {times[0]:F1}  max {times[^1]:F1}");
}

static void SendOne(Socket push, string name, int size, byte[] reused, Action<nint> free, Message outgoing)
{
    switch (name)
    {
        case "span":
            reused[0] = 1;
            push.Send(reused, SendFlags.None);
            break;
        case "span-arr":
            GC.KeepAlive(new byte[size]);
            push.Send(reused, SendFlags.None);
            break;
        case "span-obj":
            GC.KeepAlive(new object[8]);
            push.Send(reused, SendFlags.None);
            break;
        case "span-empty":
            new Message().Dispose();
            push.Send(reused, SendFlags.None);
            break;
        case "span-rent":
            MessagePool.Shared.Rent(size).Dispose();
            push.Send(reused, SendFlags.None);
            break;
        case "pool-span":
        {
            using var message = MessagePool.Shared.Rent(size);
            message.Data[0] = 1;
            push.Send(message.Data, SendFlags.None);
            break;
        }

        case "pool":
        {
            using var message = MessagePool.Shared.Rent(size);
            message.Data[0] = 1;
            push.Send(message, SendFlags.None);
            break;
        }

        case "bytes":
        case "bytes-pool":
        {
            var data = new byte[size];
            data[0] = 1;
            push.Send(data, SendFlags.None);
            break;
        }

        case "msg":
        {
            using var message = new Message(size);
            message.Data[0] = 1;
            push.Send(message, SendFlags.None);
            break;
        }

        case "zc":
        {
            using var message = new Message(AllocateNative(size), size, free);
            push.Send(message, SendFlags.None);
            break;
        }

        case "zc-warm":
        {
            if (!WarmBuffers.Idle.TryDequeue(out nint memory))
            {
                memory = AllocateNative(size);
            }

            using var message = new Message(memory, size, WarmBuffers.Requeue);
            push.Send(message, SendFlags.None);
            break;
        }

        case "msg-malloc":
        {
            FreeNative(AllocateNative(size));
            using var message = new Message(size);
            message.Data[0] = 1;
            push.Send(message, SendFlags.None);
            break;
        }

        case "msg-reuse":
            outgoing.Rebuild(size);
            outgoing.Data[0] = 1;
            push.Send(outgoing, SendFlags.None);
            break;

        case "pool-reuse":
            outgoing.Rebuild(MessagePool.Shared, size);
            outgoing.Data[0] = 1;
            push.Send(outgoing, SendFlags.None);
            break;

        default:
            throw new ArgumentException($"unknown case {name}");
    }
}

static void ReceiveOne(Socket pull, string name, int size, byte[] reused, Message incoming)
{
    int received = name switch
    {
        "pool" or "bytes-pool" or "pool-reuse" => pull.Recv(incoming, size, RecvFlags.None),
        "msg" or "zc" or "zc-warm" or "msg-reuse" or "msg-malloc" => pull.Recv(incoming, RecvFlags.None),
        "bytes" => pull.Recv(new byte[size], RecvFlags.None),
        _ => pull.Recv(reused, RecvFlags.None),
    };
    if (received != size)
    {
        throw new InvalidOperationException($"received {received} B, expected {size} B");
    }
}

static unsafe nint AllocateNative(int size)
{
    byte* memory = (byte*)NativeMemory.Alloc((nuint)size);
    memory[0] = 1;
    return (nint)memory;
}

static unsafe void FreeNative(nint memory) => NativeMemory.Free((void*)memory);

/// <summary>The zc-warm case's buffers: a caller that keeps its zero-copy memory for reuse.</summary>
static class WarmBuffers
{
    public static readonly System.Collections.Concurrent.ConcurrentQueue<nint> Idle = new();

    public static readonly Action<nint> Requeue = static memory => Idle.Enqueue(memory);
}
