using System.Diagnostics;

namespace Managed.Zmq.Scale;

/// <summary>One scenario run against one server: where its rows go, and the helpers every scenario shares.</summary>
internal abstract class Scenario
{
    protected Scenario(ScaleOptions options, Results results)
    {
        Options = options;
        Results = results;
    }

    /// <summary>The name <c>--only</c> selects it by.</summary>
    public abstract string Name { get; }

    /// <summary>How long one run may take in all before it is cut off and its server killed.</summary>
    public abstract TimeSpan Budget { get; }

    protected ScaleOptions Options { get; }

    protected Results Results { get; }

    public abstract Task RunAsync(ServerKind kind, CancellationToken cancel);

    protected void Set(string section, string measure, ServerKind kind, Cell cell) => Results.Set(section, measure, kind, cell);

    /// <summary>Why a server stopped answering: dead (and how) or stalled.</summary>
    protected static Cell Failure(ServerProcess server, string stalled) =>
        server.Alive ? Cell.Fail(stalled) : Cell.Fail(server.Fate());

    protected static async Task<Cell> RssAfterGcAsync(ServerProcess server)
    {
        if (!await server.ForceGcAsync().ConfigureAwait(false))
        {
            return Failure(server, $"stalled: no answer to gc in {ScaleConstants.ControlTimeout.TotalSeconds:N0} s");
        }

        var rss = server.Rss();
        Console.Error.WriteLine($"  [{Results.Name(server.Kind)}] after gc: {server.RssBreakdown()}");
        return Cell.Bytes(rss);
    }

    /// <summary>RSS after glibc's <c>malloc_trim(0)</c> in the server: what remains once malloc hands back its free pages.</summary>
    protected static async Task<Cell> RssAfterTrimAsync(ServerProcess server)
    {
        if (!await server.TrimAsync().ConfigureAwait(false))
        {
            return Failure(server, $"stalled: no answer to trim in {ScaleConstants.ControlTimeout.TotalSeconds:N0} s");
        }

        var rss = server.Rss();
        Console.Error.WriteLine($"  [{Results.Name(server.Kind)}] after trim: {server.RssBreakdown()}");
        return Cell.Bytes(rss);
    }

    /// <summary>A libzmq DEALER connected to <paramref name="port"/>, with the step timeout on sends and receives.</summary>
    protected static NativeSocket Dealer(int port, (string ServerPublic, string Public, string Secret)? curve = null, int heartbeatIvl = 0)
    {
        var dealer = new NativeSocket(LibZmq.ZMQ_DEALER);
        dealer.SetInt(LibZmq.ZMQ_RCVTIMEO, (int)ScaleConstants.StepTimeout.TotalMilliseconds);
        dealer.SetInt(LibZmq.ZMQ_SNDTIMEO, (int)ScaleConstants.StepTimeout.TotalMilliseconds);
        if (heartbeatIvl > 0)
        {
            dealer.SetInt(LibZmq.ZMQ_HEARTBEAT_IVL, heartbeatIvl);
            // libzmq's timeout defaults to the interval: on a loaded machine one PONG later than
            // 1 ms would drop the connection and the messages queued on it, whichever the server.
            dealer.SetInt(LibZmq.ZMQ_HEARTBEAT_TIMEOUT, (int)ScaleConstants.StepTimeout.TotalMilliseconds);
        }

        if (curve is { } keys)
        {
            dealer.SetString(LibZmq.ZMQ_CURVE_SERVERKEY, keys.ServerPublic);
            dealer.SetString(LibZmq.ZMQ_CURVE_PUBLICKEY, keys.Public);
            dealer.SetString(LibZmq.ZMQ_CURVE_SECRETKEY, keys.Secret);
        }

        dealer.Connect($"tcp://127.0.0.1:{port}");
        return dealer;
    }

    /// <summary>One round trip; false when no reply came within the step timeout.</summary>
    protected static bool RoundTrip(NativeSocket dealer, Span<byte> buffer)
    {
        ReadOnlySpan<byte> request = "ping"u8;
        return dealer.Send(request) && dealer.Recv(buffer) >= 0;
    }

    /// <summary>
    /// Round trips per second over <paramref name="window"/> (blocking; run it off the async path);
    /// a failure cell if one round trip took longer than the step timeout.
    /// </summary>
    protected static (Cell Cell, bool Ok) MeasureRoundTrips(NativeSocket dealer, ServerProcess server, TimeSpan window)
    {
        var buffer = new byte[64];
        long count = 0;
        var clock = Stopwatch.StartNew();
        while (clock.Elapsed < window)
        {
            if (!RoundTrip(dealer, buffer))
            {
                return (Failure(server, $"stalled: no reply in {ScaleConstants.StepTimeout.TotalSeconds:N0} s"), false);
            }

            count++;
        }

        return (Cell.Rate(count / clock.Elapsed.TotalSeconds), true);
    }

    /// <summary>
    /// Opens connections with <paramref name="open"/>, <see cref="ScaleConstants.ConnectConcurrency"/>
    /// at a time, until <paramref name="into"/> holds <paramref name="target"/>; gives up after a run
    /// of consecutive failures. Returns how many attempts failed.
    /// </summary>
    protected static async Task<int> OpenConnectionsAsync(int target, Func<CancellationToken, Task<System.Net.Sockets.Socket>> open,
        List<System.Net.Sockets.Socket> into, CancellationToken cancel, int concurrency = ScaleConstants.ConnectConcurrency)
    {
        int remaining;
        lock (into)
        {
            remaining = target - into.Count;
        }

        int failures = 0, consecutive = 0;
        async Task Worker()
        {
            while (Interlocked.Decrement(ref remaining) >= 0 && !cancel.IsCancellationRequested
                && Volatile.Read(ref consecutive) < 2 * concurrency)
            {
                try
                {
                    var socket = await open(cancel).ConfigureAwait(false);
                    lock (into)
                    {
                        into.Add(socket);
                    }

                    Volatile.Write(ref consecutive, 0);
                }
                catch (Exception e) when (e is not OperationCanceledException || !cancel.IsCancellationRequested)
                {
                    Interlocked.Increment(ref failures);
                    Interlocked.Increment(ref consecutive);
                }
            }
        }

        await Task.WhenAll(Enumerable.Range(0, concurrency).Select(_ => Task.Run(Worker, CancellationToken.None))).ConfigureAwait(false);
        return failures;
    }

    /// <summary>How many of <paramref name="sockets"/> the server has not closed: what it sent is drained, then a readable socket with nothing to read has seen EOF (or a reset).</summary>
    protected static int CountOpen(List<System.Net.Sockets.Socket> sockets)
    {
        var sink = new byte[4096];
        int open = 0;
        lock (sockets)
        {
            foreach (var socket in sockets)
            {
                try
                {
                    while (socket.Available > 0)
                    {
                        socket.Receive(sink);
                    }

                    if (!socket.Poll(0, System.Net.Sockets.SelectMode.SelectRead))
                    {
                        open++;
                    }
                }
                catch (System.Net.Sockets.SocketException)
                {
                    // Reset by the server: closed.
                }
            }
        }

        return open;
    }

    protected static void CloseAll(List<System.Net.Sockets.Socket> sockets)
    {
        lock (sockets)
        {
            foreach (var socket in sockets)
            {
                socket.Dispose();
            }

            sockets.Clear();
        }
    }

    /// <summary>
    /// Samples the server's RSS until disposed; <see cref="Peak"/> is the largest seen. Once it
    /// passes <see cref="ScaleOptions.RssCap"/>, <see cref="CapReached"/> is cancelled: a leaking
    /// server must not take the shared machine down with it.
    /// </summary>
    protected sealed class RssSampler : IAsyncDisposable
    {
        private readonly CancellationTokenSource _stop = new();
        private readonly CancellationTokenSource _cap = new();
        private readonly Task _loop;

        public RssSampler(ServerProcess server, long cap)
        {
            _loop = Task.Run(async () =>
            {
                while (!_stop.IsCancellationRequested)
                {
                    if (server.Rss() is { } rss && rss > Peak)
                    {
                        Peak = rss;
                        if (rss >= cap && !_cap.IsCancellationRequested)
                        {
                            await _cap.CancelAsync().ConfigureAwait(false);
                        }
                    }

                    try
                    {
                        await Task.Delay(ScaleConstants.SampleInterval, _stop.Token).ConfigureAwait(false);
                    }
                    catch (OperationCanceledException)
                    {
                        break;
                    }
                }
            });
        }

        public long Peak { get; private set; }

        public CancellationToken CapReached => _cap.Token;

        public async ValueTask DisposeAsync()
        {
            await _stop.CancelAsync().ConfigureAwait(false);
            await _loop.ConfigureAwait(false);
            _stop.Dispose();
            _cap.Dispose();
        }
    }

    /// <summary>A peak RSS, marked when it reached the cap and the load was stopped there.</summary>
    protected Cell PeakCell(RssSampler sampler) => sampler.CapReached.IsCancellationRequested
        ? Cell.Fail($"≥ {Options.RssCap / 1e6:N0} MB (--rss-cap: load stopped)")
        : Cell.Bytes(sampler.Peak);
}
