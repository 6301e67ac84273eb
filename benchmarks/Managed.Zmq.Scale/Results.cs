using System.Globalization;
using System.Text;
using Managed.Zmq.Buffers;
using Managed.Zmq.Options;
using Managed.Zmq.Security.Zap;

namespace Managed.Zmq.Scale;

/// <summary>One measurement: a number when there is one (for the ratio), and how to show it.</summary>
internal readonly record struct Cell(double? Value, string Text, bool Comparable = true)
{
    private static readonly CultureInfo Invariant = CultureInfo.InvariantCulture;

    public static Cell Rate(double perSecond) => new(perSecond, string.Format(Invariant, "{0:N0}/s", perSecond));

    public static Cell Bytes(long? bytes) =>
        bytes is { } b ? new(b, string.Format(Invariant, "{0:N1} MB", b / 1e6)) : Fail("gone");

    public static Cell Millis(double ms) => new(ms, string.Format(Invariant, ms < 10 ? "{0:N1} ms" : "{0:N0} ms", ms));

    public static Cell Seconds(double s) => new(s, string.Format(Invariant, "{0:N1} s", s));

    public static Cell Count(long n) => new(n, n.ToString("N0", Invariant));

    public static Cell Percent(double p) => new(p, string.Format(Invariant, "{0:N0} %", p));

    /// <summary>A change in bytes: shown signed, never divided (a ratio to a near-zero growth means nothing).</summary>
    public static Cell Growth(double bytes) => new(bytes, string.Format(Invariant, "{0:+0.0;-0.0;+0.0} MB", bytes / 1e6), Comparable: false);

    public static Cell Fail(string text) => new(null, "**" + text + "**");

    public static Cell Plain(string text) => new(null, text);
}

/// <summary>Every scenario's rows, both servers side by side, printed as one markdown table.</summary>
internal sealed class Results
{
    private readonly List<(string Scenario, string Measure)> _rows = [];
    private readonly Dictionary<(string, string, ServerKind), Cell> _cells = [];
    private readonly List<string> _notes = [];
    private readonly object _lock = new();

    public void Set(string scenario, string measure, ServerKind kind, Cell cell)
    {
        lock (_lock)
        {
            if (!_rows.Contains((scenario, measure)))
            {
                // After its section's last row: a row only the second server reached stays in its section.
                int last = _rows.FindLastIndex(row => row.Scenario == scenario);
                _rows.Insert(last < 0 ? _rows.Count : last + 1, (scenario, measure));
            }

            _cells[(scenario, measure, kind)] = cell;
        }

        Console.Error.WriteLine($"  [{Name(kind)}] {scenario} | {measure}: {cell.Text}");
    }

    public void Note(string text)
    {
        lock (_lock)
        {
            _notes.Add(text);
        }

        Console.Error.WriteLine($"  note: {text}");
    }

    /// <summary>The cell of the first row whose scenario starts with <paramref name="scenarioPrefix"/> and whose measure is <paramref name="measure"/>.</summary>
    public Cell? Find(string scenarioPrefix, string measure, ServerKind kind)
    {
        lock (_lock)
        {
            foreach (var (scenario, m) in _rows)
            {
                if (scenario.StartsWith(scenarioPrefix, StringComparison.Ordinal) && m == measure
                    && _cells.TryGetValue((scenario, m, kind), out var cell))
                {
                    return cell;
                }
            }
        }

        return null;
    }

    public static string Name(ServerKind kind) => kind == ServerKind.Managed ? "Managed.Zmq" : $"libzmq {NativeSocket.Version}";

    public string ToMarkdown(ScaleOptions options, string header, IEnumerable<string> acceptance)
    {
        var text = new StringBuilder();
        text.AppendLine(header);
        text.AppendLine();
        text.AppendLine(CultureInfo.InvariantCulture, $"| scenario | measure | {Name(ServerKind.Managed)} | {Name(ServerKind.Libzmq)} | Managed / libzmq |");
        text.AppendLine("|---|---|---:|---:|---:|");
        lock (_lock)
        {
            string? last = null;
            foreach (var (scenario, measure) in _rows)
            {
                var managed = Get(scenario, measure, ServerKind.Managed, options);
                var libzmq = Get(scenario, measure, ServerKind.Libzmq, options);
                string ratio = managed.Value is { } m && libzmq.Value is { } l && l != 0 && managed.Comparable
                    ? string.Format(CultureInfo.InvariantCulture, "{0:0.00}×", m / l)
                    : "";
                text.AppendLine(CultureInfo.InvariantCulture, $"| {(scenario == last ? "" : scenario)} | {measure} | {managed.Text} | {libzmq.Text} | {ratio} |");
                last = scenario;
            }

            var checks = acceptance.ToList();
            if (checks.Count > 0)
            {
                text.AppendLine();
                text.AppendLine("Acceptance (BENCHMARKS.md, \"Scale and attack\"), on the Managed.Zmq column of this run (at this run's sizes):");
                text.AppendLine();
                foreach (string check in checks)
                {
                    text.AppendLine("- " + check);
                }
            }

            if (_notes.Count > 0)
            {
                text.AppendLine();
                foreach (string note in _notes)
                {
                    text.AppendLine("- " + note);
                }
            }
        }

        return text.ToString();
    }

    private Cell Get(string scenario, string measure, ServerKind kind, ScaleOptions options) =>
        _cells.TryGetValue((scenario, measure, kind), out var cell) ? cell
        : options.Servers.Contains(kind) ? Cell.Plain("—") : Cell.Plain("not run");
}
