using System.Globalization;
using System.Text;

namespace Managed.Zmq.Scale;

/// <summary>
/// A libzmq DEALER with HEARTBEAT_IVL 1 ms sends three-frame messages to the server's ROUTER,
/// so PINGs fall between the frames of a message; the server counts the messages that arrive
/// intact (exactly f0-N, f1-N, f2-N) and the ones that do not. HEARTBEAT_TIMEOUT is set to the
/// step timeout, so a late PONG on a busy machine does not drop the connection (and its queue).
/// </summary>
internal sealed class HeartbeatScenario(ScaleOptions options, Results results) : Scenario(options, results)
{
    // Counters that stop moving this long mean everything that will arrive has arrived (a split
    // message counts twice, so "received" alone cannot say when the last one is in).
    private static readonly TimeSpan NoProgress = TimeSpan.FromSeconds(1);

    public override string Name => "heartbeat";

    public override TimeSpan Budget => TimeSpan.FromSeconds(60 + (Options.HeartbeatMessages / 500.0));

    public override async Task RunAsync(ServerKind kind, CancellationToken cancel)
    {
        string section = string.Format(CultureInfo.InvariantCulture, "{0:N0} three-frame messages from a DEALER with 1 ms heartbeats", Options.HeartbeatMessages);
        await using var server = await ServerProcess.StartAsync(Options, kind, "count3").ConfigureAwait(false);
        using var dealer = Dealer(server.Port, heartbeatIvl: 1);
        int total = Options.HeartbeatMessages;
        int sent = await Task.Run(() =>
        {
            for (int i = 0; i < total; i++)
            {
                string n = i.ToString(CultureInfo.InvariantCulture);
                if (!dealer.Send(Encoding.ASCII.GetBytes("f0-" + n), more: true)
                    || !dealer.Send(Encoding.ASCII.GetBytes("f1-" + n), more: true)
                    || !dealer.Send(Encoding.ASCII.GetBytes("f2-" + n)))
                {
                    return i;
                }
            }

            return total;
        }, cancel).ConfigureAwait(false);
        if (sent < total)
        {
            Results.Note($"{Results.Name(kind)}, {section}: only {sent:N0} sent (the server stopped taking them).");
        }

        long received = -1;
        var last = DateTime.UtcNow;
        Dictionary<string, long>? stats = null;
        while (server.Alive && DateTime.UtcNow - last < NoProgress)
        {
            stats = await server.StatsAsync().ConfigureAwait(false);
            long now = stats?.GetValueOrDefault("received") ?? -1;
            if (stats is null || stats.GetValueOrDefault("intact") >= total)
            {
                break;
            }

            if (now != received)
            {
                received = now;
                last = DateTime.UtcNow;
            }

            await Task.Delay(ScaleConstants.SampleInterval, cancel).ConfigureAwait(false);
        }

        if (stats is null || !server.Alive)
        {
            Set(section, "messages intact", kind, Failure(server, "no answer to stats"));
            return;
        }

        Set(section, "messages intact", kind, Cell.Count(stats.GetValueOrDefault("intact")));
        long broken = stats.GetValueOrDefault("broken");
        Set(section, "messages split or altered", kind, broken == 0 ? Cell.Count(0) : new Cell(broken, $"**{broken:N0}**"));
    }
}
