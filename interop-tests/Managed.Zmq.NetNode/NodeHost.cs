using System.Diagnostics;

namespace Managed.Zmq.NetNode;

/// <summary>
/// The node's line protocol (netnode.py speaks the same one for libzmq): one command per stdin line,
/// exactly one reply line per command, "ok ..." or "err ERRNO_NAME message".
/// <code>
/// socket S TYPE | opt S ID int|str VALUE | bind S EP | connect S EP | disconnect S EP | lastep S
/// monitor S | events S | wait S EVENT TIMEOUT_MS [ENDPOINT] | send S dontwait|block F... | recv S TIMEOUT_MS
/// pump S PREFIX FIRST COUNT dontwait|block [F...]   send numbered messages (after frames F), stop at EAGAIN
/// drain S IDLE_MS                                   receive until idle, report SequenceCheck counts (since the first drain of S)
/// close S | stat | quit
/// </code>
/// </summary>
public static class NodeHost
{
    public static int Run()
    {
        using var context = new Context();
        var sockets = new Dictionary<string, Socket>();
        var monitors = new Dictionary<string, MonitorLog>();
        var checks = new Dictionary<string, SequenceCheck>();
        Console.Out.Flush();
        string? line;
        while ((line = Console.In.ReadLine()) is not null)
        {
            string[] words = line.Split(' ', StringSplitOptions.RemoveEmptyEntries);
            if (words.Length == 0)
            {
                continue;
            }

            string reply;
            try
            {
                if (words[0] == "quit")
                {
                    Console.Out.WriteLine("ok");
                    Console.Out.Flush();
                    break;
                }

                reply = Execute(context, sockets, monitors, checks, words);
            }
            catch (ZmqException ex)
            {
                reply = $"err {ErrnoName(ex.ErrorNumber)} {ex.Message}";
            }
            catch (Exception ex)
            {
                reply = $"err EXCEPTION {ex.GetType().Name}: {ex.Message}".ReplaceLineEndings(" ");
            }

            Console.Out.WriteLine(reply);
            Console.Out.Flush();
        }

        foreach (var monitor in monitors.Values)
        {
            monitor.Dispose();
        }

        foreach (var socket in sockets.Values)
        {
            socket.SetOption(SocketOption.Linger, 0);
            socket.Dispose();
        }

        return 0;
    }

    private static string Execute(Context context, Dictionary<string, Socket> sockets, Dictionary<string, MonitorLog> monitors, Dictionary<string, SequenceCheck> checks, string[] w)
    {
        switch (w[0])
        {
            case "socket":
                sockets[w[1]] = new Socket(context, ParseType(w[2]));
                return "ok";
            case "opt":
                var s = sockets[w[1]];
                var option = (SocketOption)int.Parse(w[2]);
                if (w[3] == "int")
                {
                    s.SetOption(option, int.Parse(w[4]));
                }
                else
                {
                    s.SetOption(option, w.Length > 4 ? Frames.Decode(w[4]) : []);
                }

                return "ok";
            case "bind":
                sockets[w[1]].Bind(w[2]);
                return "ok";
            case "connect":
                sockets[w[1]].Connect(w[2]);
                return "ok";
            case "disconnect":
                sockets[w[1]].Disconnect(w[2]);
                return "ok";
            case "lastep":
                return "ok " + sockets[w[1]].GetOptionString(SocketOption.Last_Endpoint);
            case "monitor":
                monitors[w[1]] = new MonitorLog(context, sockets[w[1]], w[1]);
                return "ok";
            case "events":
                return ("ok " + monitors[w[1]].Drain()).TrimEnd();
            case "wait":
                var (found, taken) = monitors[w[1]].WaitFor(w[2], int.Parse(w[3]), w.Length > 4 ? w[4] : null);
                return ((found ? "ok " : "err EAGAIN ") + taken).TrimEnd();
            case "send":
                return Send(sockets[w[1]], w[2] == "dontwait", w.AsSpan(3)) ? "ok" : "err EAGAIN";
            case "recv":
                return Recv(sockets[w[1]], int.Parse(w[2]));
            case "pump":
                return Pump(sockets[w[1]], w[2], long.Parse(w[3]), long.Parse(w[4]), w[5] == "dontwait", w[6..]);
            case "drain":
                if (!checks.TryGetValue(w[1], out var check))
                {
                    checks[w[1]] = check = new SequenceCheck();
                }

                return Drain(sockets[w[1]], int.Parse(w[2]), check);
            case "close":
                if (monitors.Remove(w[1], out var m))
                {
                    m.Dispose();
                }

                sockets[w[1]].SetOption(SocketOption.Linger, 0);
                sockets[w[1]].Dispose();
                sockets.Remove(w[1]);
                return "ok";
            case "stat":
                using (var self = Process.GetCurrentProcess())
                {
                    return $"ok rss={self.WorkingSet64} threads={self.Threads.Count} handles={Directory.GetFiles("/proc/self/fd").Length} gcheap={GC.GetTotalMemory(false)}";
                }
            default:
                return $"err EINVAL unknown command {w[0]}";
        }
    }

    private static bool Send(Socket socket, bool dontWait, ReadOnlySpan<string> frames)
    {
        var flags = dontWait ? SendFlags.DontWait : SendFlags.None;
        for (int i = 0; i < frames.Length; i++)
        {
            bool more = i < frames.Length - 1;
            if (!socket.Send(Frames.Decode(frames[i]), more ? flags | SendFlags.SendMore : flags))
            {
                // Only the first frame can meet a full pipe: later ones of the same message are
                // always accepted (atomic delivery), so nothing half-sent stays behind.
                return false;
            }
        }

        return true;
    }

    private static string Recv(Socket socket, int timeoutMilliseconds)
    {
        socket.SetOption(SocketOption.Rcvtimeo, timeoutMilliseconds);
        var frames = new List<string>();
        try
        {
            do
            {
                frames.Add(Frames.Encode(socket.RecvBytes()));
            }
            while (socket.HasMore);
        }
        catch (ZmqException ex) when (ex.ErrorNumber == ZmqConstants.EAGAIN && frames.Count == 0)
        {
            return "err EAGAIN";
        }

        return "ok " + string.Join(' ', frames);
    }

    private static string Pump(Socket socket, string prefix, long first, long count, bool dontWait, string[] head)
    {
        long sent = 0;
        var frames = new string[head.Length + 1];
        head.CopyTo(frames, 0);
        for (long n = first; n < first + count; n++)
        {
            frames[^1] = $"{prefix}-{n}";
            try
            {
                if (!Send(socket, dontWait, frames))
                {
                    break;
                }
            }
            catch (ZmqException ex) when (ex.ErrorNumber == ZmqConstants.EAGAIN)
            {
                break; // Sndtimeo ran out on a blocking send
            }

            sent++;
        }

        return $"ok {sent}";
    }

    private static string Drain(Socket socket, int idleMilliseconds, SequenceCheck check)
    {
        socket.SetOption(SocketOption.Rcvtimeo, idleMilliseconds);
        while (true)
        {
            string last;
            try
            {
                do
                {
                    last = Frames.Encode(socket.RecvBytes());
                }
                while (socket.HasMore);
            }
            catch (ZmqException ex) when (ex.ErrorNumber == ZmqConstants.EAGAIN)
            {
                return "ok " + check.Summary();
            }

            check.Add(last);
        }
    }

    private static SocketType ParseType(string name) => name switch
    {
        "pair" => SocketType.Pair,
        "pub" => SocketType.Pub,
        "sub" => SocketType.Sub,
        "req" => SocketType.Req,
        "rep" => SocketType.Rep,
        "dealer" => SocketType.Dealer,
        "router" => SocketType.Router,
        "pull" => SocketType.Pull,
        "push" => SocketType.Push,
        "xpub" => SocketType.XPub,
        "xsub" => SocketType.XSub,
        _ => throw new ArgumentException($"unknown socket type {name}"),
    };

    private static string ErrnoName(int errno) =>
        errno == ZmqConstants.EAGAIN ? "EAGAIN" :
        errno == ZmqConstants.EINVAL ? "EINVAL" :
        errno == ZmqConstants.EFSM ? "EFSM" :
        errno == ZmqConstants.EHOSTUNREACH ? "EHOSTUNREACH" :
        $"E{errno}";
}
