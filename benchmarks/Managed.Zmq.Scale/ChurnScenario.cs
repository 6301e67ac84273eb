using System.Diagnostics;
using System.Globalization;

namespace Managed.Zmq.Scale;

/// <summary>
/// Connect/handshake/disconnect churn against the server's ROUTER for one period, a forced GC, a
/// second period, a second GC: the server's RSS during, after each GC, and its growth over the
/// second period, and (a diagnostic, not a collection) after glibc's <c>malloc_trim</c>. Three variants: NULL; NULL plus one PING with the largest TTL per connection;
/// PLAIN through the server's ZAP handler (ZapAuthenticator / pyzmq's ThreadAuthenticator).
/// </summary>
internal sealed class ChurnScenario(ScaleOptions options, Results results) : Scenario(options, results)
{
    private enum Variant
    {
        Null,
        NullPing,
        Plain,
    }

    public override string Name => "churn";

    public override TimeSpan Budget => TimeSpan.FromSeconds(3 * ((2 * Options.ChurnPeriod.TotalSeconds) + 90));

    public override async Task RunAsync(ServerKind kind, CancellationToken cancel)
    {
        foreach (var variant in Enum.GetValues<Variant>())
        {
            await RunVariantAsync(kind, variant, cancel).ConfigureAwait(false);
        }
    }

    private async Task RunVariantAsync(ServerKind kind, Variant variant, CancellationToken cancel)
    {
        string period = Options.ChurnPeriod.TotalSeconds.ToString("0.#", CultureInfo.InvariantCulture);
        string section = variant switch
        {
            Variant.Null => $"connect/disconnect churn, NULL, 2 × {period} s",
            Variant.NullPing => $"churn, NULL + one PING (TTL {ScaleConstants.MaxPingTtl}) each, 2 × {period} s",
            _ => $"churn, PLAIN through the ZAP handler, 2 × {period} s",
        };
        await using var server = await ServerProcess.StartAsync(Options, kind, "echo",
            variant == Variant.Plain ? ["--plain", $"{ScaleConstants.PlainUser}:{ScaleConstants.PlainPassword}"] : null).ConfigureAwait(false);
        Set(section, "server RSS before", kind, Cell.Bytes(server.Rss()));

        double? afterFirst = null;
        for (int round = 1; round <= 2; round++)
        {
            long completed, failed;
            Cell peak;
            var clock = Stopwatch.StartNew();
            await using (var sampler = new RssSampler(server, Options.RssCap))
            {
                (completed, failed) = await ChurnAsync(server, variant, sampler.CapReached, cancel).ConfigureAwait(false);
                peak = PeakCell(sampler);
            }

            double seconds = clock.Elapsed.TotalSeconds;
            if (round == 1)
            {
                Set(section, "handshakes/s in period 1", kind, Cell.Rate(completed / seconds));
            }

            if (failed > 0)
            {
                Results.Note($"{Results.Name(kind)}, {section}, period {round}: {failed:N0} connections failed ({completed:N0} completed).");
            }

            Set(section, $"RSS peak during period {round}", kind, peak);
            if (!server.Alive)
            {
                Set(section, $"RSS after period {round} + forced GC", kind, Cell.Fail(server.Fate()));
                return;
            }

            var after = await RssAfterGcAsync(server).ConfigureAwait(false);
            Set(section, $"RSS after period {round} + forced GC", kind, after);
            if (after.Value is not { } rss)
            {
                return;
            }

            if (afterFirst is { } first)
            {
                Set(section, "growth over period 2 (after GC)", kind, Cell.Growth(rss - first));

                // Not the acceptance figure (no collection does this): how much of what is left is
                // free native memory that malloc keeps rather than returns.
                Set(section, "RSS after period 2 + GC + malloc_trim (diagnostic)", kind, await RssAfterTrimAsync(server).ConfigureAwait(false));
            }
            else if (peak.Value is null)
            {
                // The cap stopped the first period: a second would start above it and prove nothing.
                Set(section, "growth over period 2 (after GC)", kind, Cell.Fail("not run: the RSS cap stopped period 1"));
                return;
            }

            afterFirst = rss;
        }
    }

    /// <summary>Churns for one period with the configured number of workers; completed and failed connections.</summary>
    private async Task<(long Completed, long Failed)> ChurnAsync(ServerProcess server, Variant variant, CancellationToken capReached, CancellationToken cancel)
    {
        long completed = 0, failed = 0;
        var deadline = Stopwatch.StartNew();
        byte[] ping = RawZmtp.Ping(ScaleConstants.MaxPingTtl);
        async Task Worker()
        {
            while (deadline.Elapsed < Options.ChurnPeriod && !cancel.IsCancellationRequested && !capReached.IsCancellationRequested)
            {
                try
                {
                    using var socket = variant == Variant.Plain
                        ? await RawZmtp.PlainHandshakeAsync(server.Port, "DEALER", ScaleConstants.PlainUser, ScaleConstants.PlainPassword, cancel).ConfigureAwait(false)
                        : await RawZmtp.NullHandshakeAsync(server.Port, "DEALER", cancel).ConfigureAwait(false);
                    if (variant == Variant.NullPing)
                    {
                        using var step = CancellationTokenSource.CreateLinkedTokenSource(cancel);
                        step.CancelAfter(ScaleConstants.StepTimeout);
                        await RawZmtp.SendAsync(socket, ping, step.Token).ConfigureAwait(false);
                        // The PONG shows the PING was handled before the connection goes.
                        var (_, pong) = await RawZmtp.ReadFrameAsync(socket, step.Token).ConfigureAwait(false);
                        if (!RawZmtp.IsCommand(pong, "PONG"))
                        {
                            throw new InvalidDataException("no PONG");
                        }
                    }

                    Interlocked.Increment(ref completed);
                }
                catch (Exception e) when (e is not OperationCanceledException || !cancel.IsCancellationRequested)
                {
                    Interlocked.Increment(ref failed);
                    if (!server.Alive)
                    {
                        return;
                    }
                }
            }
        }

        await Task.WhenAll(Enumerable.Range(0, Options.ChurnWorkers).Select(_ => Task.Run(Worker, CancellationToken.None))).ConfigureAwait(false);
        return (completed, failed);
    }
}
