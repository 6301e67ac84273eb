// What one wake-up after a quiet spell costs a .NET thread that does nothing else, beside what the library's threads
// pay per wake-up when a peer is slow (BENCHMARKS.md, seventeenth figures). cold_wake.c does the same in C.
//
//   dotnet build -c Release benchmarks/cold-wake/ColdWake.cs -o DIR
//   DOTNET_TieredCompilation=0 dotnet DIR/ColdWake.dll select|poll|sleep COUNT PAUSE_MS
//
// The thread waits COUNT times for PAUSE_MS: in Socket.Select on one quiet loopback tcp socket (as the I/O thread and
// the read turn wait), in Socket.Poll on it, or in Thread.Sleep. Prints the thread's own CPU time (user and system,
// from /proc/thread-self/schedstat, the counter CLOCK_THREAD_CPUTIME_ID reads) per wake-up, after as many untimed ones.
using System.Net;
using System.Net.Sockets;

string mode = args[0];
int count = int.Parse(args[1]);
int pauseMs = int.Parse(args[2]);
if (mode is not ("select" or "poll" or "sleep") || count < 1 || pauseMs < 0)
{
    Console.Error.WriteLine("usage: ColdWake select|poll|sleep COUNT PAUSE_MS");
    return 1;
}

using var listener = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp);
listener.Bind(new IPEndPoint(IPAddress.Loopback, 0));
listener.Listen();
using var client = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp);
client.Connect(listener.LocalEndPoint!);
using var quiet = listener.Accept();
quiet.Blocking = false;
var watched = new List<Socket>(1);
double perWake = 0;
var waiter = new Thread(() =>
{
    // The clock's own first call (file reads, parsing, their compilation) stays out of the timed phase.
    ThreadCpuNanoseconds();
    WaitMany(count);
    long before = ThreadCpuNanoseconds();
    WaitMany(count);
    perWake = (ThreadCpuNanoseconds() - before) / 1000.0 / count;
});
waiter.Start();
waiter.Join();
Console.WriteLine($".NET {mode,-6} pause {pauseMs,4} ms: {perWake,7:F1} us of the thread's CPU per wake-up");
return 0;

void WaitMany(int times)
{
    for (int i = 0; i < times; i++)
    {
        switch (mode)
        {
            case "select":
                watched.Clear();
                watched.Add(quiet);
                Socket.Select(watched, null, null, pauseMs * 1000);
                break;
            case "poll":
                quiet.Poll(pauseMs * 1000, SelectMode.SelectRead);
                break;
            default:
                Thread.Sleep(pauseMs);
                break;
        }
    }
}

static long ThreadCpuNanoseconds() => long.Parse(File.ReadAllText("/proc/thread-self/schedstat").Split(' ')[0]);
