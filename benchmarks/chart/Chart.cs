// Renders the benchmark chart (docs/benchmarks.svg) from saved benchmark output, so the picture is
// always the numbers, never drawn by hand. No dependencies: a .NET 10 file-based app.
//
//   dotnet run benchmarks/chart/Chart.cs -- COMPARE_OUTPUT [--library LIBRARY_TABLE] [-o docs/benchmarks.svg]
//
// COMPARE_OUTPUT: what `bash benchmarks/compare.sh` prints on stdout (its Markdown table; the
// "A median" column is libzmq, "B median" Managed.Zmq). LIBRARY_TABLE (optional): the Markdown table
// of the BenchmarkDotNet LibraryComparisonBenchmarks runs as BENCHMARKS.md records it
// (| size | Managed.Zmq | NetMQ ... |, each cell "run / run / run"), for the NetMQ panel.
using System.Globalization;
using System.Text;

var inputs = new List<string>();
string? libraryPath = null;
string output = "docs/benchmarks.svg";
for (int i = 0; i < args.Length; i++)
{
    switch (args[i])
    {
        case "--library": libraryPath = args[++i]; break;
        case "-o": output = args[++i]; break;
        default: inputs.Add(args[i]); break;
    }
}

if (inputs.Count != 1)
{
    Console.Error.WriteLine("usage: dotnet run benchmarks/chart/Chart.cs -- COMPARE_OUTPUT [--library LIBRARY_TABLE] [-o OUT.svg]");
    return 2;
}

var compare = CompareTable.Parse(File.ReadAllLines(inputs[0]));
var panels = new List<Panel>
{
    new(
        "tcp PUSH/PULL throughput",
        "msg/s, separate processes (compare.sh)",
        higherIsBetter: true,
        ["libzmq 4.3", "Managed.Zmq"],
        [
            new("64 B", [compare.Median("tcp-thr-64B", 'A'), compare.Median("tcp-thr-64B", 'B')]),
            new("1 KiB", [compare.Median("tcp-thr-1KiB", 'A'), compare.Median("tcp-thr-1KiB", 'B')]),
            new("64 KiB", [compare.Median("tcp-thr-64KiB", 'A'), compare.Median("tcp-thr-64KiB", 'B')]),
        ]),
};

if (libraryPath is not null)
{
    var library = LibraryTable.Parse(File.ReadAllLines(libraryPath));
    panels.Add(new(
        "Managed.Zmq and NetMQ",
        "msg/s, tcp PUSH/PULL in one process (BenchmarkDotNet)",
        higherIsBetter: true,
        ["Managed.Zmq", library.OtherName],
        [.. library.Rows.Select(r => new Group(r.Size, [r.Ours, r.Other]))]));
}

panels.Add(new(
    "REQ/REP latency, 64 B",
    "µs one-way, lower is better (compare.sh)",
    higherIsBetter: false,
    ["libzmq 4.3", "Managed.Zmq"],
    [
        new("tcp", [compare.Median("tcp-lat-64B", 'A'), compare.Median("tcp-lat-64B", 'B')]),
        new("ipc", [compare.Median("ipc-lat-64B", 'A'), compare.Median("ipc-lat-64B", 'B')]),
        new("inproc", [compare.Median("inproc-lat-64B", 'A'), compare.Median("inproc-lat-64B", 'B')]),
    ]));

string svg = Svg.Render(panels, $"Source: {Path.GetFileName(inputs[0])}" + (libraryPath is null ? "" : $", {Path.GetFileName(libraryPath)}") + " (benchmarks/results); medians; log scale; ×: Managed.Zmq's figure over the other library's");
Directory.CreateDirectory(Path.GetDirectoryName(Path.GetFullPath(output))!);
File.WriteAllText(output, svg);
Console.WriteLine($"wrote {output}");
return 0;

/// <summary>One bar group: a label and one value per series.</summary>
internal sealed record Group(string Label, double[] Values);

/// <summary>One chart panel: grouped bars over a log axis.</summary>
internal sealed record Panel(string Title, string Subtitle, bool higherIsBetter, string[] Series, Group[] Groups);

/// <summary>
/// compare.sh's Markdown table: | scenario | size | count | unit | A min | A median | A max | B min | B median | B max | ratio |,
/// possibly followed by the floor and runtime-defaults columns, which the chart does not use.
/// </summary>
internal sealed class CompareTable
{
    private readonly Dictionary<string, string[]> _rows = [];

    public static CompareTable Parse(string[] lines)
    {
        var table = new CompareTable();
        foreach (string line in lines)
        {
            string[] cells = Cells(line);
            if (cells.Length >= 11 && cells[0] != "scenario" && !cells[0].StartsWith("---", StringComparison.Ordinal))
            {
                // A scenario with failed runs carries " (failed runs: ...)" after its name.
                table._rows[cells[0].Split(' ')[0]] = cells;
            }
        }

        return table;
    }

    public double Median(string scenario, char side)
    {
        if (!_rows.TryGetValue(scenario, out var cells))
        {
            throw new InvalidDataException($"scenario {scenario} is not in the compare output");
        }

        return Number.Parse(cells[side == 'A' ? 5 : 8]);
    }

    public static string[] Cells(string line) =>
        line.TrimStart().StartsWith('|') ? [.. line.Trim().Trim('|').Split('|').Select(c => c.Trim())] : [];
}

/// <summary>The LibraryComparisonBenchmarks table: | size | Managed.Zmq | OTHER | ..., cells "a / b / c".</summary>
internal sealed record LibraryTable(string OtherName, List<(string Size, double Ours, double Other)> Rows)
{
    public static LibraryTable Parse(string[] lines)
    {
        string? other = null;
        var rows = new List<(string, double, double)>();
        foreach (string line in lines)
        {
            string[] cells = CompareTable.Cells(line);
            if (cells.Length < 3 || cells[0].StartsWith("-", StringComparison.Ordinal) || cells[0].StartsWith("---:", StringComparison.Ordinal))
            {
                continue;
            }

            if (cells[0] == "size")
            {
                other = cells[2];
                continue;
            }

            rows.Add((cells[0], MedianOf(cells[1]), MedianOf(cells[2])));
        }

        return new(other ?? throw new InvalidDataException("no header row"), rows);
    }

    private static double MedianOf(string cell)
    {
        double[] runs = [.. cell.Split('/').Select(Number.Parse).Order()];
        return runs.Length % 2 == 1 ? runs[runs.Length / 2] : (runs[runs.Length / 2 - 1] + runs[runs.Length / 2]) / 2;
    }
}

/// <summary>Numbers as the tables write them: "4,503,251", "60.601", "10.56 M", "367 k".</summary>
internal static class Number
{
    public static double Parse(string text)
    {
        string t = text.Trim().Replace(",", "", StringComparison.Ordinal);
        double scale = 1;
        if (t.EndsWith(" M", StringComparison.Ordinal) || t.EndsWith('M'))
        {
            scale = 1e6;
            t = t.TrimEnd('M').Trim();
        }
        else if (t.EndsWith(" k", StringComparison.Ordinal) || t.EndsWith('k'))
        {
            scale = 1e3;
            t = t.TrimEnd('k').Trim();
        }

        return double.Parse(t, NumberStyles.Float, CultureInfo.InvariantCulture) * scale;
    }

    /// <summary>A power of ten as an axis label: 0.1, 1, 10, 100, 1k, 10k, 100k, 1M, 10M.</summary>
    public static string Tick(double value) => value switch
    {
        >= 1e6 => (value / 1e6).ToString("0", CultureInfo.InvariantCulture) + "M",
        >= 1e3 => (value / 1e3).ToString("0", CultureInfo.InvariantCulture) + "k",
        _ => value.ToString("0.###", CultureInfo.InvariantCulture),
    };

    public static string Short(double value) => value switch
    {
        >= 1e6 => (value / 1e6).ToString(value >= 1e7 ? "0.0" : "0.00", CultureInfo.InvariantCulture) + " M",
        >= 1e3 => (value / 1e3).ToString(value >= 1e5 ? "0" : "0.0", CultureInfo.InvariantCulture) + " k",
        >= 10 => value.ToString("0.0", CultureInfo.InvariantCulture),
        _ => value.ToString("0.00", CultureInfo.InvariantCulture),
    };
}

/// <summary>Hand-written SVG: panels side by side, grouped bars on a log10 axis, a legend per panel.</summary>
internal static class Svg
{
    private const int PanelWidth = 330, PanelHeight = 330, Top = 70, Bottom = 50, Left = 54, Right = 12;
    private static readonly Dictionary<string, string> Colors = new()
    {
        ["libzmq 4.3"] = "#8c8c8c",
        ["Managed.Zmq"] = "#2b6cb0",
    };

    public static string Render(List<Panel> panels, string footnote)
    {
        int width = PanelWidth * panels.Count;
        int height = PanelHeight + 24;
        var svg = new StringBuilder();
        svg.Append(Invariant($"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" viewBox=\"0 0 {width} {height}\" font-family=\"Helvetica, Arial, sans-serif\" font-size=\"11\">\n"));
        svg.Append(Invariant($"<rect width=\"{width}\" height=\"{height}\" fill=\"#ffffff\"/>\n"));
        for (int p = 0; p < panels.Count; p++)
        {
            RenderPanel(svg, panels[p], p * PanelWidth);
        }

        svg.Append(Invariant($"<text x=\"8\" y=\"{height - 8}\" fill=\"#666\" font-size=\"10\">{Escape(footnote)}</text>\n"));
        svg.Append("</svg>\n");
        return svg.ToString();
    }

    private static void RenderPanel(StringBuilder svg, Panel panel, int x0)
    {
        double plotLeft = x0 + Left, plotRight = x0 + PanelWidth - Right;
        double plotTop = Top, plotBottom = PanelHeight - Bottom;
        double[] all = [.. panel.Groups.SelectMany(g => g.Values)];
        double lo = Math.Pow(10, Math.Floor(Math.Log10(all.Min()))), hi = Math.Pow(10, Math.Ceiling(Math.Log10(all.Max())));
        if (hi / lo < 100)
        {
            lo /= 10;
        }

        double Y(double v) => plotBottom - (Math.Log10(v) - Math.Log10(lo)) / (Math.Log10(hi) - Math.Log10(lo)) * (plotBottom - plotTop);

        svg.Append(Invariant($"<text x=\"{x0 + PanelWidth / 2}\" y=\"18\" text-anchor=\"middle\" font-size=\"13\" font-weight=\"bold\">{Escape(panel.Title)}</text>\n"));
        svg.Append(Invariant($"<text x=\"{x0 + PanelWidth / 2}\" y=\"33\" text-anchor=\"middle\" fill=\"#444\">{Escape(panel.Subtitle)}</text>\n"));

        for (double tick = lo; tick <= hi * 1.0001; tick *= 10)
        {
            double y = Y(tick);
            svg.Append(Invariant($"<line x1=\"{plotLeft:0.#}\" y1=\"{y:0.#}\" x2=\"{plotRight:0.#}\" y2=\"{y:0.#}\" stroke=\"#e2e2e2\"/>\n"));
            svg.Append(Invariant($"<text x=\"{plotLeft - 4:0.#}\" y=\"{y + 4:0.#}\" text-anchor=\"end\" fill=\"#555\">{Number.Tick(tick)}</text>\n"));
        }

        svg.Append(Invariant($"<line x1=\"{plotLeft:0.#}\" y1=\"{plotBottom:0.#}\" x2=\"{plotRight:0.#}\" y2=\"{plotBottom:0.#}\" stroke=\"#999\"/>\n"));

        double groupWidth = (plotRight - plotLeft) / panel.Groups.Length;
        double barWidth = groupWidth * 0.7 / panel.Series.Length;
        for (int g = 0; g < panel.Groups.Length; g++)
        {
            var group = panel.Groups[g];
            double gx = plotLeft + g * groupWidth + groupWidth * 0.15;
            for (int s = 0; s < panel.Series.Length; s++)
            {
                double value = group.Values[s];
                double x = gx + s * barWidth, y = Y(value);
                svg.Append(Invariant($"<rect x=\"{x:0.#}\" y=\"{y:0.#}\" width=\"{barWidth - 2:0.#}\" height=\"{plotBottom - y:0.#}\" fill=\"{Color(panel.Series[s])}\"><title>{Escape(panel.Series[s])} {Escape(group.Label)}: {Number.Short(value)}</title></rect>\n"));
                svg.Append(Invariant($"<text x=\"{x + (barWidth - 2) / 2:0.#}\" y=\"{y - 3:0.#}\" text-anchor=\"middle\" font-size=\"9\" fill=\"#222\">{Number.Short(value)}</text>\n"));
            }

            svg.Append(Invariant($"<text x=\"{plotLeft + (g + 0.5) * groupWidth:0.#}\" y=\"{plotBottom + 15:0.#}\" text-anchor=\"middle\">{Escape(group.Label)}</text>\n"));
            int ours = Array.IndexOf(panel.Series, "Managed.Zmq");
            double ratio = group.Values[ours] / group.Values[1 - ours];
            string relation = Invariant($"{ratio:0.00}×");
            svg.Append(Invariant($"<text x=\"{plotLeft + (g + 0.5) * groupWidth:0.#}\" y=\"{plotBottom + 29:0.#}\" text-anchor=\"middle\" fill=\"#2b6cb0\" font-size=\"10\">{relation}</text>\n"));
        }

        double legendX = plotLeft;
        foreach (string series in panel.Series)
        {
            svg.Append(Invariant($"<rect x=\"{legendX:0.#}\" y=\"44\" width=\"10\" height=\"10\" fill=\"{Color(series)}\"/>\n"));
            svg.Append(Invariant($"<text x=\"{legendX + 14:0.#}\" y=\"53\">{Escape(series)}</text>\n"));
            legendX += 20 + series.Length * 6.2;
        }
    }

    private static string Color(string series) => Colors.TryGetValue(series, out var c) ? c : "#dd8452";

    private static string Escape(string text) => text.Replace("&", "&amp;", StringComparison.Ordinal).Replace("<", "&lt;", StringComparison.Ordinal).Replace(">", "&gt;", StringComparison.Ordinal);

    private static string Invariant(FormattableString text) => text.ToString(CultureInfo.InvariantCulture);
}
