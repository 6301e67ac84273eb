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
/// <c>gc</c> (a forced, compacting, blocking collection; answers <c>ok gc</c>), <c>stats</c>
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
                    GC.Collect(2, GCCollectionMode.Forced, blocking: true, compacting: true);
                    GC.WaitForPendingFinalizers();

                    // Aggressive: also hands the freed heap back to the OS, which is what an RSS
                    // comparison after a forced collection is about.
                    GC.Collect(2, GCCollectionMode.Aggressive, blocking: true, compacting: true);
                    Console.Error.WriteLine("gc: threads=" + System.Diagnostics.Process.GetCurrentProcess().Threads.Count.ToString(CultureInfo.InvariantCulture)
                        + " heap=" + GC.GetTotalMemory(false).ToString(CultureInfo.InvariantCulture)
                        + " committed=" + GC.GetGCMemoryInfo().TotalCommittedBytes.ToString(CultureInfo.InvariantCulture));
                    Say("ok gc");
                    break;
                case "stats":
                    string items;
                    lock (StatsLock)
                    {
                        items = string.Join(' ', Stats.OrderBy(kv => kv.Key, StringComparer.Ordinal)
                            .Select(kv => string.Create(CultureInfo.InvariantCulture, $"{kv.Key}={kv.Value}")));
                    }

                    Say("stats " + items);
                    break;
                case "quit":
                    Environment.Exit(0);
                    break;
            }
        }

        Environment.Exit(0);
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
