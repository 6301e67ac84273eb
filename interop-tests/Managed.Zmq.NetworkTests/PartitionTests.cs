using Managed.Zmq.NetworkTests.Harness;
using Xunit.Abstractions;

namespace Managed.Zmq.NetworkTests;

/// <summary>
/// A partition longer than HEARTBEAT_TIMEOUT: the link is cut (bridge port down, packets vanish,
/// no FIN or RST), both sides must notice through ZMTP heartbeats alone and raise DISCONNECTED,
/// then reconnect when the link heals and carry traffic again. Ours against ours and against
/// libzmq both ways; NULL and CURVE.
/// </summary>
public sealed class PartitionTests(ITestOutputHelper output)
{
    [Theory]
    [InlineData(NodeKind.Ours, NodeKind.Ours, false)]
    [InlineData(NodeKind.Ours, NodeKind.LibZmq, false)]
    [InlineData(NodeKind.LibZmq, NodeKind.Ours, false)]
    [InlineData(NodeKind.Ours, NodeKind.Ours, true)]
    [InlineData(NodeKind.Ours, NodeKind.LibZmq, true)]
    [InlineData(NodeKind.LibZmq, NodeKind.Ours, true)]
    public Task CutLink_LongerThanHeartbeatTimeout_BothSidesDisconnectReconnectAndTrafficResumes(NodeKind binder, NodeKind connecter, bool curve) => Deadline.Run(() =>
    {
        using var net = new TestNetwork();
        Host serverHost = net.AddHost();
        Host clientHost = net.AddHost();
        Node server = serverHost.Start(binder);
        Node client = clientHost.Start(connecter);
        var keys = Setup.Security(curve);

        server.Socket("s", "pull");
        Setup.Resilient(server, "s");
        keys?.MakeServer(server, "s");
        server.Monitor("s");
        server.Bind("s", Setup.Endpoint(serverHost));

        client.Socket("c", "push");
        Setup.Resilient(client, "c");
        keys?.MakeClient(client, "c");
        client.Monitor("c");
        client.Connect("c", Setup.Endpoint(serverHost));

        var serverLog = new List<MonitorEvent>();
        var clientLog = new List<MonitorEvent>();
        client.WaitFor("c", "handshake_succeeded", clientLog);
        server.WaitFor("s", "handshake_succeeded", serverLog);
        Assert.True(client.Send("c", false, "m-0"));
        Assert.Equal(["m-0"], server.Receive("s"));

        long cutAt = DateTimeOffset.UtcNow.ToUnixTimeMilliseconds();
        net.Cut(clientHost);
        var clientLost = client.WaitFor("c", "disconnected", clientLog);
        var serverLost = server.WaitFor("s", "disconnected", serverLog);

        long healAt = DateTimeOffset.UtcNow.ToUnixTimeMilliseconds();
        net.Heal(clientHost);
        var clientBack = client.WaitFor("c", "handshake_succeeded", clientLog, 30_000);
        var serverBack = server.WaitFor("s", "handshake_succeeded", serverLog, 30_000);

        Assert.True(client.Send("c", false, "m-1"));
        Assert.Equal(["m-1"], server.Receive("s"));

        // One disconnect per side for one partition, each before that side's new handshake.
        Assert.Single(clientLog, e => e.Name == "disconnected");
        Assert.Single(serverLog, e => e.Name == "disconnected");
        output.WriteLine($"{binder} binds, {connecter} connects, {(curve ? "CURVE" : "NULL")}; heartbeat {Setup.HeartbeatIvlMs}/{Setup.HeartbeatTimeoutMs} ms");
        output.WriteLine($"detection after cut: client {clientLost.UnixMilliseconds - cutAt} ms, server {serverLost.UnixMilliseconds - cutAt} ms");
        output.WriteLine($"recovery after heal: client {clientBack.UnixMilliseconds - healAt} ms, server {serverBack.UnixMilliseconds - healAt} ms");
        output.WriteLine($"client events: {string.Join(' ', clientLog)}; server events: {string.Join(' ', serverLog)}");
    });
}
