using System.Diagnostics;
using System.Text.RegularExpressions;

namespace Managed.Zmq.NetworkTests.Harness;

/// <summary>
/// A private network for one test: a hub namespace with a bridge, and one namespace per host,
/// each joined to the bridge by a veth pair. Addresses come from a /24 that exists only inside
/// these namespaces, so no packet ever reaches the machine's own interfaces. Cutting a host takes
/// its bridge port down: its packets vanish silently (no FIN, no RST) until <see cref="Heal"/>.
/// Everything is deleted on <see cref="Dispose"/>; namespaces left by a crashed test process
/// (same prefix, dead pid) are deleted when the next test process starts.
/// </summary>
internal sealed partial class TestNetwork : IDisposable
{
    /// <summary>Every namespace this suite creates starts with this, then the test process id.</summary>
    public const string Prefix = "mzqnet";

    private static readonly Lazy<bool> s_staleRemoved = new(RemoveStale);
    private static int s_counter;

    private readonly List<string> _namespaces = [];
    private readonly List<IDisposable> _processes = [];
    private readonly string _hub;
    private readonly string _base;
    private readonly string _subnet;

    public TestNetwork()
    {
        RequireNamespaces();
        int n = Interlocked.Increment(ref s_counter);
        _base = $"{Prefix}{Environment.ProcessId}x{n}";
        _subnet = $"10.{200 + (n % 50)}.{Environment.ProcessId % 250}";
        _hub = _base + "hub";
        try
        {
            AddNamespace(_hub);
            IpCommand.Run("-n", _hub, "link", "add", "br0", "type", "bridge");
            IpCommand.Run("-n", _hub, "link", "set", "br0", "up");
        }
        catch
        {
            Dispose();
            throw;
        }
    }

    public List<Host> Hosts { get; } = [];

    /// <summary>A new host on the bridge, with the next address of this network's /24.</summary>
    public Host AddHost()
    {
        int index = Hosts.Count + 1;
        var host = new Host(this, $"{_base}h{index}", $"{_subnet}.{index}", $"p{index}");
        AddNamespace(host.Namespace);
        IpCommand.Run("link", "add", "eth0", "netns", host.Namespace, "type", "veth", "peer", "name", host.HubPort, "netns", _hub);
        IpCommand.Run("-n", _hub, "link", "set", host.HubPort, "master", "br0");
        IpCommand.Run("-n", _hub, "link", "set", host.HubPort, "up");
        IpCommand.Run("-n", host.Namespace, "addr", "add", host.Address + "/24", "dev", "eth0");
        IpCommand.Run("-n", host.Namespace, "link", "set", "eth0", "up");
        IpCommand.Run("-n", host.Namespace, "link", "set", "lo", "up");
        Hosts.Add(host);
        return host;
    }

    /// <summary>Cuts the host off the bridge: its traffic is dropped both ways, silently.</summary>
    public void Cut(Host host) => IpCommand.Run("-n", _hub, "link", "set", host.HubPort, "down");

    /// <summary>Joins the host to the bridge again.</summary>
    public void Heal(Host host) => IpCommand.Run("-n", _hub, "link", "set", host.HubPort, "up");

    /// <summary>
    /// Waits until no established TCP connection of the host has bytes unacknowledged (ss's Send-Q is 0
    /// for every one): cut then, a connection is idle, as TCP keep-alive needs (with data unacknowledged
    /// the kernel retransmits instead of probing). Fails at the deadline.
    /// </summary>
    public static void WaitUntilAcknowledged(Host host, int timeoutMilliseconds = 10_000)
    {
        string table = "";
        bool Idle()
        {
            table = IpCommand.Run("netns", "exec", host.Namespace, "ss", "-tnH", "state", "established");
            return table.Split('\n', StringSplitOptions.RemoveEmptyEntries)
                .Select(line => line.Split(' ', StringSplitOptions.RemoveEmptyEntries))
                .All(columns => columns.Length > 1 && columns[1] == "0");
        }

        // No event tells when the kernel has the peer's ACK: the socket table is read until it shows none pending.
        if (SpinWait.SpinUntil(Idle, timeoutMilliseconds))
        {
            return;
        }

        Assert.Fail($"{host.Address} still has unacknowledged data after {timeoutMilliseconds} ms: {table.Trim()}");
    }

    internal T Track<T>(T process) where T : IDisposable
    {
        lock (_processes)
        {
            _processes.Add(process);
        }

        return process;
    }

    public void Dispose()
    {
        lock (_processes)
        {
            foreach (var p in _processes)
            {
                p.Dispose();
            }

            _processes.Clear();
        }

        foreach (string ns in _namespaces)
        {
            IpCommand.TryRun("netns", "del", ns);
        }

        _namespaces.Clear();
    }

    private void AddNamespace(string name)
    {
        IpCommand.Run("netns", "add", name);
        _namespaces.Add(name);
    }

    private static void RequireNamespaces()
    {
        _ = s_staleRemoved.Value;
        string probe = $"{Prefix}{Environment.ProcessId}probe{Interlocked.Increment(ref s_counter)}";
        (int code, _, string error) = (-1, "", "");
        try
        {
            (code, _, error) = IpCommand.TryRun("netns", "add", probe);
        }
        catch (Exception ex)
        {
            error = ex.Message;
        }
        finally
        {
            if (code == 0)
            {
                IpCommand.TryRun("netns", "del", probe);
            }
        }

        if (code != 0)
        {
            Assert.Fail("These tests need network namespaces: `ip netns add` must work (root, or CAP_SYS_ADMIN, and iproute2; .ci/run installs iproute2). " +
                        $"It failed here: {error.Trim()}");
        }
    }

    /// <summary>Deletes namespaces with our prefix whose test process is gone.</summary>
    private static bool RemoveStale()
    {
        (int code, string list, _) = IpCommand.TryRun("netns", "list");
        if (code != 0)
        {
            return false;
        }

        foreach (Match m in StaleName().Matches(list))
        {
            int pid = int.Parse(m.Groups[2].Value);
            if (pid != Environment.ProcessId && !Directory.Exists($"/proc/{pid}"))
            {
                IpCommand.TryRun("netns", "del", m.Groups[1].Value);
            }
        }

        return true;
    }

    [GeneratedRegex(@"^(" + Prefix + @"(\d+)\S*)", RegexOptions.Multiline)]
    private static partial Regex StaleName();
}

/// <summary>One host of a <see cref="TestNetwork"/>: its namespace, address and bridge port.</summary>
internal sealed record Host(TestNetwork Network, string Namespace, string Address, string HubPort)
{
    public Node Start(NodeKind kind) => Network.Track(Node.Start(this, kind));

    public ProxyNode StartProxy(int listenPort, string targetHost, int targetPort) =>
        Network.Track(ProxyNode.Start(this, listenPort, targetHost, targetPort));
}
