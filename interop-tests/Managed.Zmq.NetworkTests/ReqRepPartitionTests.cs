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
        // A Lazy Pirate client: resend (a new request, Req_Relaxed) whenever a reply is overdue.
        // The server answers whatever reaches it; correlation lets only the latest request's reply in.
        var served = new List<string>();
        var (firstSent, firstReply) = RequestUntilAnswered(client, server, 2, served);
        var (secondSent, secondReply) = RequestUntilAnswered(client, server, firstSent + 1, served);

        Assert.Equal("r-q-" + firstSent, firstReply);
        Assert.Equal("r-q-" + secondSent, secondReply);
        Assert.Contains("q-" + firstSent, served);
        Assert.Contains("q-" + secondSent, served);
        Assert.Equal(served.Count, served.Distinct().Count());
        var replies = new[] { firstReply, secondReply };
        output.WriteLine($"{replier} replies, {requester} requests, {(curve ? "CURVE" : "NULL")}: server served [{string.Join(' ', served)}], client got [{string.Join(' ', replies)}]");
        output.WriteLine($"client detection after cut {lost.UnixMilliseconds - cutAt} ms, reconnected {back.UnixMilliseconds - healAt} ms after heal");
    });

    /// <summary>Requests q-N, q-N+1, ... until one is answered; the last number sent and the reply.</summary>
    private static (int Sent, string Reply) RequestUntilAnswered(Node client, Node server, int first, List<string> served)
    {
        const int Patience = 2000;
        long end = Environment.TickCount64 + 30_000;
        int n = first;
        Assert.True(client.Send("c", false, $"q-{n}"));
        long resendAt = Environment.TickCount64 + Patience;
        while (Environment.TickCount64 < end)
        {
            if (server.Recv("s", 100) is [var request])
            {
                served.Add(request);
                Assert.True(server.Send("s", false, "r-" + request));
            }

            if (client.Recv("c", 100) is [var reply])
            {
                return (n, reply);
            }

            if (Environment.TickCount64 > resendAt)
            {
                n++;
                Assert.True(client.Send("c", false, $"q-{n}"));
                resendAt = Environment.TickCount64 + Patience;
            }
        }

        Assert.Fail($"no reply to q-{first}..q-{n} within 30 s; the server served [{string.Join(' ', served)}]");
        return default;
    }
}
