using Managed.Zmq.NetworkTests.Harness;
using Xunit.Abstractions;

namespace Managed.Zmq.NetworkTests;

/// <summary>
/// PUB/SUB across a partition: when the SUB reconnects it sends its subscription again, the XPUB
/// sees it again (after the unsubscription libzmq reports when the dead connection goes), and
/// delivery resumes. NULL and CURVE.
/// </summary>
public sealed class PubSubPartitionTests(ITestOutputHelper output)
{
    private const string Subscribe = "0x0174";   // ZMTP 3.0 subscribe message for "t"
    private const string Unsubscribe = "0x0074"; // and its unsubscribe

    [Theory]
    [InlineData(NodeKind.Ours, NodeKind.Ours, false)]
    [InlineData(NodeKind.Ours, NodeKind.LibZmq, false)]
    [InlineData(NodeKind.LibZmq, NodeKind.Ours, false)]
    [InlineData(NodeKind.Ours, NodeKind.LibZmq, true)]
    [InlineData(NodeKind.LibZmq, NodeKind.Ours, true)]
    public Task Subscriber_ReconnectsAfterPartition_SubscriptionResentAndDeliveryResumes(NodeKind publisher, NodeKind subscriber, bool curve) => Deadline.Run(() =>
    {
        using var net = new TestNetwork();
        Host pubHost = net.AddHost();
        Host subHost = net.AddHost();
        Node pub = pubHost.Start(publisher);
        Node sub = subHost.Start(subscriber);
        var keys = Setup.Security(curve);

        pub.Socket("p", "xpub");
        Setup.Resilient(pub, "p");
        keys?.MakeServer(pub, "p");
        pub.Monitor("p");
        pub.Bind("p", Setup.Endpoint(pubHost));

        sub.Socket("s", "sub");
        Setup.Resilient(sub, "s");
        keys?.MakeClient(sub, "s");
        sub.Option("s", ZmqOption.Subscribe, "t");
        sub.Monitor("s");
        sub.Connect("s", Setup.Endpoint(pubHost));

        Assert.Equal([Subscribe], pub.Receive("p"));
        Assert.True(pub.Send("p", false, "u-0")); // not subscribed: filtered out
        Assert.True(pub.Send("p", false, "t-0"));
        Assert.Equal(["t-0"], sub.Receive("s"));

        net.Cut(subHost);
        sub.WaitFor("s", "disconnected");
        pub.WaitFor("p", "disconnected");
        // Published during the partition: there is no subscriber, so it goes nowhere.
        Assert.True(pub.Send("p", false, "t-1"));
        net.Heal(subHost);
        sub.WaitFor("s", "handshake_succeeded", timeoutMilliseconds: 30_000);

        // Like libzmq, the SUB resends its subscriptions when its socket next processes commands
        // (any call on it), so the subscriber sits in receive, as an application would.
        var seen = new List<string>();
        long end = Environment.TickCount64 + 20_000;
        while (!seen.Contains(Subscribe) && Environment.TickCount64 < end)
        {
            Assert.Null(sub.Recv("s", 50));
            if (pub.Recv("p", 50) is { } message)
            {
                Assert.Single(message);
                seen.Add(message[0]);
            }
        }

        Assert.Equal([Unsubscribe, Subscribe], seen);
        Assert.True(pub.Send("p", false, "u-2"));
        Assert.True(pub.Send("p", false, "t-2"));
        Assert.Equal(["t-2"], sub.Receive("s"));
        Assert.Null(sub.Recv("s", 300));
        output.WriteLine($"{publisher} XPUB, {subscriber} SUB, {(curve ? "CURVE" : "NULL")}: XPUB saw after the partition [{string.Join(' ', seen)}]");
    });
}
