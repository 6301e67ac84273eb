using System.Diagnostics;
using System.Net;
using System.Net.Sockets;

namespace Managed.Zmq.Scale;

/// <summary>
/// CURVE handshakes per second under a HELLO flood: raw connections send a greeting and a valid
/// HELLO (captured once from a libzmq client, replayed on every connection: each costs the server
/// a key agreement and a WELCOME), read the WELCOME and hang up. Beside it, a legitimate CURVE
/// client, connected before the flood, keeps making round trips, and a new one connects mid-flood.
/// </summary>
internal sealed class CurveHelloFloodScenario(ScaleOptions options, Results results) : Scenario(options, results)
{
    private const string Section = "CURVE HELLO flood";

    public override string Name => "curve-flood";

    public override TimeSpan Budget => TimeSpan.FromSeconds(60 + (2 * Options.CurveFloodDuration.TotalSeconds));

    public override async Task RunAsync(ServerKind kind, CancellationToken cancel)
    {
        var serverKeys = NativeSocket.CurveKeypair();
        var clientKeys = NativeSocket.CurveKeypair();
        var curve = (serverKeys.Public, clientKeys.Public, clientKeys.Secret);
        byte[] hello = await CaptureHelloAsync(curve, cancel).ConfigureAwait(false);
        byte[] opening = [.. RawZmtp.Greeting("CURVE"), .. hello];

        await using var server = await ServerProcess.StartAsync(Options, kind, "echo", ["--curve-secret", serverKeys.Secret]).ConfigureAwait(false);
        using var dealer = Dealer(server.Port, curve);
        if (!await Task.Run(() => RoundTrip(dealer, new byte[64]), cancel).ConfigureAwait(false))
        {
            Set(Section, "HELLOs answered with a WELCOME", kind, Failure(server, "the legitimate client got no reply"));
            return;
        }

        long welcomes = 0, failed = 0;
        var clock = Stopwatch.StartNew();
        async Task Flooder()
        {
            var greeting = new byte[64];
            while (clock.Elapsed < Options.CurveFloodDuration && !cancel.IsCancellationRequested)
            {
                try
                {
                    using var socket = await RawZmtp.ConnectAsync(server.Port, cancel).ConfigureAwait(false);
                    using var step = CancellationTokenSource.CreateLinkedTokenSource(cancel);
                    step.CancelAfter(ScaleConstants.StepTimeout);
                    await RawZmtp.SendAsync(socket, opening, step.Token).ConfigureAwait(false);
                    await RawZmtp.ReadExactAsync(socket, greeting, step.Token).ConfigureAwait(false);
                    var (_, welcome) = await RawZmtp.ReadFrameAsync(socket, step.Token).ConfigureAwait(false);
                    if (RawZmtp.IsCommand(welcome, "WELCOME"))
                    {
                        Interlocked.Increment(ref welcomes);
                    }
                    else
                    {
                        Interlocked.Increment(ref failed);
                    }
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

        var flood = Task.WhenAll(Enumerable.Range(0, Options.CurveFloodConnections).Select(_ => Task.Run(Flooder, CancellationToken.None)));
        var legitimate = Task.Run(() => MeasureRoundTrips(dealer, server, Options.CurveFloodDuration), CancellationToken.None);
        await Task.Delay(Options.CurveFloodDuration / 2, cancel).ConfigureAwait(false);
        var newcomer = Task.Run(() =>
        {
            var started = Stopwatch.StartNew();
            using var late = Dealer(server.Port, curve);
            return RoundTrip(late, new byte[64]) ? Cell.Millis(started.Elapsed.TotalMilliseconds) : Failure(server, $"no reply in {ScaleConstants.StepTimeout.TotalSeconds:N0} s");
        }, CancellationToken.None);
        await flood.ConfigureAwait(false);
        double seconds = clock.Elapsed.TotalSeconds;

        Set(Section, "HELLOs answered with a WELCOME", kind, !server.Alive ? Cell.Fail(server.Fate()) : Cell.Rate(welcomes / seconds));
        if (failed > 0)
        {
            Results.Note($"{Results.Name(kind)}, {Section}: {failed:N0} flood connections got no WELCOME ({welcomes:N0} did).");
        }

        Set(Section, "round trips/s of a CURVE client during it", kind, (await legitimate.ConfigureAwait(false)).Cell);
        Set(Section, "new CURVE client mid-flood: connect to first reply", kind, await newcomer.ConfigureAwait(false));
    }

    /// <summary>
    /// A valid HELLO command frame from a libzmq CURVE client for <paramref name="curve"/>'s server
    /// key: a listener of ours plays the server's greeting and keeps what the client sends next.
    /// </summary>
    private static async Task<byte[]> CaptureHelloAsync((string ServerPublic, string Public, string Secret) curve, CancellationToken cancel)
    {
        using var listener = new System.Net.Sockets.Socket(AddressFamily.InterNetwork, System.Net.Sockets.SocketType.Stream, ProtocolType.Tcp);
        listener.Bind(new IPEndPoint(IPAddress.Loopback, 0));
        listener.Listen(1);
        int port = ((IPEndPoint)listener.LocalEndPoint!).Port;
        using var step = CancellationTokenSource.CreateLinkedTokenSource(cancel);
        step.CancelAfter(ScaleConstants.StepTimeout);
        using var client = Dealer(port, curve);
        using var accepted = await listener.AcceptAsync(step.Token).ConfigureAwait(false);
        await RawZmtp.SendAsync(accepted, RawZmtp.Greeting("CURVE", asServer: true, minor: 0), step.Token).ConfigureAwait(false);
        await RawZmtp.ReadExactAsync(accepted, new byte[64], step.Token).ConfigureAwait(false);
        var (flags, payload) = await RawZmtp.ReadFrameAsync(accepted, step.Token).ConfigureAwait(false);
        if (!RawZmtp.IsCommand(payload, "HELLO"))
        {
            throw new InvalidDataException("the libzmq CURVE client sent no HELLO");
        }

        return RawZmtp.Frame(flags, payload);
    }
}
