using Managed.Zmq.InteropTests.Infrastructure;
using Managed.Zmq.InteropTests.Native;

namespace Managed.Zmq.InteropTests;

/// <summary>
/// DEALER↔ROUTER and ROUTER↔ROUTER against libzmq: routing ids announced in the handshake, the
/// ROUTER→DEALER reply path, and explicit ids on both ROUTERs.
/// </summary>
public sealed class DealerRouterTests
{
    public static TheoryData<Topology, SocketType> Roles => Cases.Roles(SocketType.Dealer, SocketType.Router);

    public static TheoryData<Topology> Topologies => Cases.Topologies();

    private static Link Open(Topology topology, SocketType ours, byte[]? dealerId = null, Action<IEnd>? configure = null)
    {
        void Configure(IEnd end)
        {
            if (end.Type == SocketType.Dealer && dealerId is not null)
                end.SetOption(LibZmq.ZMQ_ROUTING_ID, dealerId);
            configure?.Invoke(end);
        }

        return new Link(topology, ours, Cases.Peer(ours, SocketType.Dealer, SocketType.Router), Configure, Configure);
    }

    [Theory, MemberData(nameof(Roles))]
    public Task DealerRouter_RoutingIdSetOnDealer_RouterSeesItAndRepliesThroughIt(Topology topology, SocketType ours) => Deadline.Run(() =>
    {
        var id = Bytes.Of("dealer-7");
        using var link = Open(topology, ours, id);
        var (dealer, router) = (link[SocketType.Dealer], link[SocketType.Router]);

        dealer.SendMessage(Bytes.Of("hello"));
        Bytes.Equal([id, Bytes.Of("hello")], router.RecvMessage(), "DEALER message at the ROUTER");

        router.SendMessage(id, Bytes.Of("world"), []);
        Bytes.Equal([Bytes.Of("world"), []], dealer.RecvMessage(), "ROUTER reply at the DEALER");
    });

    [Theory, MemberData(nameof(Roles))]
    public Task DealerRouter_RoutingIdOf255Bytes_RoutesBothWays(Topology topology, SocketType ours) => Deadline.Run(() =>
    {
        // The largest routing id fits a short READY property; libzmq also allows a leading 0x00.
        var id = Bytes.Pattern(255, 9);
        id[0] = 0;
        using var link = Open(topology, ours, id);
        var (dealer, router) = (link[SocketType.Dealer], link[SocketType.Router]);

        dealer.SendMessage(Bytes.Of("hello"));
        Bytes.Equal([id, Bytes.Of("hello")], router.RecvMessage(), "DEALER message at the ROUTER");
        router.SendMessage(id, Bytes.Of("world"));
        Bytes.Equal([Bytes.Of("world")], dealer.RecvMessage(), "ROUTER reply at the DEALER");
    });

    [Theory, MemberData(nameof(Roles))]
    public Task DealerRouter_NoRoutingId_GeneratedIdRoutesReply(Topology topology, SocketType ours) => Deadline.Run(() =>
    {
        using var link = Open(topology, ours);
        var (dealer, router) = (link[SocketType.Dealer], link[SocketType.Router]);

        dealer.SendMessage(Bytes.Of("who am I"));
        var request = router.RecvMessage();
        Assert.Equal(2, request.Length);
        var generated = request[0];
        // libzmq generates 5-byte ids starting with 0x00 (test_connect_rid); ours follows libzmq.
        Assert.True(generated.Length == 5 && generated[0] == 0,
            $"{router.Name} generated routing id {Convert.ToHexString(generated)}, expected 00 + 4 bytes");

        router.SendMessage(generated, Bytes.Of("you are you"));
        Bytes.Equal([Bytes.Of("you are you")], dealer.RecvMessage(), "reply through the generated id");
    });

    [Theory, MemberData(nameof(Roles))]
    public Task DealerRouter_EmptyBoundaryAndMebibyteFrames_RoundTrip(Topology topology, SocketType ours) => Deadline.Run(() =>
    {
        var id = Bytes.Of("D");
        using var link = Open(topology, ours, id);
        var (dealer, router) = (link[SocketType.Dealer], link[SocketType.Router]);

        byte[][] body = [[], Bytes.Pattern(255), Bytes.Pattern(256), Bytes.Pattern(Transfer.MiB), []];
        Transfer.Deliver(dealer, router, body, [id, .. body]);
        Transfer.Deliver(router, dealer, [id, .. body], body);
    });

    [Theory, MemberData(nameof(Roles))]
    public Task DealerRouter_TenThousandMessagesEachWay_ArriveInOrder(Topology topology, SocketType ours) => Deadline.Run(() =>
    {
        // A ROUTER drops at its high-water mark instead of blocking, so lift the limit for the stream.
        var id = Bytes.Of("streamer");
        using var link = Open(topology, ours, id, Unlimited.Hwm);
        var (dealer, router) = (link[SocketType.Dealer], link[SocketType.Router]);

        Transfer.Stream(dealer, router, expect: i => [id, Transfer.StreamFrame(i)]);
        Transfer.Stream(router, dealer, make: i => [id, Transfer.StreamFrame(i)], expect: i => [Transfer.StreamFrame(i)]);
    });

    [Theory, MemberData(nameof(Topologies))]
    public Task RouterRouter_ExplicitIdsOnBothSides_RouteBothWays(Topology topology) => Deadline.Run(() =>
    {
        var ourId = Bytes.Of("managed-router");
        var theirId = Bytes.Of("libzmq-router");
        using var link = new Link(topology, SocketType.Router, SocketType.Router,
            configureOurs: end =>
            {
                end.SetOption(LibZmq.ZMQ_ROUTING_ID, ourId);
                end.SetOption(LibZmq.ZMQ_ROUTER_MANDATORY, 1);
            },
            configureTheirs: end =>
            {
                end.SetOption(LibZmq.ZMQ_ROUTING_ID, theirId);
                end.SetOption(LibZmq.ZMQ_ROUTER_MANDATORY, 1);
            });
        var (ours, theirs) = (link.Ours, link.Theirs);
        // The connecting ROUTER speaks first: it learns the binder's id from the binder's READY.
        var (connector, connectorId, binder, binderId) = topology == Topology.ManagedBinds
            ? (theirs, theirId, ours, ourId)
            : (ours, ourId, theirs, theirId);

        Transfer.SendWhenRoutable(connector, binderId, Bytes.Of("ping"), []);
        Bytes.Equal([connectorId, Bytes.Of("ping"), []], binder.RecvMessage(), "first message at the binding ROUTER");

        binder.SendMessage(connectorId, Bytes.Of("pong"), Bytes.Pattern(256));
        Bytes.Equal([binderId, Bytes.Of("pong"), Bytes.Pattern(256)], connector.RecvMessage(), "reply at the connecting ROUTER");

        Transfer.Deliver(ours, theirs, [theirId, Bytes.Pattern(Transfer.MiB)], [ourId, Bytes.Pattern(Transfer.MiB)]);
        Transfer.Deliver(theirs, ours, [ourId, []], [theirId, []]);
    });

    [Theory, MemberData(nameof(Topologies))]
    public Task RouterRouter_MandatoryUnknownId_SendFailsWithoutSideEffects(Topology topology) => Deadline.Run(() =>
    {
        var ourId = Bytes.Of("A");
        var theirId = Bytes.Of("B");
        using var link = new Link(topology, SocketType.Router, SocketType.Router,
            configureOurs: end =>
            {
                end.SetOption(LibZmq.ZMQ_ROUTING_ID, ourId);
                end.SetOption(LibZmq.ZMQ_ROUTER_MANDATORY, 1);
            },
            configureTheirs: end => end.SetOption(LibZmq.ZMQ_ROUTING_ID, theirId));

        // Once routable, an unknown id is still refused (EHOSTUNREACH) and the known one still works.
        Transfer.SendWhenRoutable(link.Ours, theirId, Bytes.Of("first"));
        Bytes.Equal([ourId, Bytes.Of("first")], link.Theirs.RecvMessage(), "first message");
        Assert.False(link.Ours.TrySendMessage(Bytes.Of("nobody"), Bytes.Of("lost")));
        link.Ours.SendMessage(theirId, Bytes.Of("second"));
        Bytes.Equal([ourId, Bytes.Of("second")], link.Theirs.RecvMessage(), "message after the refused one");
    });
}
