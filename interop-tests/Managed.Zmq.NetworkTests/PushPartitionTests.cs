using Managed.Zmq.NetworkTests.Harness;
using Xunit.Abstractions;

namespace Managed.Zmq.NetworkTests;

/// <summary>
/// PUSH into a partition: once the dead connection is dropped, the connecting PUSH keeps its
/// queue, which fills to SNDHWM; then sends fail with DontWait and block (until Sndtimeo)
/// without. After healing every queued message arrives once, in order. With Immediate,
/// messages go only to peers whose connection is up. NULL and CURVE.
/// </summary>
public sealed class PushPartitionTests(ITestOutputHelper output)
{
    private const int Hwm = 10;

    [Theory]
    [InlineData(NodeKind.Ours, NodeKind.Ours, false)]
    [InlineData(NodeKind.Ours, NodeKind.LibZmq, false)]
    [InlineData(NodeKind.LibZmq, NodeKind.Ours, false)]
    [InlineData(NodeKind.Ours, NodeKind.LibZmq, true)]
    [InlineData(NodeKind.LibZmq, NodeKind.Ours, true)]
    public Task Push_IntoPartition_StopsAtHwmAndDeliversQueueOnceAfterHeal(NodeKind pusher, NodeKind puller, bool curve) => Deadline.Run(() =>
    {
        using var net = new TestNetwork();
        Host serverHost = net.AddHost();
        Host clientHost = net.AddHost();
        Node server = serverHost.Start(puller);
        Node client = clientHost.Start(pusher);
        var keys = Setup.Security(curve);

        server.Socket("s", "pull");
        Setup.Resilient(server, "s");
        keys?.MakeServer(server, "s");
        server.Option("s", ZmqOption.RcvHwm, Hwm);
        server.Bind("s", Setup.Endpoint(serverHost));

        client.Socket("c", "push");
        Setup.Resilient(client, "c");
        keys?.MakeClient(client, "c");
        client.Option("c", ZmqOption.SndHwm, Hwm);
        client.Option("c", ZmqOption.SndTimeo, 200);
        client.Monitor("c");
        client.Connect("c", Setup.Endpoint(serverHost));
        client.WaitFor("c", "handshake_succeeded");
        Assert.True(client.Send("c", false, "m-0"));
        Assert.Equal(["m-0"], server.Receive("s"));

        net.Cut(clientHost);
        client.WaitFor("c", "disconnected");
        long queued = client.Pump("c", "m", 1, 100 * Hwm, dontWait: true);
        Assert.InRange(queued, 1, 2 * Hwm);
        Assert.Equal(0, client.Pump("c", "m", 1 + queued, 1, dontWait: false)); // blocks, then EAGAIN at Sndtimeo

        net.Heal(clientHost);
        client.WaitFor("c", "handshake_succeeded", timeoutMilliseconds: 30_000);
        Sequence got = server.Drain("s", 1000);
        Assert.Equal(new Sequence(queued, queued, 0, 0, queued, 1), got);
        output.WriteLine($"{pusher} PUSH, {puller} PULL, {(curve ? "CURVE" : "NULL")}, SNDHWM=RCVHWM={Hwm}: {queued} queued during the partition, delivered {got}");
    });

    [Theory]
    [InlineData(NodeKind.Ours, NodeKind.Ours, false)]
    [InlineData(NodeKind.Ours, NodeKind.LibZmq, false)]
    [InlineData(NodeKind.LibZmq, NodeKind.Ours, false)]
    [InlineData(NodeKind.Ours, NodeKind.LibZmq, true)]
    [InlineData(NodeKind.LibZmq, NodeKind.Ours, true)]
    public Task ImmediatePush_OnePeerPartitioned_MessagesGoOnlyToLivePeer(NodeKind pusher, NodeKind puller, bool curve) => Deadline.Run(() =>
    {
        using var net = new TestNetwork();
        Host liveHost = net.AddHost();
        Host cutHost = net.AddHost();
        Host clientHost = net.AddHost();
        Node live = liveHost.Start(puller);
        Node cut = cutHost.Start(puller);
        Node client = clientHost.Start(pusher);
        var keys = Setup.Security(curve);
        foreach (var (node, host) in new[] { (live, liveHost), (cut, cutHost) })
        {
            node.Socket("s", "pull");
            Setup.Resilient(node, "s");
            keys?.MakeServer(node, "s");
            node.Bind("s", Setup.Endpoint(host));
        }

        client.Socket("c", "push");
        Setup.Resilient(client, "c");
        client.Option("c", ZmqOption.Immediate, 1);
        keys?.MakeClient(client, "c");
        client.Monitor("c");
        client.Connect("c", Setup.Endpoint(liveHost));
        client.WaitFor("c", "handshake_succeeded");
        client.Connect("c", Setup.Endpoint(cutHost));
        client.WaitFor("c", "handshake_succeeded");

        net.Cut(cutHost);
        client.WaitFor("c", "disconnected", endpoint: Setup.Endpoint(cutHost));
        // libzmq retires the lost connection's pipe just before it schedules the reconnect (ours
        // before DISCONNECTED), and the socket applies that on its next call: wait for the reconnect
        // so the pump sees it either way.
        client.WaitFor("c", "connect_retried", endpoint: Setup.Endpoint(cutHost));
        const int Count = 50;
        Assert.Equal(Count, client.Pump("c", "m", 0, Count, dontWait: true));
        Sequence atLive = live.Drain("s", 1000);

        net.Heal(cutHost);
        client.WaitFor("c", "handshake_succeeded", timeoutMilliseconds: 30_000, endpoint: Setup.Endpoint(cutHost));
        Sequence atCut = cut.Drain("s", 500);
        Assert.True(atCut.Count == 0 && atLive.Count == Count, $"live {atLive}, cut {atCut}");
        output.WriteLine($"{pusher} PUSH (Immediate), {puller} PULLs, {(curve ? "CURVE" : "NULL")}: live peer {atLive}, partitioned peer {atCut}");
    });
}
