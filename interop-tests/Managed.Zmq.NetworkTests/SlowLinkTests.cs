using System.Diagnostics;
using Managed.Zmq.NetworkTests.Harness;
using Xunit.Abstractions;

namespace Managed.Zmq.NetworkTests;

/// <summary>
/// A slow link (the fault proxy at 1 MB/s with 50 ms latency) under a producer that offers far
/// more than it carries: HWM back-pressure makes sends fail with DontWait instead of queueing, the
/// nodes' memory stays flat, and every message arrives once, in order. NULL and CURVE.
/// </summary>
public sealed class SlowLinkTests(ITestOutputHelper output)
{
    private const int Hwm = 100;
    private const int PayloadBytes = 1000;
    private const long LinkBytesPerSecond = 1_000_000;
    private const int LinkDelayMs = 50;
    private const int ProxyPort = 6000;

    /// <summary>What one non-blocking pump offers: ten times what the link carries in a second.</summary>
    private const int Offered = 10_000;

    /// <summary>
    /// The receiver drains until nothing arrives for this long: well beyond any pause of the link, so
    /// that only the end of the run ends it, even on a loaded machine that stalls a node for seconds.
    /// </summary>
    private const int DrainIdleMs = 5000;

    /// <summary>
    /// How long the producer runs, in seconds: a minute for NULL against libzmq both ways (memory must stay flat
    /// over a long run), a few seconds for the other cases. The assertions are about counts and memory, not time.
    /// </summary>
    private const int LongRunSeconds = 60;

    private const int ShortRunSeconds = 3;

    /// <summary>Memory growth allowed to a node while it is offered ~10 MB a round: far below what an unbounded queue would take.</summary>
    private const long RssGrowthLimit = 64L * 1024 * 1024;

    [Theory]
    [InlineData(NodeKind.Ours, NodeKind.Ours, false, ShortRunSeconds)]
    [InlineData(NodeKind.Ours, NodeKind.LibZmq, false, LongRunSeconds)]
    [InlineData(NodeKind.LibZmq, NodeKind.Ours, false, LongRunSeconds)]
    [InlineData(NodeKind.Ours, NodeKind.LibZmq, true, ShortRunSeconds)]
    [InlineData(NodeKind.LibZmq, NodeKind.Ours, true, ShortRunSeconds)]
    public Task FastProducer_OverSlowLink_HwmBoundsQueueAndMemoryAndNothingIsLost(NodeKind pusher, NodeKind puller, bool curve, int seconds) => Deadline.Run(() =>
    {
        var producing = TimeSpan.FromSeconds(seconds);
        using var net = new TestNetwork();
        Host serverHost = net.AddHost();
        Host clientHost = net.AddHost();
        Node server = serverHost.Start(puller);
        Node client = clientHost.Start(pusher);
        var keys = Setup.Security(curve);
        ProxyNode proxy = clientHost.StartProxy(ProxyPort, serverHost.Address, Setup.Port);
        proxy.Rate(LinkBytesPerSecond);
        proxy.Delay(LinkDelayMs);

        server.Socket("s", "pull");
        Setup.Resilient(server, "s", heartbeats: false);
        keys?.MakeServer(server, "s");
        server.Option("s", ZmqOption.RcvHwm, Hwm);
        server.Bind("s", Setup.Endpoint(serverHost));

        client.Socket("c", "push");
        Setup.Resilient(client, "c", heartbeats: false);
        keys?.MakeClient(client, "c");
        client.Option("c", ZmqOption.SndHwm, Hwm);
        client.Monitor("c");
        client.Connect("c", $"tcp://127.0.0.1:{ProxyPort}");
        client.WaitFor("c", "handshake_succeeded");

        string payload = new('x', PayloadBytes);
        long serverRssStart = Rss(server);
        var received = Deadline.Start(() => server.Drain("s", DrainIdleMs));
        long sent = 0, rounds = 0, heldBack = 0;
        // The receiving node is busy draining (one command at a time), so only the sender is sampled
        // during the run; the receiver is compared before and after.
        long clientRssStart = Rss(client), clientRssMax = 0;
        var clock = Stopwatch.StartNew();
        while (clock.Elapsed < producing)
        {
            // Offer far more than the link carries: only what the HWM admits may be taken.
            long taken = client.Pump("c", "m", sent, Offered, dontWait: true, payload);
            sent += taken;
            rounds++;
            heldBack += taken < Offered ? 1 : 0;

            // Then a blocking send paces the loop at the link's speed.
            sent += client.Pump("c", "m", sent, Hwm, dontWait: false, payload);
            clientRssMax = Math.Max(clientRssMax, Rss(client));
        }

        Sequence got = received.Result;
        long serverRssMax = Rss(server);
        string stats = proxy.Stats();
        Assert.Equal(rounds, heldBack);
        Assert.Equal(new Sequence(sent, sent, 0, 0, sent - 1, 1), got);
        Assert.InRange(clientRssMax - clientRssStart, long.MinValue, RssGrowthLimit);
        Assert.InRange(serverRssMax - serverRssStart, long.MinValue, RssGrowthLimit);
        output.WriteLine($"{pusher} PUSH -> proxy ({LinkBytesPerSecond} B/s, {LinkDelayMs} ms) -> {puller} PULL, {(curve ? "CURVE" : "NULL")}, HWM {Hwm}, {PayloadBytes} B messages");
        output.WriteLine($"{rounds} rounds offering {Offered} each, all held back at HWM; sent {sent} in {clock.Elapsed.TotalSeconds:F1} s, received {got}");
        output.WriteLine($"RSS growth: sender {(clientRssMax - clientRssStart) / 1024} KiB, receiver {(serverRssMax - serverRssStart) / 1024} KiB; proxy {stats}");
    }, TimeSpan.FromSeconds(seconds));

    private static long Rss(Node node) =>
        long.Parse(node.Ok("stat").Split(' ').First(f => f.StartsWith("rss=", StringComparison.Ordinal))[4..]);
}
