using System.Diagnostics;
using System.Globalization;

namespace Managed.Zmq.Scale;

/// <summary>
/// A raw PUSH peer completes a NULL handshake with the server's PULL, whose application never
/// reads, and writes unknown command frames (libzmq drops them) up to a byte budget: the server's
/// RSS during and after. A server that counts commands against its receive side stops reading,
/// so fewer bytes get written before the time limit; that is reported, not failed.
/// </summary>
internal sealed class CommandFloodScenario(ScaleOptions options, Results results) : Scenario(options, results)
{
    public override string Name => "cmd-flood";

    public override TimeSpan Budget => Options.CommandFloodTimeout + TimeSpan.FromSeconds(60);

    public override async Task RunAsync(ServerKind kind, CancellationToken cancel)
    {
        string section = string.Format(CultureInfo.InvariantCulture, "{0:N0} MiB of unknown commands to a non-reading PULL", Options.CommandFloodBytes >> 20);
        await using var server = await ServerProcess.StartAsync(Options, kind, "pull").ConfigureAwait(false);
        Set(section, "server RSS before", kind, Cell.Bytes(server.Rss()));

        byte[] frame = RawZmtp.Command("UNKNOWN", new byte[ScaleConstants.CommandFrameBody - 8]);
        int perBatch = Math.Max(1, (256 * 1024) / frame.Length);
        var batch = new byte[perBatch * frame.Length];
        for (int i = 0; i < perBatch; i++)
        {
            frame.CopyTo(batch, i * frame.Length);
        }

        long written = 0;
        string ending = "all written";
        var clock = Stopwatch.StartNew();
        await using (var sampler = new RssSampler(server, Options.RssCap))
        {
            using var attacker = await RawZmtp.NullHandshakeAsync(server.Port, "PUSH", cancel).ConfigureAwait(false);
            using var limit = CancellationTokenSource.CreateLinkedTokenSource(cancel, sampler.CapReached);
            limit.CancelAfter(Options.CommandFloodTimeout);
            try
            {
                while (written < Options.CommandFloodBytes)
                {
                    await RawZmtp.SendAsync(attacker, batch, limit.Token).ConfigureAwait(false);
                    written += batch.Length;
                }
            }
            catch (OperationCanceledException) when (!cancel.IsCancellationRequested)
            {
                ending = sampler.CapReached.IsCancellationRequested
                    ? "stopped at the RSS cap"
                    : $"time limit ({Options.CommandFloodTimeout.TotalSeconds:N0} s): the server stopped reading";
            }
            catch (Exception e) when (e is System.Net.Sockets.SocketException or IOException)
            {
                ending = server.Alive ? "the server closed the connection" : server.Fate();
            }

            Set(section, "RSS peak during the flood", kind, sampler.CapReached.IsCancellationRequested ? PeakCell(sampler) : Cell.Bytes(Math.Max(sampler.Peak, server.Rss() ?? 0)));
        }

        Set(section, "MiB written", kind, Cell.Count(written >> 20));
        Set(section, "write rate", kind, new Cell(written / 1e6 / clock.Elapsed.TotalSeconds, string.Format(CultureInfo.InvariantCulture, "{0:N0} MB/s", written / 1e6 / clock.Elapsed.TotalSeconds)));
        Set(section, "how the flood ended", kind, ending.StartsWith("died", StringComparison.Ordinal) ? Cell.Fail(ending) : Cell.Plain(ending));
        Set(section, "RSS after + forced GC", kind, server.Alive ? await RssAfterGcAsync(server).ConfigureAwait(false) : Cell.Fail(server.Fate()));
    }
}
