using System.Globalization;
using System.Text;

namespace Managed.Zmq.Soak;

/// <summary>
/// An SVG of the network soak: RSS of both nodes (top) and messages received per second (bottom)
/// over time, partitions shaded. Drawn from the samples only, so the same run gives the same file.
/// </summary>
internal static class SoakPlot
{
    private const int Width = 900;
    private const int PanelHeight = 220;
    private const int Left = 70;
    private const int Right = 20;
    private const int Top = 40;
    private const int Gap = 60;

    public static string Render(List<Sample> samples, string title)
    {
        var svg = new StringBuilder();
        int height = Top + 2 * PanelHeight + Gap + 40;
        svg.Append(CultureInfo.InvariantCulture, $"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{Width}\" height=\"{height}\" font-family=\"sans-serif\" font-size=\"12\">\n");
        svg.Append(CultureInfo.InvariantCulture, $"<rect width=\"{Width}\" height=\"{height}\" fill=\"white\"/>\n<text x=\"{Left}\" y=\"22\" font-size=\"14\">{Escape(title)}</text>\n");
        double end = Math.Max(1, samples.Count == 0 ? 1 : samples[^1].Seconds);
        Panel(svg, samples, end, Top, "RSS (MiB)", [("ours", "#1f77b4", s => s.OursRss / 1048576.0), ("peer", "#ff7f0e", s => s.PeerRss / 1048576.0)]);
        Panel(svg, samples, end, Top + PanelHeight + Gap, "received per second", [("received", "#2ca02c", s => s.Received)]);
        svg.Append(CultureInfo.InvariantCulture, $"<text x=\"{Left + (Width - Left - Right) / 2}\" y=\"{height - 8}\" text-anchor=\"middle\">seconds (grey: link cut)</text>\n</svg>\n");
        return svg.ToString();
    }

    private static void Panel(StringBuilder svg, List<Sample> samples, double end, int top, string label, (string Name, string Colour, Func<Sample, double> Value)[] series)
    {
        int plotWidth = Width - Left - Right;
        double max = Math.Max(1, series.Max(s => samples.Count == 0 ? 0 : samples.Max(s.Value))) * 1.1;
        double X(double seconds) => Left + seconds / end * plotWidth;
        double Y(double value) => top + PanelHeight - value / max * PanelHeight;

        for (int i = 0; i < samples.Count; i++)
        {
            if (samples[i].Partitioned)
            {
                double from = i == 0 ? 0 : samples[i - 1].Seconds;
                svg.Append(CultureInfo.InvariantCulture, $"<rect x=\"{X(from):F1}\" y=\"{top}\" width=\"{X(samples[i].Seconds) - X(from):F1}\" height=\"{PanelHeight}\" fill=\"#e8e8e8\"/>\n");
            }
        }

        svg.Append(CultureInfo.InvariantCulture, $"<rect x=\"{Left}\" y=\"{top}\" width=\"{plotWidth}\" height=\"{PanelHeight}\" fill=\"none\" stroke=\"#888\"/>\n");
        svg.Append(CultureInfo.InvariantCulture, $"<text x=\"{Left}\" y=\"{top - 6}\">{Escape(label)}</text>\n");
        for (int t = 0; t <= 4; t++)
        {
            double v = max * t / 4;
            svg.Append(CultureInfo.InvariantCulture, $"<text x=\"{Left - 6}\" y=\"{Y(v) + 4:F1}\" text-anchor=\"end\">{v:0.#}</text>\n");
            double s = end * t / 4;
            svg.Append(CultureInfo.InvariantCulture, $"<text x=\"{X(s):F1}\" y=\"{top + PanelHeight + 14}\" text-anchor=\"middle\">{s:0}</text>\n");
        }

        int legend = 0;
        foreach (var (name, colour, value) in series)
        {
            var points = string.Join(' ', samples.Select(s => string.Create(CultureInfo.InvariantCulture, $"{X(s.Seconds):F1},{Y(value(s)):F1}")));
            svg.Append(CultureInfo.InvariantCulture, $"<polyline fill=\"none\" stroke=\"{colour}\" stroke-width=\"1.5\" points=\"{points}\"/>\n");
            svg.Append(CultureInfo.InvariantCulture, $"<text x=\"{Width - Right - 120 + legend * 60}\" y=\"{top - 6}\" fill=\"{colour}\">{Escape(name)}</text>\n");
            legend++;
        }
    }

    private static string Escape(string text) => text.Replace("&", "&amp;").Replace("<", "&lt;").Replace(">", "&gt;");
}
