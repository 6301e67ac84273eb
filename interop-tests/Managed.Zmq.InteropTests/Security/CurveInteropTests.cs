using Managed.Zmq.InteropTests.Infrastructure;
using Managed.Zmq.InteropTests.Native;

namespace Managed.Zmq.InteropTests.Security;

/// <summary>
/// CURVE (RFC 25/26) against libzmq with matching keys, in all four combinations of who binds and
/// who is the CURVE server: every pattern's traffic, commands tunnelled in MESSAGE (SUBSCRIBE,
/// CANCEL, PING, PONG with payload flag 0x02, docs/libzmq-behaviour.md L9) and large frames all survive the boxes.
/// </summary>
public sealed class CurveInteropTests
{
    public static TheoryData<Topology, OurRole> Cases => SecureCases.All();

    [Theory, MemberData(nameof(Cases))]
    public Task Curve_ReqRep_RoundTripsIntact(Topology topology, OurRole role) => Deadline.Run(() =>
    {
        using var link = SecureLink.Curve(topology, role, SocketType.Rep, SocketType.Req);
        var (rep, req) = (link.Server, link.Client);

        byte[][][] bodies =
        [
            [Bytes.Of("hello")],
            [[]],
            Transfer.MultipartWithEmptyFrames(),
            [Bytes.Pattern(255)],
            [Bytes.Pattern(256)],
            [Bytes.Pattern(Transfer.MiB), Bytes.Of("tail")],
        ];
        for (var round = 0; round < 3; round++)
        {
            foreach (var body in bodies)
            {
                Transfer.Deliver(req, rep, body);
                Transfer.Deliver(rep, req, [Bytes.Of("reply"), .. body]);
            }
        }

        link.ServerEvents.WaitFor(EventLog.HandshakeSucceeded);
        link.ClientEvents.WaitFor(EventLog.HandshakeSucceeded);
    });

    [Theory, MemberData(nameof(Cases))]
    public Task Curve_DealerRouter_RoutingIdAndFramesIntact(Topology topology, OurRole role) => Deadline.Run(() =>
    {
        var routingId = Bytes.Of("curve-dealer");
        using var link = SecureLink.Curve(topology, role, SocketType.Router, SocketType.Dealer,
            configure: end => { if (end.Type == SocketType.Dealer) end.SetOption(LibZmq.ZMQ_ROUTING_ID, routingId); });
        var (router, dealer) = (link.Server, link.Client);

        dealer.SendMessage(Bytes.Of("a"), [], Bytes.Pattern(Transfer.MiB, 7));
        Bytes.Equal([routingId, Bytes.Of("a"), [], Bytes.Pattern(Transfer.MiB, 7)], router.RecvMessage(), "DEALER → ROUTER over CURVE");

        router.SendMessage(routingId, Bytes.Of("b"), Bytes.Pattern(300, 3));
        Bytes.Equal([Bytes.Of("b"), Bytes.Pattern(300, 3)], dealer.RecvMessage(), "ROUTER → DEALER over CURVE");
    });

    [Theory, MemberData(nameof(Cases))]
    public Task Curve_PushPull_TenThousandMessagesInOrder(Topology topology, OurRole role) => Deadline.Run(() =>
    {
        using var link = SecureLink.Curve(topology, role, SocketType.Pull, SocketType.Push);
        Transfer.Stream(link.Client, link.Server);
    });

    [Theory, MemberData(nameof(Cases))]
    public Task Curve_PushPull_ServerSendsTenThousandInOrder(Topology topology, OurRole role) => Deadline.Run(() =>
    {
        // The CURVE server is the sender here: the server→client nonce prefix (…MESSAGES) path.
        using var link = SecureLink.Curve(topology, role, SocketType.Push, SocketType.Pull);
        Transfer.Stream(link.Server, link.Client);
    });

    [Theory, MemberData(nameof(Cases))]
    public Task Curve_PubSub_SubscribeAndCancelTravelInsideMessage(Topology topology, OurRole role) => Deadline.Run(() =>
    {
        using var link = SecureLink.Curve(topology, role, SocketType.Pub, SocketType.Sub);
        var (pub, sub) = (link.Server, link.Client);

        sub.Subscribe(Bytes.Of("A"));
        Transfer.WaitForSubscription(pub, sub, Bytes.Of("A-probe"));
        pub.SendMessage(Bytes.Of("B-ignored"));
        pub.SendMessage(Bytes.Of("A-1"), Bytes.Of("part"));
        Bytes.Equal([Bytes.Of("A-1"), Bytes.Of("part")], Transfer.RecvSkipping(sub, Bytes.Of("A-probe")), "first A message");

        // CANCEL "A" then SUBSCRIBE "C": once a C probe arrives, the cancel (sent first on the same
        // connection) has reached the publisher too, so no A message published after it may arrive.
        sub.Unsubscribe(Bytes.Of("A"));
        sub.Subscribe(Bytes.Of("C"));
        Deadline.RetryUntil(() =>
        {
            pub.SendMessage(Bytes.Of("C-probe"));
            pub.SendMessage(Bytes.Of("A-x"));
            var got = sub.TryRecvMessage(Timeouts.Probe);
            while (got is not null)
            {
                var text = Bytes.Text(got[0]);
                if (text == "C-probe")
                    return true;
                Assert.True(text is "A-x" or "A-probe", $"unexpected {text} before the C subscription took effect");
                got = sub.TryRecvMessage(TimeSpan.Zero);
            }

            return false;
        }, "the C subscription to reach the publisher");

        pub.SendMessage(Bytes.Of("A-final"));
        pub.SendMessage(Bytes.Of("C-final"));
        while (true)
        {
            var text = Bytes.Text(sub.RecvMessage()[0]);
            Assert.False(text.StartsWith('A'), $"{text} arrived after A was cancelled");
            if (text == "C-final")
                break;
            Assert.Equal("C-probe", text);
        }
    });

    /// <summary>
    /// Both sides ping every millisecond during request-reply: our side decrypts each reply on its read turn
    /// (docs/ARCHITECTURE.md), meets libzmq's PINGs only once they are decrypted, and hands them back to the read loop,
    /// which answers them; no message is split or lost, and the one connection stays up.
    /// </summary>
    [Theory, MemberData(nameof(Cases))]
    public Task Curve_PingsEveryMsDuringRoundTrips_EveryMessageWhole(Topology topology, OurRole role) => Deadline.Run(() =>
    {
        using var link = SecureLink.Curve(topology, role, SocketType.Rep, SocketType.Req, configure: end =>
        {
            end.SetOption(LibZmq.ZMQ_HEARTBEAT_IVL, 1);
            end.SetOption(LibZmq.ZMQ_HEARTBEAT_TIMEOUT, 10_000);
        });
        var (rep, req) = (link.Server, link.Client);

        for (int i = 0; i < 2500; i++)
        {
            Transfer.Deliver(req, rep, [Transfer.StreamFrame(i), Bytes.Of($"middle-{i}"), Bytes.Of($"last-{i}")]);
            Transfer.Deliver(rep, req, i % 500 == 0 ? [Bytes.Pattern(64 * 1024, i)] : [Transfer.StreamFrame(i), Bytes.Of($"reply-{i}")]);
        }

        link.ClientEvents.WaitFor(EventLog.HandshakeSucceeded);
        link.ClientEvents.AssertNone(e => e.Event == EventLog.Disconnected, TimeSpan.Zero, "disconnect during the round trips");
        Assert.Equal(1, link.ClientEvents.Count(EventLog.HandshakeSucceeded));
    });

    [Theory, MemberData(nameof(Cases))]
    public Task Curve_Heartbeats_IdleConnectionStaysUp(Topology topology, OurRole role) => Deadline.Run(() =>
    {
        // PING and PONG travel inside MESSAGE with the COMMAND flag (docs/libzmq-behaviour.md L9). If either side failed to
        // decode or answer them, the 500 ms heartbeat timeout would drop the idle connection well
        // inside the 1.5 s we watch it.
        using var link = SecureLink.Curve(topology, role, SocketType.Rep, SocketType.Req, configure: end =>
        {
            end.SetOption(LibZmq.ZMQ_HEARTBEAT_IVL, 50);
            end.SetOption(LibZmq.ZMQ_HEARTBEAT_TIMEOUT, 500);
            end.SetOption(LibZmq.ZMQ_HEARTBEAT_TTL, 1000);
        });
        var (rep, req) = (link.Server, link.Client);

        Transfer.Deliver(req, rep, [Bytes.Of("before idle")]);
        Transfer.Deliver(rep, req, [Bytes.Of("ack")]);

        link.ServerEvents.AssertNone(e => e.Event == EventLog.Disconnected, TimeSpan.FromMilliseconds(1500), "disconnect while idle");
        link.ClientEvents.AssertNone(e => e.Event == EventLog.Disconnected, TimeSpan.Zero, "disconnect while idle");
        Assert.Equal(1, link.ClientEvents.Count(EventLog.HandshakeSucceeded));

        Transfer.Deliver(req, rep, [Bytes.Of("after idle")]);
        Transfer.Deliver(rep, req, [Bytes.Of("ack")]);
    });
}
