#:project ../../src/Managed.Zmq/Managed.Zmq.csproj

// A REQ/REP pair over tcp in one process whose REP answers each request after PAUSE ms: what a slow server costs the
// process per round trip, against slow_peer.c doing the same with libzmq (run.sh runs both; BENCHMARKS.md, fourteenth
// figures).
//
//   dotnet run -c Release benchmarks/slow-peer/SlowPeer.cs -- ROUNDS PAUSE_MS
//
// ROUNDS round trips warm up, then ROUNDS more are measured: the process's CPU time (user and system) and the context
// switches of all its threads, per round trip. The REP's pause is a sleep, as a server's work would be.
using System.Diagnostics;
using Managed.Zmq;

int rounds = int.Parse(args[0]);
int pauseMs = int.Parse(args[1]);
using var context = new Context();
using var rep = new Socket(context, SocketType.Rep);
using var req = new Socket(context, SocketType.Req);
rep.Bind("tcp://127.0.0.1:*");
req.Connect(rep.GetOptionString(SocketOption.Last_Endpoint));

// One round trip more than the client makes in the two phases: the server thread is still there when the second
// count of switches is taken.
var server = new Thread(() =>
{
    for (int i = 0; i < (2 * rounds) + 1; i++)
    {
        string request = rep.RecvString();
        if (pauseMs > 0)
        {
            Thread.Sleep(pauseMs);
        }

        rep.Send(request);
    }
});
server.Start();
RoundTrips(req, rounds);
long switchesBefore = Switches();
var cpuBefore = Process.GetCurrentProcess().TotalProcessorTime;
RoundTrips(req, rounds);
var cpuAfter = Process.GetCurrentProcess().TotalProcessorTime;
long switchesAfter = Switches();
RoundTrips(req, 1);
server.Join();
Console.WriteLine(
    $"managed  pause {pauseMs,4} ms: CPU {(cpuAfter - cpuBefore).TotalMicroseconds / rounds,8:F1} us per round trip, " +
    $"{(switchesAfter - switchesBefore) / (double)rounds,5:F2} context switches per round trip");

static void RoundTrips(Socket req, int count)
{
    for (int i = 0; i < count; i++)
    {
        req.Send("q");
        req.RecvString();
    }
}

// Voluntary and involuntary context switches of every thread of the process, from /proc.
static long Switches()
{
    long sum = 0;
    foreach (string task in Directory.GetDirectories("/proc/self/task"))
    {
        try
        {
            foreach (string line in File.ReadAllLines(Path.Combine(task, "status")))
            {
                if (line.Contains("ctxt_switches", StringComparison.Ordinal))
                {
                    sum += long.Parse(line.AsSpan(line.IndexOf(':') + 1).Trim());
                }
            }
        }
        catch (IOException)
        {
            // A thread of the runtime's that ended while the list was read.
        }
    }

    return sum;
}
