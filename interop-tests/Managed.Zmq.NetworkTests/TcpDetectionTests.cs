using Managed.Zmq.NetworkTests.Harness;
using Xunit.Abstractions;

namespace Managed.Zmq.NetworkTests;

/// <summary>
/// A black-holed peer with ZMTP heartbeats off: only TCP can notice. Tcp_Keepalive with
/// Tcp_Keepalive_Idle/Intvl/Cnt ends an idle connection after about IDLE + INTVL x CNT seconds of
/// silence (both sides probe); Tcp_Maxrt (TCP_USER_TIMEOUT) ends a connection whose sent data
/// stays unacknowledged that long (the sender's side). Each side raises DISCONNECTED, reconnects
/// when the link heals, and traffic resumes. The deadlines are generous (the kernel checks on its
/// own timers); the measured times are reported, not asserted. Ours against libzmq both ways.
/// </summary>
public sealed class TcpDetectionTests(ITestOutputHelper output)
{
    /// <summary>Seconds (the kernel's unit) of silence before the first probe, between probes, and probes unanswered.</summary>
    private const int KeepaliveIdleS = 1;
    private const int KeepaliveIntvlS = 1;
    private const int KeepaliveCnt = 2;

    /// <summary>How long sent data may stay unacknowledged (TCP_USER_TIMEOUT).</summary>
    private const int MaxrtMs = 1000;

    /// <summary>Far beyond either bound; without them the kernel would wait minutes (keepalive: 2 h idle by default).</summary>
    private const int DetectionDeadlineMs = 30_000;

    [Theory]
    [InlineData(NodeKind.Ours, NodeKind.LibZmq)]
    [InlineData(NodeKind.LibZmq, NodeKind.Ours)]
    public Task Keepalive_IdleConnectionBlackHoled_BothSidesDisconnectAndReconnect(NodeKind pusher, NodeKind puller) =>
        Deadline.Run(() => BlackHole(pusher, puller, maxrt: false));

    [Theory]
    [InlineData(NodeKind.Ours, NodeKind.LibZmq)]
    [InlineData(NodeKind.LibZmq, NodeKind.Ours)]
    public Task Maxrt_UnacknowledgedDataBlackHoled_SenderDisconnectsAndReconnects(NodeKind pusher, NodeKind puller) =>
        Deadline.Run(() => BlackHole(pusher, puller, maxrt: true));

    private void BlackHole(NodeKind pusher, NodeKind puller, bool maxrt)
    {
        using var net = new TestNetwork();
        Host serverHost = net.AddHost();
        Host clientHost = net.AddHost();
        Node server = serverHost.Start(puller);
        Node client = clientHost.Start(pusher);

        server.Socket("s", "pull");
        Setup.Resilient(server, "s", heartbeats: false);
        server.Monitor("s");
        client.Socket("c", "push");
        Setup.Resilient(client, "c", heartbeats: false);
        client.Monitor("c");
        if (maxrt)
        {
            client.Option("c", ZmqOption.TcpMaxrt, MaxrtMs);
        }
        else
        {
            foreach (var (node, socket) in new[] { (server, "s"), (client, "c") })
            {
                node.Option(socket, ZmqOption.TcpKeepalive, 1);
                node.Option(socket, ZmqOption.TcpKeepaliveIdle, KeepaliveIdleS);
                node.Option(socket, ZmqOption.TcpKeepaliveIntvl, KeepaliveIntvlS);
                node.Option(socket, ZmqOption.TcpKeepaliveCnt, KeepaliveCnt);
            }
        }

        server.Bind("s", Setup.Endpoint(serverHost));
        client.Connect("c", Setup.Endpoint(serverHost));
        client.WaitFor("c", "handshake_succeeded");
        server.WaitFor("s", "handshake_succeeded");
        Assert.True(client.Send("c", false, "m-0"));
        Assert.Equal(["m-0"], server.Receive("s"));

        // Keep-alive probes only an idle connection: m-0's ACK must not be lost in the cut.
        TestNetwork.WaitUntilAcknowledged(clientHost);
        TestNetwork.WaitUntilAcknowledged(serverHost);

        var clientLog = new List<MonitorEvent>();
        long cutAt = DateTimeOffset.UtcNow.ToUnixTimeMilliseconds();
        net.Cut(clientHost);
        if (maxrt)
        {
            // Data the black hole never acknowledges: TCP_USER_TIMEOUT runs from the first unacknowledged byte.
            Assert.True(client.Send("c", false, "m-1"));
        }

        var clientLost = client.WaitFor("c", "disconnected", clientLog, DetectionDeadlineMs);
        string serverDetection = "not expected (it has nothing to send and no keepalive)";
        if (!maxrt)
        {
            var serverLost = server.WaitFor("s", "disconnected", timeoutMilliseconds: DetectionDeadlineMs);
            serverDetection = $"{serverLost.UnixMilliseconds - cutAt} ms";
        }

        long healAt = DateTimeOffset.UtcNow.ToUnixTimeMilliseconds();
        net.Heal(clientHost);
        var clientBack = client.WaitFor("c", "handshake_succeeded", clientLog, 30_000);
        Assert.True(client.Send("c", false, "m-2"));
        string[] next = server.Receive("s");
        Assert.Contains(next[0], new[] { "m-1", "m-2" }); // m-1 may have died with the old connection

        Assert.Single(clientLog, e => e.Name == "disconnected");
        string bound = maxrt
            ? $"Tcp_Maxrt {MaxrtMs} ms on the PUSH, unacknowledged data"
            : $"Tcp_Keepalive idle {KeepaliveIdleS} s, intvl {KeepaliveIntvlS} s, cnt {KeepaliveCnt} on both, idle connection";
        output.WriteLine($"{pusher} PUSH connects, {puller} PULL binds, heartbeats off; {bound}");
        output.WriteLine($"detection after cut: PUSH {clientLost.UnixMilliseconds - cutAt} ms, PULL {serverDetection}; PUSH reconnected {clientBack.UnixMilliseconds - healAt} ms after heal");
    }
}
