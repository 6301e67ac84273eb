using Managed.Zmq.NetworkTests.Harness;
using Xunit.Abstractions;

namespace Managed.Zmq.NetworkTests;

/// <summary>
/// ROUTER with Router_Handover: a DEALER is cut off (its connection still looks alive to the
/// ROUTER: no heartbeats here) and reappears from another host with the same routing id; the new
/// connection takes the id over and the ROUTER's replies reach it there. NULL and CURVE.
/// </summary>
public sealed class RouterHandoverTests(ITestOutputHelper output)
{
    [Theory]
    [InlineData(NodeKind.Ours, NodeKind.Ours, false)]
    [InlineData(NodeKind.Ours, NodeKind.LibZmq, false)]
    [InlineData(NodeKind.LibZmq, NodeKind.Ours, false)]
    [InlineData(NodeKind.Ours, NodeKind.LibZmq, true)]
    [InlineData(NodeKind.LibZmq, NodeKind.Ours, true)]
    public Task Handover_DealerReappearsAtAnotherAddress_RouterRoutesToTheNewConnection(NodeKind routerKind, NodeKind dealerKind, bool curve) => Deadline.Run(() =>
    {
        using var net = new TestNetwork();
        Host routerHost = net.AddHost();
        Host firstHost = net.AddHost();
        Host secondHost = net.AddHost();
        Node router = routerHost.Start(routerKind);
        Node first = firstHost.Start(dealerKind);
        Node second = secondHost.Start(dealerKind);
        var keys = Setup.Security(curve);

        router.Socket("r", "router");
        Setup.Resilient(router, "r", heartbeats: false);
        router.Option("r", ZmqOption.RouterHandover, 1);
        keys?.MakeServer(router, "r");
        router.Bind("r", Setup.Endpoint(routerHost));

        foreach (Node dealer in new[] { first, second })
        {
            dealer.Socket("d", "dealer");
            Setup.Resilient(dealer, "d", heartbeats: false);
            dealer.Option("d", ZmqOption.RoutingId, "d1");
            keys?.MakeClient(dealer, "d");
            dealer.Monitor("d");
        }

        first.Connect("d", Setup.Endpoint(routerHost));
        first.WaitFor("d", "handshake_succeeded");
        Assert.True(first.Send("d", false, "from-first"));
        Assert.Equal(["d1", "from-first"], router.Receive("r"));

        net.Cut(firstHost);
        second.Connect("d", Setup.Endpoint(routerHost));
        second.WaitFor("d", "handshake_succeeded");
        Assert.True(second.Send("d", false, "from-second"));
        Assert.Equal(["d1", "from-second"], router.Receive("r"));

        Assert.True(router.Send("r", false, "d1", "to-d1"));
        Assert.Equal(["to-d1"], second.Receive("d"));
        output.WriteLine($"{routerKind} ROUTER, {dealerKind} DEALERs, {(curve ? "CURVE" : "NULL")}: routing id d1 moved from {firstHost.Address} to {secondHost.Address}");
    });
}
