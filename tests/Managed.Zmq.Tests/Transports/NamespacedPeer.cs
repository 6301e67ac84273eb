using System.Diagnostics;
using System.Globalization;

namespace Managed.Zmq.Tests.Transports;

/// <summary>
/// A libzmq PULL (Debian's pyzmq) in its own Linux network namespace, joined to ours by a veth pair, so a test can
/// black-hole it: taking its end of the link down stops every segment, ACKs included, without a FIN or RST. A
/// user-space proxy cannot do that, because the kernel acknowledges data for it. Needs root (CAP_NET_ADMIN and
/// CAP_SYS_ADMIN for <c>ip netns</c>), iproute2 and python3-zmq, as the CI container has.
/// </summary>
internal sealed class NamespacedPeer : IDisposable
{
    private const string PeerScript = """
        import sys, zmq
        ctx = zmq.Context()
        pull = ctx.socket(zmq.PULL)
        pull.bind(sys.argv[1])
        print("ready", flush=True)
        while True:
            print(pull.recv().decode(), flush=True)
        """;

    private static readonly TimeSpan s_commandDeadline = TimeSpan.FromSeconds(10);

    private static int s_counter;

    private readonly string _namespace;
    private readonly string _peerLink;
    private readonly Process _peer;

    private NamespacedPeer(string ns, string peerLink, Process peer, string endpoint)
    {
        _namespace = ns;
        _peerLink = peerLink;
        _peer = peer;
        Endpoint = endpoint;
    }

    /// <summary>The peer's tcp endpoint, reachable from this namespace.</summary>
    public string Endpoint { get; }

    public static NamespacedPeer Start()
    {
        // Names and a /30 unique to this process and call, so parallel runs never share a link.
        int id = (Environment.ProcessId % 4096 * 16) + (Interlocked.Increment(ref s_counter) % 16);
        string tag = id.ToString("x", CultureInfo.InvariantCulture);
        string ns = $"mzq-{tag}";
        string hostLink = $"mzq{tag}h";
        string peerLink = $"mzq{tag}p";
        int block = id % 16384 * 4;
        string prefix = $"10.{200 + (block >> 16)}.{(block >> 8) & 0xff}.";
        string hostAddress = prefix + ((block & 0xff) + 1).ToString(CultureInfo.InvariantCulture);
        string peerAddress = prefix + ((block & 0xff) + 2).ToString(CultureInfo.InvariantCulture);

        Run("ip", "netns", "add", ns);
        try
        {
            Run("ip", "link", "add", hostLink, "type", "veth", "peer", "name", peerLink, "netns", ns);
            Run("ip", "addr", "add", hostAddress + "/30", "dev", hostLink);
            Run("ip", "link", "set", hostLink, "up");
            Run("ip", "netns", "exec", ns, "ip", "addr", "add", peerAddress + "/30", "dev", peerLink);
            Run("ip", "netns", "exec", ns, "ip", "link", "set", peerLink, "up");

            string endpoint = $"tcp://{peerAddress}:5555";
            var start = new ProcessStartInfo("ip") { RedirectStandardOutput = true, RedirectStandardError = true };
            foreach (string argument in new[] { "netns", "exec", ns, "/usr/bin/python3", "-c", PeerScript, endpoint })
            {
                start.ArgumentList.Add(argument);
            }

            var peer = Process.Start(start)!;
            var result = new NamespacedPeer(ns, peerLink, peer, endpoint);
            Assert.Equal("ready", result.ReadLine());
            return result;
        }
        catch
        {
            RunQuietly("ip", "netns", "del", ns);
            throw;
        }
    }

    /// <summary>The next line the peer printed (a received message), within the deadline.</summary>
    public string? ReadLine()
    {
        var line = _peer.StandardOutput.ReadLineAsync();
        Assert.True(line.Wait(s_commandDeadline), "the namespaced peer printed nothing");
        return line.Result;
    }

    /// <summary>Takes the peer's end of the link down: from now on nothing it sends (no ACK) reaches us.</summary>
    public void BlackHole() => Run("ip", "netns", "exec", _namespace, "ip", "link", "set", _peerLink, "down");

    public void Dispose()
    {
        if (!_peer.HasExited)
        {
            _peer.Kill(entireProcessTree: true);
            _peer.WaitForExit(s_commandDeadline);
        }

        _peer.Dispose();

        // Deleting the namespace destroys its veth end, and with it ours.
        RunQuietly("ip", "netns", "del", _namespace);
    }

    private static void Run(string file, params string[] arguments)
    {
        int exitCode = RunQuietly(file, arguments, out string error);
        Assert.True(exitCode == 0, $"{file} {string.Join(' ', arguments)}: exit {exitCode}: {error}");
    }

    private static int RunQuietly(string file, params string[] arguments) => RunQuietly(file, arguments, out _);

    private static int RunQuietly(string file, string[] arguments, out string error)
    {
        var start = new ProcessStartInfo(file) { RedirectStandardError = true, RedirectStandardOutput = true };
        foreach (string argument in arguments)
        {
            start.ArgumentList.Add(argument);
        }

        using var process = Process.Start(start)!;
        var stderr = process.StandardError.ReadToEndAsync();
        process.StandardOutput.ReadToEnd();
        Assert.True(process.WaitForExit(s_commandDeadline), $"{file} did not finish");
        error = stderr.Result;
        return process.ExitCode;
    }
}
