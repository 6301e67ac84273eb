using System.Diagnostics;
using System.Globalization;
using Managed.Zmq.NetworkTests.Harness;
using Managed.Zmq.Buffers;
using Managed.Zmq.Options;
using Managed.Zmq.Security.Zap;

namespace Managed.Zmq.Soak;

/// <summary>
/// The network soak: a PUSH node and a PULL node in their own namespaces (the network tests'
/// harness), heartbeats on, the link cut for a few seconds at a fixed period. Every second it
/// sends a burst of numbered messages, drains the receiver and samples both nodes' RSS, threads
/// and open handles; at the end it reports lost, duplicated and reordered messages and writes a
/// CSV and an SVG plot of RSS and throughput over time.
/// </summary>
/// <remarks>
/// Order is checked against what PUSH/PULL promise: FIFO per pipe. Our PUSH connects, so one pipe
/// numbers every message in order and each connection carries its share in order; the PULL binds,
/// so each connection is a pipe of its own, and it fair-queues them: what an old connection still
/// held when a new one began (a heartbeat timeout on a busy node ends a connection whose messages
/// are still queued) comes in turn with the new one's, with libzmq's PULL as with ours. So
/// "reordered" (below the highest number seen) is reported, and the check is that the arrival order
/// splits into no more increasing runs than the PULL accepted connections.
/// </remarks>
internal static class NetworkSoak
{
    private const int BurstPerSecond = 5000;
    private const int PayloadBytes = 100;
    private const int Hwm = 1000;
    private const int PartitionSeconds = 2;

    public static int Run(TimeSpan duration, int partitionEverySeconds, NodeKind peer, string outputPrefix)
    {
        using var net = new TestNetwork();
        Host serverHost = net.AddHost();
        Host clientHost = net.AddHost();
        Node server = serverHost.Start(peer);
        Node client = clientHost.Start(NodeKind.Ours);

        server.Socket("s", "pull");
        Setup.Resilient(server, "s");
        server.Option("s", ZmqOption.RcvHwm, Hwm);
        server.Monitor("s");
        server.Bind("s", Setup.Endpoint(serverHost));
        client.Socket("c", "push");
        Setup.Resilient(client, "c");
        client.Option("c", ZmqOption.SndHwm, Hwm);
        client.Monitor("c");
        client.Connect("c", Setup.Endpoint(serverHost));
        client.WaitFor("c", "handshake_succeeded");

        string payload = new('x', PayloadBytes);
        var samples = new List<Sample>();
        long sent = 0, refused = 0, partitions = 0, disconnects = 0, reconnects = 0, accepted = 0;
        Sequence got = default;
        bool cut = false;
        var clock = Stopwatch.StartNew();
        Console.WriteLine($"network soak: {duration.TotalSeconds} s, ours PUSH -> {peer} PULL, link cut for {PartitionSeconds} s every {partitionEverySeconds} s");
        for (int second = 1; clock.Elapsed < duration; second++)
        {
            if (!cut && second % partitionEverySeconds == 0)
            {
                net.Cut(clientHost);
                cut = true;
                partitions++;
            }
            else if (cut && second % partitionEverySeconds == PartitionSeconds)
            {
                net.Heal(clientHost);
                cut = false;
            }

            long taken = client.Pump("c", "m", sent, BurstPerSecond, dontWait: true, payload);
            sent += taken;
            refused += BurstPerSecond - taken;
            long before = got.Count;
            got = server.Drain("s", 50);
            foreach (var e in client.Events("c"))
            {
                disconnects += e.Name == "disconnected" ? 1 : 0;
                reconnects += e.Name == "handshake_succeeded" ? 1 : 0;
            }

            accepted += server.Events("s").Count(e => e.Name == "handshake_succeeded");

            var (clientRss, clientThreads, clientHandles) = Stat(client);
            var (serverRss, serverThreads, serverHandles) = Stat(server);
            samples.Add(new Sample(clock.Elapsed.TotalSeconds, clientRss, serverRss, got.Count - before, clientThreads, clientHandles, serverThreads, serverHandles, cut));
            if (second % 10 == 0)
            {
                Console.WriteLine($"{second,5} s: sent {sent} received {got.Count} | ours RSS {clientRss / 1048576.0:F1} MiB threads {clientThreads} handles {clientHandles} | peer RSS {serverRss / 1048576.0:F1} MiB");
            }

            long wait = second * 1000L - clock.ElapsedMilliseconds;
            if (wait > 0)
            {
                Thread.Sleep((int)wait); // the soak's sampling period, not a synchronisation
            }
        }

        if (cut)
        {
            net.Heal(clientHost);
            client.WaitFor("c", "handshake_succeeded", timeoutMilliseconds: 30_000);
        }

        got = server.Drain("s", 2000);
        accepted += server.Events("s").Count(e => e.Name == "handshake_succeeded");
        long lost = sent - got.Unique;
        File.WriteAllLines(outputPrefix + ".csv", ["seconds,ours_rss,peer_rss,received_per_s,ours_threads,ours_handles,peer_threads,peer_handles,partitioned", .. samples.Select(s => s.Csv())]);
        File.WriteAllText(outputPrefix + ".svg", SoakPlot.Render(samples, $"ours PUSH -> {peer} PULL over a link cut for {PartitionSeconds} s every {partitionEverySeconds} s ({duration.TotalMinutes:F0} min)"));
        bool inOrder = got.Runs <= accepted;
        Console.WriteLine($"sent {sent} (refused at HWM {refused}), received {got.Count}: lost {lost}, duplicated {got.Duplicates}, reordered {got.Reordered} (below the highest seen)");
        Console.WriteLine($"order: {got.Runs} increasing runs over {accepted} connections accepted by the PULL: {(inOrder ? "FIFO per connection" : "FIFO PER CONNECTION BROKEN")}");
        Console.WriteLine($"partitions {partitions}, disconnects seen by the PUSH {disconnects}, handshakes {reconnects}");
        Console.WriteLine($"ours RSS first/last/max {Mib(samples[0].OursRss)}/{Mib(samples[^1].OursRss)}/{Mib(samples.Max(s => s.OursRss))} MiB, threads {samples[0].OursThreads}->{samples[^1].OursThreads}, handles {samples[0].OursHandles}->{samples[^1].OursHandles}");
        Console.WriteLine($"wrote {outputPrefix}.csv and {outputPrefix}.svg");

        // PUSH promises no delivery across a lost connection (what was in flight when the link went
        // is gone), so loss is reported, not failed, and so is reordering across connections (see
        // the remarks); a duplicate, or disorder within a connection, is a failure.
        return got.Duplicates == 0 && inOrder ? 0 : 1;
    }

    private static string Mib(long bytes) => (bytes / 1048576.0).ToString("F1", CultureInfo.InvariantCulture);

    private static (long Rss, long Threads, long Handles) Stat(Node node)
    {
        var f = node.Ok("stat").Split(' ').Select(p => p.Split('=')).ToDictionary(p => p[0], p => long.Parse(p[1], CultureInfo.InvariantCulture));
        return (f["rss"], f["threads"], f["handles"]);
    }
}

/// <summary>One second of the network soak.</summary>
internal readonly record struct Sample(double Seconds, long OursRss, long PeerRss, long Received, long OursThreads, long OursHandles, long PeerThreads, long PeerHandles, bool Partitioned)
{
    public string Csv() => string.Create(CultureInfo.InvariantCulture, $"{Seconds:F1},{OursRss},{PeerRss},{Received},{OursThreads},{OursHandles},{PeerThreads},{PeerHandles},{(Partitioned ? 1 : 0)}");
}
