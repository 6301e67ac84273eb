using System.Buffers.Binary;
using System.Globalization;
using System.Text;

namespace Managed.Zmq.Scale;

/// <summary>
/// The server under test, on Managed.Zmq, in a process of its own so its RSS is its own:
/// <c>Managed.Zmq.Scale server --mode MODE [--curve-secret Z85] [--plain USER:PASS]</c>.
/// Mirrors <c>benchmarks/scale/scale_server.py</c> (the same on libzmq) mode for mode.
/// </summary>
/// <remarks>
/// Binds <c>tcp://127.0.0.1</c> on an ephemeral port and prints <c>ready PORT</c>. Control, one
/// line each on stdin, answered on a thread of its own so a stalled socket loop still answers:
/// <c>gc</c> (once the JIT is quiet, a forced, compacting, blocking collection and an aggressive one
/// that returns the freed heap to the OS; answers <c>ok gc</c>), <c>trim</c> (glibc's
/// <c>malloc_trim(0)</c>, answers <c>ok trim</c>), <c>stats</c>
/// (<c>stats key=value ...</c>), <c>quit</c>. EOF on stdin ends the process, so it never outlives
/// its driver.
/// </remarks>
internal static class ScaleServer
{
    private static readonly Dictionary<string, long> Stats = new(StringComparer.Ordinal);
    private static readonly object StatsLock = new();
    private static readonly object OutLock = new();

    public static int Run(string[] args)
    {
        string? mode = null, curveSecret = null, plain = null;
        for (int i = 0; i < args.Length - 1; i += 2)
        {
            switch (args[i])
            {
                case "--mode": mode = args[i + 1]; break;
                case "--curve-secret": curveSecret = args[i + 1]; break;
                case "--plain": plain = args[i + 1]; break;
                default: Console.Error.WriteLine($"unknown server option {args[i]}"); return 2;
            }
        }

        var type = mode switch
        {
            "echo" or "count3" => SocketType.Router,
            "pub" => SocketType.Pub,
            "xpub" => SocketType.XPub,
            "pull" => SocketType.Pull,
            _ => (SocketType?)null,
        };
        if (type is null)
        {
            Console.Error.WriteLine("server: --mode echo|pub|xpub|pull|count3 is required");
            return 2;
        }

        var context = new Context();
        ZapAuthenticator? auth = null;
        var socket = new Socket(context, type.Value);
        socket.SetOption(SocketOption.Linger, 0);
        if (curveSecret is not null)
        {
            socket.SetOption(SocketOption.Curve_Server, 1);
            socket.SetOption(SocketOption.Curve_Secretkey, curveSecret);
        }

        if (plain is not null)
        {
            int colon = plain.IndexOf(':', StringComparison.Ordinal);
            auth = new ZapAuthenticator(context);
            auth.ConfigurePlain("*", new Dictionary<string, string> { [plain[..colon]] = plain[(colon + 1)..] });
            socket.SetOption(SocketOption.Plain_Server, 1);
        }

        socket.Bind("tcp://127.0.0.1:0");
        string endpoint = socket.GetOptionString(SocketOption.Last_Endpoint);
        string port = endpoint[(endpoint.LastIndexOf(':') + 1)..];

        new Thread(Control) { IsBackground = true, Name = "scale control" }.Start();
        Say($"ready {port}");

        switch (mode)
        {
            case "echo": Echo(socket); break;
            case "pub": Tick(socket, drainSubscriptions: false); break;
            case "xpub": Tick(socket, drainSubscriptions: true); break;
            case "pull": Thread.Sleep(Timeout.Infinite); break;
            case "count3": CountThreeFrameMessages(socket); break;
        }

        // The modes above never return; the authenticator must live as long as they run.
        GC.KeepAlive(auth);
        return 0;
    }

    private static void Echo(Socket socket)
    {
        var id = new byte[256];
        var body = new byte[64 * 1024];
        while (true)
        {
            int idLength = socket.Recv(id);
            if (!socket.HasMore)
            {
                continue;
            }

            int bodyLength = socket.Recv(body);
            bool more = socket.HasMore;
            socket.Send(id.AsSpan(0, Math.Min(idLength, id.Length)), SendFlags.SendMore);
            socket.Send(body.AsSpan(0, Math.Min(bodyLength, body.Length)), more ? SendFlags.SendMore : SendFlags.None);
            while (more)
            {
                bodyLength = socket.Recv(body);
                more = socket.HasMore;
                socket.Send(body.AsSpan(0, Math.Min(bodyLength, body.Length)), more ? SendFlags.SendMore : SendFlags.None);
            }
        }
    }

    private static void Tick(Socket socket, bool drainSubscriptions)
    {
        var tick = new byte[12];
        "tick"u8.CopyTo(tick);
        var subscription = new byte[1024];
        for (long seq = 0; ; seq++)
        {
            BinaryPrimitives.WriteInt64LittleEndian(tick.AsSpan(4), seq);
            socket.Send(tick);
            Bump("ticks", 1);
            if (drainSubscriptions)
            {
                int drained = 0;
                while (drained < ScaleConstants.XpubDrainPerTick && socket.TryRecv(subscription, out _))
                {
                    drained++;
                }

                if (drained > 0)
                {
                    Bump("subscriptions", drained);
                }
            }

            Thread.Sleep(ScaleConstants.TickMilliseconds);
        }
    }

    private static void CountThreeFrameMessages(Socket socket)
    {
        var frame = new byte[256];
        var frames = new List<string>(8);
        while (true)
        {
            frames.Clear();
            socket.Recv(frame); // routing id
            while (socket.HasMore)
            {
                int n = socket.Recv(frame);
                frames.Add(Encoding.ASCII.GetString(frame, 0, Math.Min(n, frame.Length)));
            }

            bool intact = frames.Count == 3 && frames[0].StartsWith("f0-", StringComparison.Ordinal)
                && frames[1] == "f1-" + frames[0][3..] && frames[2] == "f2-" + frames[0][3..];
            // The outcome first: a reader that sees "received" reach N then sees all N outcomes.
            Bump(intact ? "intact" : "broken", 1);
            Bump("received", 1);
        }
    }

    private static void Control()
    {
        while (Console.In.ReadLine() is { } line)
        {
            switch (line.Trim())
            {
                case "gc":
                    // The tiered JIT keeps compiling for a moment after the load stops; its working
                    // memory is live until it finishes, so the collection waits for it to go quiet.
                    WaitForJitQuiet();
                    GC.Collect(2, GCCollectionMode.Forced, blocking: true, compacting: true);
                    GC.WaitForPendingFinalizers();

                    // Aggressive: also hands the freed heap back to the OS, which is what an RSS
                    // comparison after a forced collection is about.
                    GC.Collect(2, GCCollectionMode.Aggressive, blocking: true, compacting: true);
                    Console.Error.WriteLine("gc: " + Footprint());
                    Say("ok gc");
                    break;
                case "trim":
                    // Not part of "gc": glibc's malloc_trim, which no collection calls, so that the
                    // driver can show how much of the RSS is free native memory malloc keeps.
                    NativeHeap.Trim();
                    Console.Error.WriteLine("trim: " + Footprint());
                    Say("ok trim");
                    break;
                case "stats":
                    Say(StatsLine());
                    break;
                case "quit":
                    Environment.Exit(0);
                    break;
            }
        }

        Environment.Exit(0);
    }

    /// <summary><c>stats key=value ...</c>, keys in ordinal order.</summary>
    private static string StatsLine()
    {
        var line = new StringBuilder("stats");
        lock (StatsLock)
        {
            var keys = new List<string>(Stats.Keys);
            keys.Sort(StringComparer.Ordinal);
            foreach (string key in keys)
            {
                line.Append(CultureInfo.InvariantCulture, $" {key}={Stats[key]}");
            }
        }

        return line.ToString();
    }

    /// <summary>Waits until the JIT has compiled nothing new for a while, or the wait's bound passes.</summary>
    private static void WaitForJitQuiet()
    {
        var bound = System.Diagnostics.Stopwatch.StartNew();
        long compiled = System.Runtime.JitInfo.GetCompiledMethodCount();
        while (bound.Elapsed < ScaleConstants.JitQuietBound)
        {
            Thread.Sleep(ScaleConstants.JitQuietPeriod);
            long now = System.Runtime.JitInfo.GetCompiledMethodCount();
            if (now == compiled)
            {
                return;
            }

            compiled = now;
        }
    }

    /// <summary>
    /// What the process holds beyond its mapped code, for the progress lines: threads (from
    /// /proc, so that measuring does not load System.Diagnostics.Process), managed heap and what
    /// the GC keeps committed, methods the JIT compiled, and native memory in use and free in malloc.
    /// </summary>
    private static string Footprint()
    {
        var info = GC.GetGCMemoryInfo(GCKind.Any);
        var (inUse, free) = NativeHeap.Usage();
        int threads = Directory.GetDirectories("/proc/self/task").Length;
        return string.Create(CultureInfo.InvariantCulture,
            $"threads={threads} pool={ThreadPool.ThreadCount} heap={GC.GetTotalMemory(false)} committed={info.TotalCommittedBytes} jitted={System.Runtime.JitInfo.GetCompiledMethodCount()} malloc={inUse} malloc-free={free}");
    }

    private static void Bump(string key, long by)
    {
        lock (StatsLock)
        {
            Stats[key] = Stats.GetValueOrDefault(key) + by;
        }
    }

    private static void Say(string line)
    {
        lock (OutLock)
        {
            Console.Out.WriteLine(line);
            Console.Out.Flush();
        }
    }
}
