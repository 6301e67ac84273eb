using System.Diagnostics;
using System.Globalization;
using System.Text;

namespace Managed.Zmq.Scale;

/// <summary>
/// The longest delivery gap to an existing subscriber (a libzmq SUB on "tick") while a raw peer
/// sends N distinct subscriptions (none matching "tick") to the server's PUB, ticking every
/// millisecond, and to an XPUB whose application also reads them.
/// </summary>
internal sealed class SubscriptionFloodScenario(ScaleOptions options, Results results) : Scenario(options, results)
{
    public override string Name => "subs";

    public override TimeSpan Budget => TimeSpan.FromSeconds((Options.PubSubscriptions.Count + 1) * (30 + (2 * Options.StallCap.TotalSeconds) + Options.SubscriptionSettle.TotalSeconds));

    public override async Task RunAsync(ServerKind kind, CancellationToken cancel)
    {
        foreach (int count in Options.PubSubscriptions)
        {
            await RunOneAsync(kind, "pub", count, cancel).ConfigureAwait(false);
        }

        await RunOneAsync(kind, "xpub", Options.XpubSubscriptions, cancel).ConfigureAwait(false);
    }

    private async Task RunOneAsync(ServerKind kind, string mode, int count, CancellationToken cancel)
    {
        string section = string.Format(CultureInfo.InvariantCulture, "{0:N0} distinct subscriptions to {1}", count, mode == "pub" ? "a PUB" : "an XPUB");
        await using var server = await ServerProcess.StartAsync(Options, kind, mode).ConfigureAwait(false);
        using var watcher = new TickWatcher(server.Port);
        if (!watcher.WaitFirstTick(ScaleConstants.StepTimeout))
        {
            Set(section, "longest delivery gap", kind, Failure(server, "no tick reached the subscriber"));
            return;
        }

        await Task.Delay(TimeSpan.FromMilliseconds(500), cancel).ConfigureAwait(false);
        Set(section, "longest gap before the flood", kind, Cell.Millis(watcher.TakeLongestGap().TotalMilliseconds));

        using var attacker = await RawZmtp.NullHandshakeAsync(server.Port, "SUB", cancel).ConfigureAwait(false);
        var clock = Stopwatch.StartNew();
        using var writing = CancellationTokenSource.CreateLinkedTokenSource(cancel);
        writing.CancelAfter(Options.StallCap);
        bool written;
        try
        {
            await WriteSubscriptionsAsync(attacker, count, writing.Token).ConfigureAwait(false);
            written = true;
        }
        catch (Exception e) when (e is OperationCanceledException or System.Net.Sockets.SocketException or IOException && !cancel.IsCancellationRequested)
        {
            written = false;
        }

        var writeTime = clock.Elapsed;
        Set(section, "all subscriptions written in", kind, written
            ? Cell.Millis(writeTime.TotalMilliseconds)
            : Failure(server, $"not accepted within {Options.StallCap.TotalSeconds:N0} s"));

        // Keep measuring for the settle time; a gap still open then is followed until a tick ends it or the cap.
        await Task.Delay(Options.SubscriptionSettle, cancel).ConfigureAwait(false);
        while (watcher.CurrentGap > Options.SubscriptionSettle && watcher.CurrentGap < Options.StallCap && server.Alive)
        {
            await Task.Delay(ScaleConstants.SampleInterval, cancel).ConfigureAwait(false);
        }

        var longest = watcher.TakeLongestGap();
        Cell gap = !server.Alive ? Cell.Fail(server.Fate())
            : longest >= Options.StallCap ? Cell.Fail($"stalled ≥ {longest.TotalSeconds:N0} s")
            : Cell.Millis(longest.TotalMilliseconds);
        Set(section, "longest delivery gap", kind, gap);
        if (mode == "xpub" && await server.StatsAsync().ConfigureAwait(false) is { } stats)
        {
            Set(section, "subscriptions the application read (with the subscriber's own)", kind, Cell.Count(stats.GetValueOrDefault("subscriptions")));
        }

        Set(section, "server RSS after", kind, Cell.Bytes(server.Rss()));
    }

    private static async Task WriteSubscriptionsAsync(System.Net.Sockets.Socket attacker, int count, CancellationToken cancel)
    {
        var batch = new MemoryStream(64 * 1024);
        var topic = new byte[16];
        for (int i = 0; i < count; i++)
        {
            int length = Encoding.ASCII.GetBytes(string.Create(CultureInfo.InvariantCulture, $"zz{i:D7}"), topic);
            batch.Write(RawZmtp.Subscription(topic.AsSpan(0, length)));
            if (batch.Length >= 60 * 1024 || i == count - 1)
            {
                await RawZmtp.SendAsync(attacker, batch.GetBuffer().AsMemory(0, (int)batch.Length), cancel).ConfigureAwait(false);
                batch.SetLength(0);
            }
        }
    }

    /// <summary>A libzmq SUB on its own thread, recording the longest time between two ticks.</summary>
    private sealed class TickWatcher : IDisposable
    {
        private readonly NativeSocket _sub = new(LibZmq.ZMQ_SUB);
        private readonly Thread _thread;
        private readonly ManualResetEventSlim _first = new();
        private volatile bool _stop;
        private long _last;
        private long _longest;

        public TickWatcher(int port)
        {
            _sub.SetInt(LibZmq.ZMQ_RCVTIMEO, 50);
            _sub.SetString(LibZmq.ZMQ_SUBSCRIBE, "tick");
            _sub.Connect($"tcp://127.0.0.1:{port}");
            _thread = new Thread(Loop) { IsBackground = true, Name = "tick watcher" };
            _thread.Start();
        }

        /// <summary>Time since the last tick arrived.</summary>
        public TimeSpan CurrentGap => Stopwatch.GetElapsedTime(Interlocked.Read(ref _last));

        public bool WaitFirstTick(TimeSpan timeout) => _first.Wait(timeout);

        /// <summary>The longest gap since the last call, counting a gap still open now.</summary>
        public TimeSpan TakeLongestGap()
        {
            long open = Stopwatch.GetTimestamp() - Interlocked.Read(ref _last);
            long longest = Math.Max(Interlocked.Exchange(ref _longest, 0), open);
            return Stopwatch.GetElapsedTime(0, longest);
        }

        public void Dispose()
        {
            _stop = true;
            _thread.Join();
            _sub.Dispose();
            _first.Dispose();
        }

        private void Loop()
        {
            var buffer = new byte[64];
            while (!_stop)
            {
                if (_sub.Recv(buffer) < 0)
                {
                    continue;
                }

                long now = Stopwatch.GetTimestamp();
                long last = Interlocked.Exchange(ref _last, now);
                if (_first.IsSet)
                {
                    long gap = now - last;
                    if (gap > Interlocked.Read(ref _longest))
                    {
                        Interlocked.Exchange(ref _longest, gap);
                    }
                }
                else
                {
                    _first.Set();
                }
            }
        }
    }
}
