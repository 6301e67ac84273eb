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
    public Task CutLink_LongerThanHeartbeatTimeout_BothSidesDisconnectReconnectAndTrafficResumes(NodeKind binder, NodeKind connecter, bool curve) =>
        Deadline.Run(() => PartitionAndHeal(binder, connecter, curve, throughProxy: false));

    /// <summary>
    /// The same through the fault proxy, which stops every byte both ways while both TCP
    /// connections stay established (no FIN, no RST, the kernel still ACKs): only heartbeats see it.
    /// </summary>
    [Theory]
    [InlineData(NodeKind.Ours, NodeKind.Ours, false)]
    [InlineData(NodeKind.Ours, NodeKind.LibZmq, false)]
    [InlineData(NodeKind.LibZmq, NodeKind.Ours, false)]
    [InlineData(NodeKind.Ours, NodeKind.LibZmq, true)]
    [InlineData(NodeKind.LibZmq, NodeKind.Ours, true)]
    public Task ProxyBlackHole_LongerThanHeartbeatTimeout_BothSidesDisconnectReconnectAndTrafficResumes(NodeKind binder, NodeKind connecter, bool curve) =>
        Deadline.Run(() => PartitionAndHeal(binder, connecter, curve, throughProxy: true));

    private const int ProxyPort = 6000;

    private void PartitionAndHeal(NodeKind binder, NodeKind connecter, bool curve, bool throughProxy)
    {
        using var net = new TestNetwork();
        Host serverHost = net.AddHost();
        Host clientHost = net.AddHost();
        Node server = serverHost.Start(binder);
        Node client = clientHost.Start(connecter);
        ProxyNode? proxy = throughProxy ? clientHost.StartProxy(ProxyPort, serverHost.Address, Setup.Port) : null;
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
        client.Connect("c", throughProxy ? $"tcp://127.0.0.1:{ProxyPort}" : Setup.Endpoint(serverHost));

        client.WaitFor("c", "handshake_succeeded");
        server.WaitFor("s", "handshake_succeeded");
        Assert.True(client.Send("c", false, "m-0"));
        Assert.Equal(["m-0"], server.Receive("s"));

        // From here on, every event of both sides is kept, up to each side's new handshake.
        var serverLog = new List<MonitorEvent>();
        var clientLog = new List<MonitorEvent>();
        long cutAt = DateTimeOffset.UtcNow.ToUnixTimeMilliseconds();
        if (proxy is null)
        {
            net.Cut(clientHost);
        }
        else
        {
            proxy.Partition();
        }

        var clientLost = client.WaitFor("c", "disconnected", clientLog);
        var serverLost = server.WaitFor("s", "disconnected", serverLog);

        long healAt = DateTimeOffset.UtcNow.ToUnixTimeMilliseconds();
        if (proxy is null)
        {
            net.Heal(clientHost);
        }
        else
        {
            proxy.Heal();
        }

        var clientBack = client.WaitFor("c", "handshake_succeeded", clientLog, 30_000);
        var serverBack = server.WaitFor("s", "handshake_succeeded", serverLog, 30_000);

        Assert.True(client.Send("c", false, "m-1"));
        Assert.Equal(["m-1"], server.Receive("s"));

        // One disconnect per side for one partition, each before that side's new handshake.
        Assert.Single(clientLog, e => e.Name == "disconnected");
        Assert.Single(serverLog, e => e.Name == "disconnected");
        output.WriteLine($"{binder} binds, {connecter} connects, {(curve ? "CURVE" : "NULL")}, {(throughProxy ? "proxy black hole" : "link cut")}; heartbeat {Setup.HeartbeatIvlMs}/{Setup.HeartbeatTimeoutMs} ms");
        output.WriteLine($"detection after cut: client {clientLost.UnixMilliseconds - cutAt} ms, server {serverLost.UnixMilliseconds - cutAt} ms");
        output.WriteLine($"recovery after heal: client {clientBack.UnixMilliseconds - healAt} ms, server {serverBack.UnixMilliseconds - healAt} ms");
        output.WriteLine($"client events: {string.Join(' ', clientLog)}; server events: {string.Join(' ', serverLog)}");
    }
}
