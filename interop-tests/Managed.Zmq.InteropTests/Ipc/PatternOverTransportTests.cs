using Managed.Zmq.InteropTests.Infrastructure;
using Managed.Zmq.InteropTests.Native;

namespace Managed.Zmq.InteropTests.Ipc;

/// <summary>
/// Every pattern pair against libzmq over one transport, which a subclass chooses: PUSH/PULL,
/// REQ/REP, DEALER/ROUTER, ROUTER/ROUTER, PUB/SUB, XPUB/XSUB and PAIR, each side binding, each
/// side in each role, with multipart messages, 1 MiB frames and 10,000-message streams in order.
/// </summary>
/// <remarks>
/// libzmq 4.3 over ipc drops what is still in the kernel buffer when the sender closes while a
/// libzmq receiver is stalled at its RCVHWM (zeromq/libzmq#4660). Every stream here is checked
/// message by message before either side closes, so the receiver has acknowledged the whole stream
/// before the sender goes; streams through dropping sockets (ROUTER, PUB, XPUB) lift the HWM.
/// </remarks>
public abstract class PatternOverTransportTests
{
    public static TheoryData<Topology, SocketType> PushPullRoles => Cases.Roles(SocketType.Push, SocketType.Pull);

    public static TheoryData<Topology, SocketType> ReqRepRoles => Cases.Roles(SocketType.Req, SocketType.Rep);

    public static TheoryData<Topology, SocketType> DealerRouterRoles => Cases.Roles(SocketType.Dealer, SocketType.Router);

    public static TheoryData<Topology, SocketType> PubSubRoles => Cases.Roles(SocketType.Pub, SocketType.Sub);

    public static TheoryData<Topology, SocketType> XPubXSubRoles => Cases.Roles(SocketType.XPub, SocketType.XSub);

    public static TheoryData<Topology> Topologies => Cases.Topologies();

    private static readonly byte[] Topic = Bytes.Of("t/");

    private static readonly byte[] Probe = Bytes.Of("t/probe");

    private static readonly byte[] SyncTopic = Bytes.Of("sync");

    /// <summary>The transport every link of this suite runs over.</summary>
    protected abstract Transport Transport { get; }

    private Link Open(Topology topology, SocketType ours, SocketType first, SocketType second, Action<IEnd>? configure = null) =>
        new(topology, ours, Cases.Peer(ours, first, second), configure, configure, Transport);

    [Theory, MemberData(nameof(PushPullRoles))]
    public Task PushPull_MultipartMebibyteAndStreams_ArriveIntactAndInOrder(Topology topology, SocketType ours) => Deadline.Run(() =>
    {
        using var link = Open(topology, ours, SocketType.Push, SocketType.Pull);
        var (push, pull) = (link[SocketType.Push], link[SocketType.Pull]);

        Transfer.Deliver(push, pull, Transfer.MultipartWithEmptyFrames());
        Transfer.Deliver(push, pull, [[]]);
        Transfer.Deliver(push, pull, [Bytes.Pattern(Transfer.MiB)]);
        Transfer.Deliver(push, pull, [Bytes.Pattern(Transfer.MiB, 5), [], Bytes.Pattern(Transfer.MiB + 1, 6)]);
        Transfer.Stream(push, pull);
        Transfer.Stream(push, pull, make: i => [Transfer.StreamFrame(i), [], Bytes.Of($"tail {i}")]);
    });

    [Theory, MemberData(nameof(ReqRepRoles))]
    public Task ReqRep_MultipartMebibyteAndTenThousandRoundTrips_StayPaired(Topology topology, SocketType ours) => Deadline.Run(() =>
    {
        using var link = Open(topology, ours, SocketType.Req, SocketType.Rep);
        var (req, rep) = (link[SocketType.Req], link[SocketType.Rep]);

        Transfer.Deliver(req, rep, Transfer.MultipartWithEmptyFrames());
        Transfer.Deliver(rep, req, [Bytes.Of("reply"), .. Transfer.MultipartWithEmptyFrames()]);
        Transfer.Deliver(req, rep, [Bytes.Pattern(Transfer.MiB), Bytes.Of("tail")]);
        Transfer.Deliver(rep, req, [Bytes.Pattern(Transfer.MiB, 2)]);
        for (var i = 0; i < Transfer.StreamLength; i++)
        {
            Transfer.Deliver(req, rep, [Transfer.StreamFrame(i)]);
            Transfer.Deliver(rep, req, [Transfer.StreamFrame(i + 1)]);
        }
    });

    [Theory, MemberData(nameof(DealerRouterRoles))]
    public Task DealerRouter_RoutingIdMultipartMebibyteAndStreams_RouteBothWays(Topology topology, SocketType ours) => Deadline.Run(() =>
    {
        var id = Bytes.Of("dealer-over-" + Transport);
        using var link = Open(topology, ours, SocketType.Dealer, SocketType.Router, end =>
        {
            Unlimited.Hwm(end);
            if (end.Type == SocketType.Dealer)
                end.SetOption(LibZmq.ZMQ_ROUTING_ID, id);
        });
        var (dealer, router) = (link[SocketType.Dealer], link[SocketType.Router]);

        Transfer.Deliver(dealer, router, Transfer.MultipartWithEmptyFrames(), [id, .. Transfer.MultipartWithEmptyFrames()]);
        Transfer.Deliver(router, dealer, [id, .. Transfer.MultipartWithEmptyFrames()], Transfer.MultipartWithEmptyFrames());
        Transfer.Deliver(dealer, router, [Bytes.Pattern(Transfer.MiB)], [id, Bytes.Pattern(Transfer.MiB)]);
        Transfer.Deliver(router, dealer, [id, Bytes.Pattern(Transfer.MiB, 3)], [Bytes.Pattern(Transfer.MiB, 3)]);
        Transfer.Stream(dealer, router, expect: i => [id, Transfer.StreamFrame(i)]);
        Transfer.Stream(router, dealer, make: i => [id, Transfer.StreamFrame(i)], expect: i => [Transfer.StreamFrame(i)]);
    });

    [Theory, MemberData(nameof(Topologies))]
    public Task RouterRouter_ExplicitIdsMultipartMebibyteAndStreams_RouteBothWays(Topology topology) => Deadline.Run(() =>
    {
        var ourId = Bytes.Of("managed-router");
        var theirId = Bytes.Of("libzmq-router");
        using var link = new Link(topology, SocketType.Router, SocketType.Router,
            configureOurs: end => ConfigureRouter(end, ourId),
            configureTheirs: end => ConfigureRouter(end, theirId),
            Transport);
        var (ours, theirs) = (link.Ours, link.Theirs);

        // The connecting ROUTER speaks first: it learns the binder's id from the binder's READY.
        var (connector, connectorId, binder, binderId) = topology == Topology.ManagedBinds
            ? (theirs, theirId, ours, ourId)
            : (ours, ourId, theirs, theirId);
        Transfer.SendWhenRoutable(connector, binderId, Bytes.Of("ping"), []);
        Bytes.Equal([connectorId, Bytes.Of("ping"), []], binder.RecvMessage(), "first message at the binding ROUTER");

        Transfer.Deliver(ours, theirs, [theirId, .. Transfer.MultipartWithEmptyFrames()], [ourId, .. Transfer.MultipartWithEmptyFrames()]);
        Transfer.Deliver(theirs, ours, [ourId, Bytes.Pattern(Transfer.MiB)], [theirId, Bytes.Pattern(Transfer.MiB)]);
        Transfer.Deliver(ours, theirs, [theirId, Bytes.Pattern(Transfer.MiB, 4)], [ourId, Bytes.Pattern(Transfer.MiB, 4)]);
        Transfer.Stream(ours, theirs, make: i => [theirId, Transfer.StreamFrame(i)], expect: i => [ourId, Transfer.StreamFrame(i)]);
        Transfer.Stream(theirs, ours, make: i => [ourId, Transfer.StreamFrame(i)], expect: i => [theirId, Transfer.StreamFrame(i)]);
    });

    [Theory, MemberData(nameof(PubSubRoles))]
    public Task PubSub_FilteredMultipartMebibyteAndStream_ArriveInOrder(Topology topology, SocketType ours) => Deadline.Run(() =>
    {
        using var link = Open(topology, ours, SocketType.Pub, SocketType.Sub, Unlimited.Hwm);
        var (pub, sub) = (link[SocketType.Pub], link[SocketType.Sub]);
        sub.Subscribe(Topic);
        Transfer.WaitForSubscription(pub, sub, Probe);

        pub.SendMessage(Bytes.Of("u/not subscribed"));
        pub.SendMessage(Topic, [], Bytes.Of("multipart"));
        Bytes.Equal([Topic, [], Bytes.Of("multipart")], Transfer.RecvSkipping(sub, Probe), "first message after the probes");

        // Probes were all sent before that message, so from here on the stream is exact.
        pub.SendMessage(Bytes.Of("t"), Bytes.Of("shorter than the prefix"));
        Transfer.Deliver(pub, sub, [Topic, Bytes.Pattern(Transfer.MiB)]);
        Transfer.Stream(pub, sub, make: i => [Topic, Transfer.StreamFrame(i)]);
    });

    [Theory, MemberData(nameof(XPubXSubRoles))]
    public Task XPubXSub_SubscriptionsMultipartMebibyteAndStream_ArriveInOrder(Topology topology, SocketType ours) => Deadline.Run(() =>
    {
        using var link = Open(topology, ours, SocketType.XPub, SocketType.XSub, Unlimited.Hwm);
        var (xpub, xsub) = (link[SocketType.XPub], link[SocketType.XSub]);
        ConnectSubscriber(xpub, xsub);

        xsub.SendMessage(Bytes.Subscription(true, Topic));
        ExpectSubscription(xpub, true, Topic);

        // The XPUB has the subscription once it has reported it: nothing published now is lost.
        xpub.SendMessage(Bytes.Of("u/not subscribed"));
        Transfer.Deliver(xpub, xsub, [Topic, [], Bytes.Of("multipart")]);
        Transfer.Deliver(xpub, xsub, [Topic, Bytes.Pattern(Transfer.MiB)]);
        Transfer.Stream(xpub, xsub, make: i => [Topic, Transfer.StreamFrame(i)]);

        xsub.SendMessage(Bytes.Subscription(false, Topic));
        ExpectSubscription(xpub, false, Topic);
    });

    [Theory, MemberData(nameof(Topologies))]
    public Task Pair_MultipartMebibyteAndStreams_BothWays(Topology topology) => Deadline.Run(() =>
    {
        using var link = new Link(topology, SocketType.Pair, SocketType.Pair, null, null, Transport);

        Transfer.Deliver(link.Ours, link.Theirs, Transfer.MultipartWithEmptyFrames());
        Transfer.Deliver(link.Theirs, link.Ours, Transfer.MultipartWithEmptyFrames());
        Transfer.Deliver(link.Ours, link.Theirs, [Bytes.Pattern(Transfer.MiB)]);
        Transfer.Deliver(link.Theirs, link.Ours, [Bytes.Pattern(Transfer.MiB, 7)]);
        Transfer.Stream(link.Ours, link.Theirs);
        Transfer.Stream(link.Theirs, link.Ours);
    });

    private static void ConfigureRouter(IEnd end, byte[] id)
    {
        end.SetOption(LibZmq.ZMQ_ROUTING_ID, id);
        end.SetOption(LibZmq.ZMQ_ROUTER_MANDATORY, 1);
        Unlimited.Hwm(end);
    }

    /// <summary>
    /// Waits until the XSUB's connection is up: subscribes to <see cref="SyncTopic"/> until the XPUB
    /// reports it (a bound libzmq socket attaches an accepted connection only when it next sends,
    /// receives or polls, and an XSUB flushes replayed subscriptions only with its next one).
    /// </summary>
    private static void ConnectSubscriber(IEnd xpub, IEnd xsub)
    {
        var expected = Bytes.Subscription(true, SyncTopic);
        Deadline.RetryUntil(() =>
        {
            Assert.Null(xsub.TryRecvMessage(TimeSpan.Zero));
            xsub.SendMessage(expected);
            var got = xpub.TryRecvMessage(Timeouts.Probe);
            if (got is null)
                return false;
            Bytes.Equal([expected], got, $"first subscription at {xpub.Name}");
            return true;
        }, $"{xpub.Name} to report the subscription of {xsub.Name}");
    }

    /// <summary>The XPUB's next message is this (un)subscription, after any repeats of the sync subscription.</summary>
    private static void ExpectSubscription(IEnd xpub, bool subscribe, byte[] topic) =>
        Bytes.Equal([Bytes.Subscription(subscribe, topic)], Transfer.RecvSkipping(xpub, Bytes.Subscription(true, SyncTopic)),
            $"{(subscribe ? "subscription" : "cancel")} of {Bytes.Text(topic)} at {xpub.Name}");
}

/// <summary>Every pattern pair against libzmq over <c>ipc://</c> on an absolute path.</summary>
public sealed class IpcPatternTests : PatternOverTransportTests
{
    protected override Transport Transport => Transport.Ipc;
}

/// <summary>
/// The same suite over <c>tcp://</c>: the transport is a parameter of one suite, so ipc and tcp
/// cannot drift apart.
/// </summary>
public sealed class TcpPatternTests : PatternOverTransportTests
{
    protected override Transport Transport => Transport.Tcp;
}
