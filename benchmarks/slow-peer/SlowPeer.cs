#:project ../../src/Managed.Zmq/Managed.Zmq.csproj

// A REQ/REP pair over tcp whose REP answers each request after PAUSE ms: what a slow server costs each process per
// round trip, against slow_peer.c doing the same with libzmq (run.sh runs both; BENCHMARKS.md, fourteenth and fifteenth
// figures).
//
//   dotnet run -c Release benchmarks/slow-peer/SlowPeer.cs -- ROUNDS PAUSE_MS                  both sockets here
//   dotnet run -c Release benchmarks/slow-peer/SlowPeer.cs -- ROUNDS PAUSE_MS server ENDPOINT  the REP alone: binds
//                                                  ENDPOINT, prints the endpoint it bound, serves
//   dotnet run -c Release benchmarks/slow-peer/SlowPeer.cs -- ROUNDS PAUSE_MS client ENDPOINT  the REQ alone
//
// ROUNDS round trips warm up, then ROUNDS more are measured: the process's CPU time (user and system) and the context
// switches of all its threads, per round trip. The REP's pause is a sleep, as a server's work would be. A server on its
// own measures as many round trips: from the first request of the client's measured phase to the first request after
// that phase (the client's extra round trip).
using System.Diagnostics;
using Managed.Zmq;

string? role = args.Length == 4 ? args[2] : null;
if (args.Length is not (2 or 4) || role is not (null or "server" or "client")
    || !int.TryParse(args[0], out int rounds) || rounds < 1 || !int.TryParse(args[1], out int pauseMs) || pauseMs < 0)
{
    Console.Error.WriteLine("usage: SlowPeer ROUNDS PAUSE_MS [server|client ENDPOINT]");
    return 1;
}

using var context = new Context();
if (role == "server")
{
    using var alone = new Socket(context, SocketType.Rep);
    alone.Bind(args[3]);
    Console.WriteLine(alone.GetOptionString(SocketOption.Last_Endpoint));
    Serve(alone, rounds, pauseMs, measure: true);
    return 0;
}

using var req = new Socket(context, SocketType.Req);
Thread? server = null;
Socket? rep = null;
if (role == "client")
{
    req.Connect(args[3]);
}
else
{
    rep = new Socket(context, SocketType.Rep);
    rep.Bind("tcp://127.0.0.1:*");
    req.Connect(rep.GetOptionString(SocketOption.Last_Endpoint));
    server = new Thread(() => Serve(rep, rounds, pauseMs, measure: false));
    server.Start();
}

RoundTrips(req, rounds);
long switchesBefore = Switches();
var cpuBefore = Process.GetCurrentProcess().TotalProcessorTime;
RoundTrips(req, rounds);
var cpuAfter = Process.GetCurrentProcess().TotalProcessorTime;
long switchesAfter = Switches();
RoundTrips(req, 1);
server?.Join();
rep?.Dispose();
Report(role ?? "pause", pauseMs, cpuAfter - cpuBefore, switchesAfter - switchesBefore, rounds);
return 0;

// One round trip more than the client makes in the two phases: the server is still there when the second count of
// switches is taken.
static void Serve(Socket rep, int rounds, int pauseMs, bool measure)
{
    long switchesBefore = 0;
    TimeSpan cpuBefore = default;
    for (int i = 0; i < (2 * rounds) + 1; i++)
    {
        string request = rep.RecvString();
        if (measure && i == rounds)
        {
            switchesBefore = Switches();
            cpuBefore = Process.GetCurrentProcess().TotalProcessorTime;
        }
        else if (measure && i == 2 * rounds)
        {
            var cpuAfter = Process.GetCurrentProcess().TotalProcessorTime;
            long switchesAfter = Switches();
            Report("server", pauseMs, cpuAfter - cpuBefore, switchesAfter - switchesBefore, rounds);
        }

        if (pauseMs > 0)
        {
            Thread.Sleep(pauseMs);
        }

        rep.Send(request);
    }
}

static void Report(string role, int pauseMs, TimeSpan cpu, long switches, int rounds) =>
    Console.WriteLine(
        $"managed  {role} {pauseMs,4} ms: CPU {cpu.TotalMicroseconds / rounds,8:F1} us per round trip, " +
        $"{switches / (double)rounds,5:F2} context switches per round trip");

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
