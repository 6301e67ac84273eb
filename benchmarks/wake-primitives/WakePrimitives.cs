// Two threads hand a turn back and forth, each parking until the other wakes it: the cost of one
// thread hand-off with the wait a blocking Recv uses (Sockets/WakeSequence.cs: Monitor.Wait and
// PulseAll under one lock) against a wait in the kernel (a blocking receive on a Unix datagram
// socket, woken by a one-byte datagram, as libzmq's mailbox is woken through its signaler's fd).
// BURNERS threads that only compute stand for the other busy threads of a 2-core benchmark run.
//
//   dotnet build -c Release benchmarks/wake-primitives/WakePrimitives.cs -o DIR
//   perf stat -e context-switches dotnet DIR/WakePrimitives.dll monitor|datagram COUNT [BURNERS]
//
// Prints wall time and process CPU time per round trip (two hand-offs); with BURNERS the CPU
// includes theirs. The datagram wait needs Linux (an abstract socket address).
using System.Diagnostics;
using System.Net;
using System.Net.Sockets;

string mode = args[0];
int count = int.Parse(args[1]);
int burners = args.Length > 2 ? int.Parse(args[2]) : 0;

for (int i = 0; i < burners; i++)
{
    new Thread(Burn) { IsBackground = true }.Start();
}

IHandOff ping = Create(mode), pong = Create(mode);
var partner = new Thread(() =>
{
    for (int i = 0; i < count; i++)
    {
        ping.Wait();
        pong.Wake();
    }
});
partner.Start();

var clock = Stopwatch.StartNew();
var cpuBefore = Process.GetCurrentProcess().TotalProcessorTime;
for (int i = 0; i < count; i++)
{
    ping.Wake();
    pong.Wait();
}

partner.Join();
double wall = clock.Elapsed.TotalNanoseconds / count / 1000;
double cpu = (Process.GetCurrentProcess().TotalProcessorTime - cpuBefore).TotalNanoseconds / count / 1000;
Console.WriteLine($"{mode} burners {burners}: {wall:F2} us per round trip, cpu {cpu:F2} us");

static IHandOff Create(string mode) => mode switch
{
    "monitor" => new MonitorHandOff(),
    "datagram" => new DatagramHandOff(),
    _ => throw new ArgumentException($"unknown mode {mode}: monitor or datagram"),
};

static void Burn()
{
    long spins = 0;
    while (true)
    {
        // A yield now and then, so the burner behaves like a busy thread, not a livelock.
        if ((++spins & 1023) == 0)
        {
            Thread.Sleep(0);
        }
    }
}

/// <summary>One direction of the hand-off: Wake lets the next Wait through.</summary>
interface IHandOff
{
    void Wait();

    void Wake();
}

/// <summary>As WakeSequence parks a blocking Recv: a sequence under a monitor, Wait until it moves.</summary>
sealed class MonitorHandOff : IHandOff
{
    private readonly object _lock = new();
    private int _sequence;
    private int _seen;

    public void Wait()
    {
        lock (_lock)
        {
            while (_sequence == _seen)
            {
                Monitor.Wait(_lock);
            }

            _seen = _sequence;
        }
    }

    public void Wake()
    {
        lock (_lock)
        {
            _sequence++;
            Monitor.PulseAll(_lock);
        }
    }
}

/// <summary>A wait in the kernel: a blocking receive on a bound datagram socket; a wake is one datagram to it.</summary>
sealed class DatagramHandOff : IHandOff
{
    private static readonly Socket s_sender = new(AddressFamily.Unix, SocketType.Dgram, ProtocolType.Unspecified);
    private static readonly byte[] s_token = new byte[1];
    private static int s_names;

    private readonly Socket _parked = new(AddressFamily.Unix, SocketType.Dgram, ProtocolType.Unspecified);
    private readonly SocketAddress _address;
    private readonly byte[] _received = new byte[16];

    public DatagramHandOff()
    {
        var endpoint = new UnixDomainSocketEndPoint($"\0wake-primitives-{Environment.ProcessId}-{Interlocked.Increment(ref s_names)}");
        _parked.Bind(endpoint);
        _address = endpoint.Serialize();
    }

    public void Wait() => _parked.Receive(_received);

    public void Wake() => s_sender.SendTo(s_token, SocketFlags.None, _address);
}
