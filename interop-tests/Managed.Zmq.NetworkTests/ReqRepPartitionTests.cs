using Managed.Zmq.NetworkTests.Harness;
using Xunit.Abstractions;

namespace Managed.Zmq.NetworkTests;

/// <summary>
/// REQ/REP through a partition with Req_Relaxed and Req_Correlate: the client's request is lost
/// in the cut, its receive times out, it resends after the link heals and gets exactly one reply,
/// the one to the request it resent.
/// </summary>
public sealed class ReqRepPartitionTests(ITestOutputHelper output)
{
    [Theory]
    [InlineData(NodeKind.Ours, NodeKind.Ours, false)]
    [InlineData(NodeKind.Ours, NodeKind.LibZmq, false)]
    [InlineData(NodeKind.LibZmq, NodeKind.Ours, false)]
    [InlineData(NodeKind.Ours, NodeKind.Ours, true)]
    [InlineData(NodeKind.Ours, NodeKind.LibZmq, true)]
    [InlineData(NodeKind.LibZmq, NodeKind.Ours, true)]
    public Task RelaxedCorrelatedReq_RequestLostInPartition_ResendGetsExactlyOneCorrectReply(NodeKind replier, NodeKind requester, bool curve) => Deadline.Run(() =>
    {
        using var net = new TestNetwork();
        Host serverHost = net.AddHost();
        Host clientHost = net.AddHost();
        Node server = serverHost.Start(replier);
        Node client = clientHost.Start(requester);
        var keys = Setup.Security(curve);

        server.Socket("s", "rep");
        Setup.Resilient(server, "s");
        keys?.MakeServer(server, "s");
        server.Bind("s", Setup.Endpoint(serverHost));

        client.Socket("c", "req");
        Setup.Resilient(client, "c");
        client.Option("c", ZmqOption.ReqRelaxed, 1);
        client.Option("c", ZmqOption.ReqCorrelate, 1);
        keys?.MakeClient(client, "c");
        client.Monitor("c");
        client.Connect("c", Setup.Endpoint(serverHost));
        client.WaitFor("c", "handshake_succeeded");

        Assert.True(client.Send("c", false, "q-0"));
        Assert.Equal(["q-0"], server.Receive("s"));
        Assert.True(server.Send("s", false, "r-q-0"));
        Assert.Equal(["r-q-0"], client.Receive("c"));

        long cutAt = DateTimeOffset.UtcNow.ToUnixTimeMilliseconds();
        net.Cut(clientHost);
        Assert.True(client.Send("c", false, "q-1"));
        Assert.Null(client.Recv("c", 2 * Setup.HeartbeatTimeoutMs)); // no reply can cross the cut
        var lost = client.WaitFor("c", "disconnected");

        long healAt = DateTimeOffset.UtcNow.ToUnixTimeMilliseconds();
        net.Heal(clientHost);
        var back = client.WaitFor("c", "handshake_succeeded", timeoutMilliseconds: 30_000);
        Assert.True(client.Send("c", false, "q-2")); // relaxed: a new request although q-1 has no reply

        // The server answers whatever reaches it (q-1 is normally lost with the cut connection);
        // correlation lets only the reply to q-2 through.
        var served = new List<string>();
        var replies = new List<string>();
        long end = Environment.TickCount64 + 20_000;
        while (replies.Count == 0 && Environment.TickCount64 < end)
        {
            if (server.Recv("s", 100) is [var request])
            {
                served.Add(request);
                Assert.True(server.Send("s", false, "r-" + request));
            }

            if (client.Recv("c", 100) is [var reply])
            {
                replies.Add(reply);
            }
        }

        // Answer anything still on its way; a stale reply must not be taken for the next request's.
        Assert.True(client.Send("c", false, "q-3"));
        string[]? next = null;
        end = Environment.TickCount64 + 20_000;
        while (next is null && Environment.TickCount64 < end)
        {
            if (server.Recv("s", 100) is [var request])
            {
                served.Add(request);
                Assert.True(server.Send("s", false, "r-" + request));
            }

            next = client.Recv("c", 100);
        }

        Assert.Equal(["r-q-3"], next ?? []);
        Assert.Equal(["r-q-2"], replies);
        Assert.Contains("q-2", served);
        Assert.Contains("q-3", served);
        Assert.Equal(served.Count, served.Distinct().Count());
        output.WriteLine($"{replier} replies, {requester} requests, {(curve ? "CURVE" : "NULL")}: server served [{string.Join(' ', served)}], client got [{string.Join(' ', replies)}]");
        output.WriteLine($"client detection after cut {lost.UnixMilliseconds - cutAt} ms, reconnected {back.UnixMilliseconds - healAt} ms after heal");
    });
}
