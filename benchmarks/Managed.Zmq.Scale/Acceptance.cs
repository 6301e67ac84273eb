using System.Globalization;

namespace Managed.Zmq.Scale;

/// <summary>
/// The scale and attack acceptance criteria (BENCHMARKS.md, "Scale and attack"), judged on the Managed.Zmq column of one run. A quick run
/// judges them at its own small sizes: a hint, not the verdict the full sizes give.
/// </summary>
internal static class Acceptance
{
    /// <summary>"No growth" over the second churn period: at most this fraction of the RSS after the first.</summary>
    private const double GrowthTolerance = 0.05;

    public static IEnumerable<string> Judge(ScaleOptions options, Results results)
    {
        var managed = ServerKind.Managed;
        var libzmq = ServerKind.Libzmq;
        var lines = new List<string>();
        if (!options.Servers.Contains(managed))
        {
            return lines;
        }

        string Verdict(bool? pass) => pass switch { true => "PASS", false => "**FAIL**", null => "not measured" };
        void Add(string scenario, string criterion, bool? pass)
        {
            if (options.Scenarios.Contains(scenario))
            {
                lines.Add($"{Verdict(pass)}: {criterion}");
            }
        }

        double? Value(string section, string measure, ServerKind kind) => results.Find(section, measure, kind)?.Value;

        var fdAlive = results.Find("fd exhaustion", "server during the flood", managed);
        var fdServes = Value("fd exhaustion", "serves a new client afterwards: first reply in", managed);
        Add("fd", "fd exhaustion: alive during the flood, and serves again when it ends",
            fdAlive is null ? null : fdAlive.Value.Text == "alive" && fdServes is not null);

        foreach (string variant in new[] { "connect/disconnect churn, NULL", "churn, NULL + one PING", "churn, PLAIN" })
        {
            var first = results.Find(variant, "RSS after period 1 + forced GC", managed);
            var second = results.Find(variant, "RSS after period 2 + forced GC", managed);
            var growth = results.Find(variant, "growth over period 2 (after GC)", managed);
            // libzmq's process sometimes still holds memory when its first or second reading is
            // taken (tens of MB more than the other): the reference is its lower reading, and both
            // of ours must be within 2× of it, so that libzmq caught holding memory cannot pass us.
            double? libzmqFirst = Value(variant, "RSS after period 1 + forced GC", libzmq);
            double? libzmqSecond = Value(variant, "RSS after period 2 + forced GC", libzmq);
            double? reference = libzmqFirst is { } lf && libzmqSecond is { } ls ? Math.Min(lf, ls) : libzmqFirst ?? libzmqSecond;
            bool? pass = first is null ? null
                : first.Value.Value is not { } a || second is { Value: null } || growth is { Value: null } ? false
                : second?.Value is not { } b ? null
                : b - a > GrowthTolerance * a ? false
                : reference is { } r ? Math.Max(a, b) <= 2 * r : null;
            Add("churn", $"{variant}: RSS after a forced GC within 2× libzmq's, and no growth (≤ {GrowthTolerance:P0}) over the second period", pass);
        }

        int idle = options.IdleCounts.Max();
        Add("idle", string.Format(CultureInfo.InvariantCulture, "{0:N0} idle connections: ≥ 80 % of the round-trip rate with none", idle),
            Share(results, "idle handshaken connections", idle));
        Add("curve-idle", string.Format(CultureInfo.InvariantCulture, "{0:N0} greeting-only connections to a CURVE server: ≥ 80 % of the rate with none", options.CurveIdle),
            Share(results, "greeting-only connections", options.CurveIdle));

        int subscriptions = options.PubSubscriptions.Max();
        double? gap = Value(string.Format(CultureInfo.InvariantCulture, "{0:N0} distinct subscriptions to a PUB", subscriptions), "longest delivery gap", managed);
        Add("subs", string.Format(CultureInfo.InvariantCulture, "{0:N0} subscriptions: longest delivery gap under 1 s", subscriptions),
            results.Find(string.Format(CultureInfo.InvariantCulture, "{0:N0} distinct subscriptions to a PUB", subscriptions), "longest delivery gap", managed) is null ? null : gap is { } g && g < 1000);

        var peak = results.Find(string.Format(CultureInfo.InvariantCulture, "{0:N0} MiB of unknown commands", options.CommandFloodBytes >> 20), "RSS peak during the flood", managed);
        Add("cmd-flood", string.Format(CultureInfo.InvariantCulture, "{0:N0} MiB of command frames to a non-reading PULL: RSS under 100 MB", options.CommandFloodBytes >> 20),
            peak is null ? null : peak.Value.Value is { } p && p < 100e6);

        string heartbeat = string.Format(CultureInfo.InvariantCulture, "{0:N0} three-frame messages", options.HeartbeatMessages);
        var intact = results.Find(heartbeat, "messages intact", managed);
        var broken = Value(heartbeat, "messages split or altered", managed);
        Add("heartbeat", string.Format(CultureInfo.InvariantCulture, "the 1 ms heartbeat DEALER: {0:N0} of {0:N0} messages intact", options.HeartbeatMessages),
            intact is null ? null : intact.Value.Value == options.HeartbeatMessages && broken == 0);
        return lines;
    }

    /// <summary>The round-trip rate with <paramref name="count"/> idle connections kept ≥ 80 % of the rate with none; false when the server died or stalled there.</summary>
    private static bool? Share(Results results, string section, int count)
    {
        string at = string.Format(CultureInfo.InvariantCulture, "{0:N0} idle", count);
        var rate = results.Find(section, "round trips/s, " + at, ServerKind.Managed);
        var share = results.Find(section, "… as % of the rate with none, " + at, ServerKind.Managed);
        return share?.Value is { } percent ? percent >= 80
            : rate is { Value: null } ? false
            : null;
    }
}
