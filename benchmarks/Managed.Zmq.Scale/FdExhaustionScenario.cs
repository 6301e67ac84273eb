using System.Diagnostics;
using System.Globalization;

namespace Managed.Zmq.Scale;

/// <summary>
/// fd exhaustion: the server runs under <c>prlimit --nofile=N:N</c>; plain TCP connections (no
/// ZMTP) flood it past that limit and are held; is it alive, how much CPU does it burn meanwhile
/// (an accept loop spinning on EMFILE shows here), and does it serve a new client once they close?
/// </summary>
internal sealed class FdExhaustionScenario(ScaleOptions options, Results results) : Scenario(options, results)
{
    private static readonly TimeSpan FloodConnectTimeout = TimeSpan.FromSeconds(1);

    public override string Name => "fd";

    public override TimeSpan Budget => TimeSpan.FromSeconds(90 + Options.FdHold.TotalSeconds + (Options.FdFlood / 32.0));

    public override async Task RunAsync(ServerKind kind, CancellationToken cancel)
    {
        string section = string.Format(CultureInfo.InvariantCulture, "fd exhaustion: RLIMIT_NOFILE {0:N0}, {1:N0} plain TCP connects", Options.FdLimit, Options.FdFlood);
        await using var server = await ServerProcess.StartAsync(Options, kind, "echo", nofile: Options.FdLimit).ConfigureAwait(false);
        using (var before = Dealer(server.Port))
        {
            if (!await Task.Run(() => RoundTrip(before, new byte[64]), cancel).ConfigureAwait(false))
            {
                Set(section, "serves before the flood", kind, Failure(server, "no reply"));
                return;
            }
        }

        var flood = new List<System.Net.Sockets.Socket>();
        try
        {
            await OpenConnectionsAsync(Options.FdFlood, async token =>
            {
                var socket = RawZmtp.NewTcp();
                try
                {
                    using var step = CancellationTokenSource.CreateLinkedTokenSource(token);
                    step.CancelAfter(FloodConnectTimeout);
                    await socket.ConnectAsync(RawZmtp.Loopback(server.Port), step.Token).ConfigureAwait(false);
                    return socket;
                }
                catch
                {
                    socket.Dispose();
                    throw;
                }
            }, flood, cancel).ConfigureAwait(false);
            Set(section, "connections the kernel completed", kind, Cell.Count(flood.Count));

            var cpuBefore = server.CpuTime();
            var hold = Stopwatch.StartNew();
            bool aliveThroughout;
            Cell peak;
            await using (var sampler = new RssSampler(server, Options.RssCap))
            {
                while (hold.Elapsed < Options.FdHold && server.Alive && !sampler.CapReached.IsCancellationRequested)
                {
                    await Task.Delay(ScaleConstants.SampleInterval, cancel).ConfigureAwait(false);
                }

                aliveThroughout = server.Alive;
                peak = PeakCell(sampler);
            }

            var cpuAfter = server.CpuTime();
            Set(section, "server during the flood", kind, aliveThroughout && server.Alive ? Cell.Plain("alive") : Cell.Fail(server.Fate()));
            if (cpuBefore is { } a && cpuAfter is { } b)
            {
                Set(section, "server CPU while held (% of one core)", kind, Cell.Percent(100 * (b - a).TotalSeconds / hold.Elapsed.TotalSeconds));
            }

            Set(section, "server RSS peak while held", kind, peak);
        }
        finally
        {
            CloseAll(flood);
        }

        if (!server.Alive)
        {
            Set(section, "serves a new client afterwards: first reply in", kind, Cell.Fail(server.Fate()));
            return;
        }

        var started = Stopwatch.StartNew();
        using var after = Dealer(server.Port);
        bool served = await Task.Run(() => RoundTrip(after, new byte[64]), cancel).ConfigureAwait(false);
        Set(section, "serves a new client afterwards: first reply in", kind, served
            ? Cell.Millis(started.Elapsed.TotalMilliseconds)
            : Failure(server, $"no reply in {ScaleConstants.StepTimeout.TotalSeconds:N0} s"));
    }
}
