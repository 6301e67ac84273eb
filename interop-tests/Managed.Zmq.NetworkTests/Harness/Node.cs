using Managed.Zmq.Buffers;
using Managed.Zmq.Options;
using Managed.Zmq.Security.Zap;

namespace Managed.Zmq.NetworkTests.Harness;

/// <summary>Which ZeroMQ a node runs: ours (Managed.Zmq.NetNode) or libzmq 4.3 (netnode.py, pyzmq).</summary>
public enum NodeKind
{
    Ours,
    LibZmq,
}

/// <summary>
/// A ZeroMQ node in a host's namespace, driven by the line protocol of NodeHost.cs (netnode.py
/// speaks the same). Socket options are set by libzmq number, so one test drives either kind.
/// </summary>
internal sealed class Node : LineProcess
{
    private Node(Host host, NodeKind kind, string program, IEnumerable<string> args)
        : base($"{kind} node at {host.Address}", host.Namespace, program, args)
    {
        Host = host;
        Kind = kind;
    }

    public Host Host { get; }
    public NodeKind Kind { get; }

    public static Node Start(Host host, NodeKind kind)
    {
        string dir = AppContext.BaseDirectory;
        return kind == NodeKind.Ours
            ? new Node(host, kind, "dotnet", [Path.Combine(dir, "Managed.Zmq.NetNode.dll")])
            : new Node(host, kind, "/usr/bin/python3", [Path.Combine(dir, "Harness", "netnode.py")]);
    }

    public void Socket(string name, string type) => Ok($"socket {name} {type}");

    public void Option(string socket, ZmqOption option, int value) => Ok($"opt {socket} {(int)option} int {value}");

    /// <summary>A byte-string option, sent hex-encoded so that any value survives the line protocol.</summary>
    public void Option(string socket, ZmqOption option, string value) =>
        Ok($"opt {socket} {(int)option} str {(value.Length == 0 ? "~" : "0x" + Convert.ToHexString(System.Text.Encoding.ASCII.GetBytes(value)))}");

    public void Bind(string socket, string endpoint) => Ok($"bind {socket} {endpoint}");

    public void Connect(string socket, string endpoint) => Ok($"connect {socket} {endpoint}");

    public void Monitor(string socket) => Ok($"monitor {socket}");

    /// <summary>Sends one message (frames as tokens); false on EAGAIN.</summary>
    public bool Send(string socket, bool dontWait, params string[] frames)
    {
        string reply = Call($"send {socket} {(dontWait ? "dontwait" : "block")} {string.Join(' ', frames)}");
        if (reply.StartsWith("err EAGAIN", StringComparison.Ordinal))
        {
            return false;
        }

        Assert.True(reply == "ok", $"{Name}: send answered `{reply}`");
        return true;
    }

    /// <summary>One message's frames, or null if none arrived within the timeout.</summary>
    public string[]? Recv(string socket, int timeoutMilliseconds)
    {
        string reply = Call($"recv {socket} {timeoutMilliseconds}", timeoutMilliseconds);
        if (reply.StartsWith("err EAGAIN", StringComparison.Ordinal))
        {
            return null;
        }

        Assert.StartsWith("ok ", reply);
        return reply[3..].Split(' ');
    }

    /// <summary>One message's frames; fails if none arrived within the timeout (saying what its monitor saw, if it has one).</summary>
    public string[] Receive(string socket, int timeoutMilliseconds = 10_000) =>
        Recv(socket, timeoutMilliseconds) ?? throw new Xunit.Sdk.XunitException(
            $"{Name}: nothing received on {socket} within {timeoutMilliseconds} ms; monitor events not yet waited for: {Call($"events {socket}")}");

    /// <summary>Sends PREFIX-FIRST.. until COUNT are sent or the socket would block; returns how many went.</summary>
    public long Pump(string socket, string prefix, long first, long count, bool dontWait, params string[] head) =>
        long.Parse(Ok($"pump {socket} {prefix} {first} {count} {(dontWait ? "dontwait" : "block")} {string.Join(' ', head)}".TrimEnd(), 60_000));

    /// <summary>
    /// Receives until nothing arrives for <paramref name="idleMilliseconds"/>; the counts of numbered
    /// messages received by all drains of this socket so far.
    /// </summary>
    public Sequence Drain(string socket, int idleMilliseconds) =>
        Sequence.Parse(Ok($"drain {socket} {idleMilliseconds}", 120_000));

    /// <summary>
    /// Waits for the monitor event <paramref name="name"/> (of <paramref name="endpoint"/>, if given); returns it. Events before it are
    /// consumed and added to <paramref name="log"/> too. Fails at the deadline.
    /// </summary>
    public MonitorEvent WaitFor(string socket, string name, List<MonitorEvent>? log = null, int timeoutMilliseconds = 10_000, string? endpoint = null)
    {
        string reply = Call($"wait {socket} {name} {timeoutMilliseconds} {endpoint}".TrimEnd(), timeoutMilliseconds);
        var taken = reply.Split(' ', StringSplitOptions.RemoveEmptyEntries).Skip(reply.StartsWith("ok", StringComparison.Ordinal) ? 1 : 2).Select(MonitorEvent.Parse).ToList();
        log?.AddRange(taken);
        Assert.True(reply.StartsWith("ok", StringComparison.Ordinal), $"{Name}: no `{name}` on {socket} within {timeoutMilliseconds} ms; saw: {string.Join(' ', taken)}");
        return taken[^1];
    }

    /// <summary>Monitor events read since the last call.</summary>
    public List<MonitorEvent> Events(string socket) =>
        [.. Ok($"events {socket}").Split(' ', StringSplitOptions.RemoveEmptyEntries).Select(MonitorEvent.Parse)];
}

/// <summary>
/// Counts reported by a node's drain: received, distinct, repeated, below the highest number seen, highest number,
/// and the fewest increasing runs the arrival order splits into (1 when in order; see NetNode's SequenceCheck).
/// </summary>
internal readonly record struct Sequence(long Count, long Unique, long Duplicates, long Reordered, long Highest, long Runs)
{
    public static Sequence Parse(string text)
    {
        var f = text.Split(' ').Select(p => p.Split('=')).ToDictionary(p => p[0], p => long.Parse(p[1]));
        return new Sequence(f["count"], f["unique"], f["dups"], f["reordered"], f["max"], f["runs"]);
    }
}

/// <summary>A monitor event name, the wall-clock time (Unix ms) the node read it, and its endpoint.</summary>
internal readonly record struct MonitorEvent(string Name, long UnixMilliseconds, string Endpoint)
{
    public static MonitorEvent Parse(string token)
    {
        string[] parts = token.Split('@', 3);
        return new MonitorEvent(parts[0], long.Parse(parts[1]), parts.Length > 2 ? parts[2] : "");
    }

    public override string ToString() => Name;
}
