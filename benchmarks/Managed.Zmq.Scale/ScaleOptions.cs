using System.Globalization;

namespace Managed.Zmq.Scale;

/// <summary>
/// The driver's command line. Defaults are the full sizes; <c>--quick</c> switches every
/// default to a small scale (the whole run in about a minute); any option given explicitly wins.
/// </summary>
internal sealed class ScaleOptions
{
    public static readonly string[] AllScenarios = ["idle", "curve-idle", "churn", "subs", "curve-flood", "fd", "cmd-flood", "heartbeat"];

    public bool Quick { get; private set; }

    public HashSet<string> Scenarios { get; private set; } = new(AllScenarios, StringComparer.Ordinal);

    public List<ServerKind> Servers { get; private set; } = [ServerKind.Managed, ServerKind.Libzmq];

    /// <summary>Idle handshaken (NULL) connections, in steps, each measured.</summary>
    public List<int> IdleCounts { get; private set; } = [0, 1_000, 10_000];

    /// <summary>Greeting-only connections to a CURVE ROUTER.</summary>
    public int CurveIdle { get; private set; } = 18_000;

    /// <summary>How long each round-trip rate is measured.</summary>
    public TimeSpan RoundTripWindow { get; private set; } = TimeSpan.FromSeconds(5);

    /// <summary>Each of the two churn periods.</summary>
    public TimeSpan ChurnPeriod { get; private set; } = TimeSpan.FromSeconds(40);

    public int ChurnWorkers { get; private set; } = 8;

    /// <summary>Distinct subscriptions sent to a PUB, one run per count.</summary>
    public List<int> PubSubscriptions { get; private set; } = [100_000, 1_000_000];

    public int XpubSubscriptions { get; private set; } = 100_000;

    /// <summary>After the last subscription is written, how long the subscriber keeps measuring.</summary>
    public TimeSpan SubscriptionSettle { get; private set; } = TimeSpan.FromSeconds(5);

    /// <summary>A delivery gap this long ends the subscription run as "stalled".</summary>
    public TimeSpan StallCap { get; private set; } = TimeSpan.FromSeconds(120);

    public TimeSpan CurveFloodDuration { get; private set; } = TimeSpan.FromSeconds(10);

    public int CurveFloodConnections { get; private set; } = 32;

    /// <summary>The server's RLIMIT_NOFILE in the fd-exhaustion scenario.</summary>
    public int FdLimit { get; private set; } = 256;

    /// <summary>Plain TCP connects in the fd flood (default: the limit plus 1,024).</summary>
    public int FdFlood { get; private set; } = 256 + 1_024;

    public TimeSpan FdHold { get; private set; } = TimeSpan.FromSeconds(10);

    public long CommandFloodBytes { get; private set; } = 2L << 30;

    public TimeSpan CommandFloodTimeout { get; private set; } = TimeSpan.FromSeconds(120);

    public int HeartbeatMessages { get; private set; } = 20_000;

    /// <summary>A server whose RSS reaches this has its load stopped (the machine is shared).</summary>
    public long RssCap { get; private set; } = 6L << 30;

    public string Python { get; private set; } = "/usr/bin/python3";

    public string PythonServer { get; private set; } = FindPythonServer();

    public static ScaleOptions Parse(string[] args)
    {
        var options = new ScaleOptions();
        if (args.Contains("--quick"))
        {
            options.Quick = true;
            options.IdleCounts = [0, 200, 1_000];
            options.CurveIdle = 1_000;
            options.RoundTripWindow = TimeSpan.FromSeconds(1);
            options.ChurnPeriod = TimeSpan.FromSeconds(1);
            options.ChurnWorkers = 4;
            options.PubSubscriptions = [20_000];
            options.XpubSubscriptions = 20_000;
            options.SubscriptionSettle = TimeSpan.FromSeconds(1);
            options.StallCap = TimeSpan.FromSeconds(5);
            options.CurveFloodDuration = TimeSpan.FromSeconds(2);
            options.CurveFloodConnections = 8;
            // The fd flood keeps its full size and hold even here: a shorter hold or a smaller
            // flood let today's accept loop survive, and a quick run must not pass what a full one fails.
            options.CommandFloodBytes = 128L << 20;
            options.CommandFloodTimeout = TimeSpan.FromSeconds(10);
            options.HeartbeatMessages = 5_000;
        }

        bool fdFloodGiven = false;
        for (int i = 0; i < args.Length; i++)
        {
            string arg = args[i];
            if (arg == "--quick")
            {
                continue;
            }

            if (arg is "-h" or "--help")
            {
                throw new ArgumentException(Usage);
            }

            if (i + 1 >= args.Length)
            {
                throw new ArgumentException($"{arg} needs a value\n{Usage}");
            }

            string value = args[++i];
            switch (arg)
            {
                case "--only": options.Scenarios = Names(value, AllScenarios); break;
                case "--servers": options.Servers = [.. Names(value, ["managed", "libzmq"]).Select(s => s == "managed" ? ServerKind.Managed : ServerKind.Libzmq).Order()]; break;
                case "--idle": options.IdleCounts = Ints(value); break;
                case "--curve-idle": options.CurveIdle = Int(value); break;
                case "--rtt-window": options.RoundTripWindow = Seconds(value); break;
                case "--churn": options.ChurnPeriod = Seconds(value); break;
                case "--churn-workers": options.ChurnWorkers = Int(value); break;
                case "--subs": options.PubSubscriptions = Ints(value); break;
                case "--xpub-subs": options.XpubSubscriptions = Int(value); break;
                case "--subs-settle": options.SubscriptionSettle = Seconds(value); break;
                case "--stall-cap": options.StallCap = Seconds(value); break;
                case "--curve-flood": options.CurveFloodDuration = Seconds(value); break;
                case "--curve-flood-connections": options.CurveFloodConnections = Int(value); break;
                case "--fd-limit": options.FdLimit = Int(value); break;
                case "--fd-flood": options.FdFlood = Int(value); fdFloodGiven = true; break;
                case "--fd-hold": options.FdHold = Seconds(value); break;
                case "--cmd-bytes": options.CommandFloodBytes = Bytes(value); break;
                case "--cmd-timeout": options.CommandFloodTimeout = Seconds(value); break;
                case "--heartbeat-messages": options.HeartbeatMessages = Int(value); break;
                case "--rss-cap": options.RssCap = Bytes(value); break;
                case "--python": options.Python = value; break;
                case "--python-server": options.PythonServer = value; break;
                default: throw new ArgumentException($"unknown option {arg}\n{Usage}");
            }
        }

        if (!fdFloodGiven)
        {
            options.FdFlood = options.FdLimit + 1_024;
        }

        return options;
    }

    public const string Usage = """
        usage: Managed.Zmq.Scale [--quick] [--only idle,curve-idle,churn,subs,curve-flood,fd,cmd-flood,heartbeat]
                                 [--servers managed,libzmq] [--idle 0,1000,10000] [--curve-idle 18000]
                                 [--rtt-window S] [--churn S] [--churn-workers N] [--subs 100000,1000000]
                                 [--xpub-subs N] [--subs-settle S] [--stall-cap S] [--curve-flood S]
                                 [--curve-flood-connections N] [--fd-limit N] [--fd-flood N] [--fd-hold S]
                                 [--cmd-bytes 2G] [--cmd-timeout S] [--heartbeat-messages N] [--rss-cap 6G]
                                 [--python /usr/bin/python3] [--python-server benchmarks/scale/scale_server.py]
               Managed.Zmq.Scale server --mode echo|pub|xpub|pull|count3 [--curve-secret Z85] [--plain USER:PASS]
        """;

    private static HashSet<string> Names(string value, string[] allowed)
    {
        var names = new HashSet<string>(value.Split(',', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries), StringComparer.Ordinal);
        foreach (string name in names)
        {
            if (!allowed.Contains(name))
            {
                throw new ArgumentException($"unknown name {name}; one of {string.Join(',', allowed)}");
            }
        }

        return names;
    }

    private static int Int(string value) => int.Parse(value.Replace("_", "", StringComparison.Ordinal), CultureInfo.InvariantCulture);

    private static List<int> Ints(string value) => [.. value.Split(',', StringSplitOptions.RemoveEmptyEntries).Select(Int).Order()];

    private static TimeSpan Seconds(string value) => TimeSpan.FromSeconds(double.Parse(value, CultureInfo.InvariantCulture));

    private static long Bytes(string value)
    {
        char unit = char.ToUpperInvariant(value[^1]);
        int shift = unit switch { 'K' => 10, 'M' => 20, 'G' => 30, _ => 0 };
        return long.Parse(shift == 0 ? value : value[..^1], CultureInfo.InvariantCulture) << shift;
    }

    private static string FindPythonServer()
    {
        for (var dir = new DirectoryInfo(AppContext.BaseDirectory); dir is not null; dir = dir.Parent)
        {
            string candidate = Path.Combine(dir.FullName, "benchmarks", "scale", "scale_server.py");
            if (File.Exists(candidate))
            {
                return candidate;
            }
        }

        return Path.Combine("benchmarks", "scale", "scale_server.py");
    }
}
