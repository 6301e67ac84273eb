using System.Diagnostics;
using Managed.Zmq.Tests.Support;

namespace Managed.Zmq.Tests.Engine;

/// <summary>
/// End-to-end fuzzing (libzmq test_bind_null_fuzzer): mutated ZMTP byte streams into a live
/// listening socket over TCP, each on its own connection. The server must end every connection
/// exactly once, swallow no exception on an I/O thread, and keep serving a well-behaved client.
/// </summary>
public sealed class LiveFuzzTests : ResilienceFixture
{
    [Fact]
    public void Listener_300MutatedStreams_EveryConnectionEndsServerKeepsServing()
    {
        var guard = InternalErrorsGuard.Start();
        var server = Create(SocketType.Pull);
        server.SetOption(SocketOption.Handshake_Ivl, 250);
        using var monitor = Monitor(server, (int)(SocketMonitorEvent.Accepted | SocketMonitorEvent.Disconnected));
        string endpoint = BindTcp(server);
        int port = RawPeer.PortOf(endpoint);
        var fuzz = new FuzzHarness(seed: 4242);
        var random = new Random(4242);
        byte[] valid = ZmtpBytes.Concat(
            ZmtpBytes.Greeting(),
            ZmtpBytes.Ready("PUSH", ZmtpBytes.Property("X-Key", "value"u8)),
            ZmtpBytes.Message("one", more: true),
            ZmtpBytes.Message("two"),
            ZmtpBytes.Ping(1, "ctx"u8),
            ZmtpBytes.Frame(0, new byte[400]));

        for (int i = 0; i < 300; i++)
        {
            // Keep a valid prefix of random length so that mutations land in every phase.
            int keep = random.Next(valid.Length);
            byte[] stream = ZmtpBytes.Concat(valid[..keep], fuzz.Mutate(valid[keep..]));
            using (var peer = RawPeer.Connect(port))
            {
                peer.TrySend(stream);
                if (i % 3 == 0)
                {
                    peer.Abort();
                }
            }

            if (i % 50 == 49)
            {
                AssertServesGoodClient(server, endpoint);
            }
        }

        // Every accepted connection (300 fuzzed, 6 good clients) ends with exactly one DISCONNECTED.
        var clock = Stopwatch.StartNew();
        while (monitor.Count(SocketMonitorEvent.Disconnected) < 306 && clock.ElapsedMilliseconds < Timeout)
        {
            monitor.Next(Math.Max(1, Timeout - (int)clock.ElapsedMilliseconds));
        }

        monitor.Drain(100);
        Assert.Equal(306, monitor.Count(SocketMonitorEvent.Accepted));
        Assert.Equal(306, monitor.Count(SocketMonitorEvent.Disconnected));
        AssertServesGoodClient(server, endpoint);
        guard.AssertNoneSince();
    }
}
