#:project ../../src/Managed.Zmq/Managed.Zmq.csproj
#:property TieredPGO=true

// One thread, no socket: what a 64 B message costs the sending thread before and after Send, one
// piece at a time (BENCHMARKS.md, "Eighth figures"). StrategyLoop measures the same strategies
// through a tcp PUSH->PULL pair; this loop isolates their allocation and pool work, for perf.
//
//   dotnet build -c Release benchmarks/pool-loop/PoolLoop.cs   (then run the built PoolLoop.dll)
//   dotnet PoolLoop.dll SIZE COUNT ROUNDS [CASE,CASE,...]
//
// Cases:
//   bytes        new byte[SIZE], first byte written         (ByteArray's allocation)
//   empty        new Message(), Dispose                     (the Message object and its guard)
//   rent         MessagePool.Shared.Rent(SIZE), first byte written, Dispose
//   rebuild-pool one Message, Rebuild(MessagePool.Shared, SIZE), first byte written, Rebuild()
//   rebuild-own  one Message, Rebuild(SIZE), first byte written (its own buffer, kept)
//
// Prints ns per operation for each round, then the median per case. Round 0 is a warm-up.
using System.Diagnostics;
using System.Runtime.CompilerServices;
using Managed.Zmq;

int size = int.Parse(args[0]);
int count = int.Parse(args[1]);
int rounds = int.Parse(args[2]);
string[] cases = args.Length > 3 ? args[3].Split(',') : ["bytes", "empty", "rent", "rebuild-pool", "rebuild-own"];
var results = cases.ToDictionary(c => c, _ => new List<double>());

for (int round = 0; round <= rounds; round++)
{
    foreach (string name in cases)
    {
        var clock = Stopwatch.StartNew();
        Run(name, size, count);
        double perOp = clock.Elapsed.TotalNanoseconds / count;
        if (round > 0)
        {
            results[name].Add(perOp);
        }

        Console.WriteLine($"round {round} {name,-12} {perOp,8:F1} ns/op  gen0 {GC.CollectionCount(0)}");
    }
}

foreach ((string name, List<double> times) in results)
{
    times.Sort();
    Console.WriteLine($"{name,-12} median {times[times.Count / 2],8:F1} ns/op  min {times[0]:F1}  max {times[^1]:F1}");
}

static void Run(string name, int size, int count)
{
    switch (name)
    {
        case "bytes":
            Bytes(size, count);
            break;
        case "empty":
            Empty(count);
            break;
        case "rent":
            Rent(size, count);
            break;
        case "rebuild-pool":
            RebuildPool(size, count);
            break;
        case "rebuild-own":
            RebuildOwn(size, count);
            break;
        default:
            throw new ArgumentException($"unknown case {name}");
    }
}

// One method per case, each kept out of line, so that perf attributes each loop to its own symbol.
[MethodImpl(MethodImplOptions.NoInlining)]
static void Bytes(int size, int count)
{
    for (int i = 0; i < count; i++)
    {
        var data = new byte[size];
        data[0] = 1;
        GC.KeepAlive(data);
    }
}

[MethodImpl(MethodImplOptions.NoInlining)]
static void Empty(int count)
{
    for (int i = 0; i < count; i++)
    {
        new Message().Dispose();
    }
}

[MethodImpl(MethodImplOptions.NoInlining)]
static void Rent(int size, int count)
{
    for (int i = 0; i < count; i++)
    {
        using var message = MessagePool.Shared.Rent(size);
        message.Data[0] = 1;
    }
}

[MethodImpl(MethodImplOptions.NoInlining)]
static void RebuildPool(int size, int count)
{
    using var message = new Message();
    for (int i = 0; i < count; i++)
    {
        message.Rebuild(MessagePool.Shared, size);
        message.Data[0] = 1;
        message.Rebuild();
    }
}

[MethodImpl(MethodImplOptions.NoInlining)]
static void RebuildOwn(int size, int count)
{
    using var message = new Message();
    for (int i = 0; i < count; i++)
    {
        message.Rebuild(size);
        message.Data[0] = 1;
    }
}
