using System.Globalization;

namespace Managed.Zmq.Scale;

/// <summary>
/// Round trips/s of one legitimate libzmq DEALER against the server's ROUTER while idle
/// connections pile up: NULL-handshaken ones (<c>idle</c>), or ones that sent only a greeting to a
/// CURVE ROUTER (<c>curve-idle</c>; both servers drop those at their 30 s handshake interval, so
/// the measure is taken right after they are open).
/// </summary>
internal sealed class IdleConnectionsScenario(ScaleOptions options, Results results, bool curve) : Scenario(options, results)
{
    public override string Name => curve ? "curve-idle" : "idle";

    public override TimeSpan Budget => TimeSpan.FromSeconds(60 + (Counts.Max() / 100.0) + (Counts.Count * 2 * Options.RoundTripWindow.TotalSeconds));

    private List<int> Counts => curve ? [0, Options.CurveIdle] : Options.IdleCounts;

    private string Section => curve ? "greeting-only connections to a CURVE ROUTER" : "idle handshaken connections (NULL)";

    public override async Task RunAsync(ServerKind kind, CancellationToken cancel)
    {
        var serverKeys = curve ? NativeSocket.CurveKeypair() : default;
        var clientKeys = curve ? NativeSocket.CurveKeypair() : default;
        await using var server = await ServerProcess.StartAsync(Options, kind, "echo",
            curve ? ["--curve-secret", serverKeys.Secret] : null).ConfigureAwait(false);
        using var dealer = Dealer(server.Port, curve ? (serverKeys.Public, clientKeys.Public, clientKeys.Secret) : null);
        var idle = new List<System.Net.Sockets.Socket>();
        try
        {
            bool warm = await Task.Run(() =>
            {
                var buffer = new byte[64];
                for (int i = 0; i < 100; i++)
                {
                    if (!RoundTrip(dealer, buffer))
                    {
                        return false;
                    }
                }

                return true;
            }, cancel).ConfigureAwait(false);
            if (!warm)
            {
                Set(Section, "legitimate client", kind, Failure(server, "no reply to the first requests"));
                return;
            }

            double? baseline = null;
            foreach (int count in Counts)
            {
                string label = string.Format(CultureInfo.InvariantCulture, "round trips/s, {0:N0} idle", count);
                var opening = System.Diagnostics.Stopwatch.StartNew();
                int failures = await OpenConnectionsAsync(count, curve ? GreetingOnlyAsync(server.Port) : HandshakenAsync(server.Port), idle, cancel).ConfigureAwait(false);
                if (idle.Count < count)
                {
                    Results.Note($"{Results.Name(kind)}, {Section}: opened {idle.Count:N0} of {count:N0} ({failures:N0} attempts failed).");
                }

                if (!server.Alive)
                {
                    Set(Section, label, kind, Cell.Fail(server.Fate()));
                    return;
                }

                double openSeconds = opening.Elapsed.TotalSeconds;
                var (cell, ok) = await Task.Run(() => MeasureRoundTrips(dealer, server, Options.RoundTripWindow), cancel).ConfigureAwait(false);
                Set(Section, label, kind, cell);
                if (count > 0)
                {
                    // Opening them can outlast the server's handshake interval: say how many were really there.
                    Set(Section, string.Format(CultureInfo.InvariantCulture, "… time to open them / still open after the measure, {0:N0} idle", count), kind,
                        new Cell(openSeconds, string.Format(CultureInfo.InvariantCulture, "{0:N1} s / {1:N0}", openSeconds, CountOpen(idle)), Comparable: false));
                }

                if (!ok)
                {
                    return;
                }

                if (count == 0)
                {
                    baseline = cell.Value;
                }
                else if (baseline is { } none && cell.Value is { } rate)
                {
                    Set(Section, string.Format(CultureInfo.InvariantCulture, "… as % of the rate with none, {0:N0} idle", count), kind, Cell.Percent(100 * rate / none));
                }

                Set(Section, string.Format(CultureInfo.InvariantCulture, "server RSS, {0:N0} idle", count), kind, Cell.Bytes(server.Rss()));
            }
        }
        finally
        {
            CloseAll(idle);
        }
    }

    private static Func<CancellationToken, Task<System.Net.Sockets.Socket>> HandshakenAsync(int port) =>
        cancel => RawZmtp.NullHandshakeAsync(port, "DEALER", cancel);

    private static Func<CancellationToken, Task<System.Net.Sockets.Socket>> GreetingOnlyAsync(int port) => async cancel =>
    {
        var socket = await RawZmtp.ConnectAsync(port, cancel).ConfigureAwait(false);
        try
        {
            using var step = CancellationTokenSource.CreateLinkedTokenSource(cancel);
            step.CancelAfter(ScaleConstants.StepTimeout);
            await RawZmtp.SendAsync(socket, RawZmtp.Greeting("CURVE"), step.Token).ConfigureAwait(false);
            // The server's greeting back shows it accepted the connection: waiting for it paces
            // the opening to the server's accept rate instead of overflowing its listen backlog.
            await RawZmtp.ReadExactAsync(socket, new byte[64], step.Token).ConfigureAwait(false);
            return socket;
        }
        catch
        {
            socket.Dispose();
            throw;
        }
    };
}
