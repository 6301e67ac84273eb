using Managed.Zmq.InteropTests.Infrastructure;
using Managed.Zmq.InteropTests.Native;

namespace Managed.Zmq.InteropTests;

/// <summary>The same wire protocol over <c>ipc://</c> (Unix domain sockets) against libzmq, each side binding.</summary>
public sealed class IpcTests
{
    public static TheoryData<Topology, SocketType> PushPullRoles => Cases.Roles(SocketType.Push, SocketType.Pull);

    public static TheoryData<Topology, SocketType> ReqRepRoles => Cases.Roles(SocketType.Req, SocketType.Rep);

    public static TheoryData<Topology, SocketType> DealerRouterRoles => Cases.Roles(SocketType.Dealer, SocketType.Router);

    public static TheoryData<Topology, SocketType> PubSubRoles => Cases.Roles(SocketType.Pub, SocketType.Sub);

    [Theory, MemberData(nameof(PushPullRoles))]
    public Task IpcPushPull_MultipartMebibyteAndStream_ArriveIntactAndInOrder(Topology topology, SocketType ours) => Deadline.Run(() =>
    {
        using var link = new Link(topology, ours, Cases.Peer(ours, SocketType.Push, SocketType.Pull), transport: Transport.Ipc);
        var (push, pull) = (link[SocketType.Push], link[SocketType.Pull]);
        Transfer.Deliver(push, pull, Transfer.MultipartWithEmptyFrames());
        Transfer.Deliver(push, pull, [Bytes.Pattern(Transfer.MiB)]);
        Transfer.Stream(push, pull);
    });

    [Theory, MemberData(nameof(ReqRepRoles))]
    public Task IpcReqRep_RoundTrips_RepliesMatchRequests(Topology topology, SocketType ours) => Deadline.Run(() =>
    {
        using var link = new Link(topology, ours, Cases.Peer(ours, SocketType.Req, SocketType.Rep), transport: Transport.Ipc);
        var (req, rep) = (link[SocketType.Req], link[SocketType.Rep]);
        for (var i = 0; i < 100; i++)
        {
            Transfer.Deliver(req, rep, [Transfer.StreamFrame(i)]);
            Transfer.Deliver(rep, req, [Transfer.StreamFrame(i + 1), []]);
        }
    });

    [Theory, MemberData(nameof(DealerRouterRoles))]
    public Task IpcDealerRouter_RoutingIdOnDealer_RouterRepliesThroughIt(Topology topology, SocketType ours) => Deadline.Run(() =>
    {
        var id = Bytes.Of("ipc-dealer");
        void Configure(IEnd end)
        {
            if (end.Type == SocketType.Dealer)
                end.SetOption(LibZmq.ZMQ_ROUTING_ID, id);
        }

        using var link = new Link(topology, ours, Cases.Peer(ours, SocketType.Dealer, SocketType.Router), Configure, Configure, transport: Transport.Ipc);
        var (dealer, router) = (link[SocketType.Dealer], link[SocketType.Router]);
        Transfer.Deliver(dealer, router, [Bytes.Of("hello")], [id, Bytes.Of("hello")]);
        Transfer.Deliver(router, dealer, [id, Bytes.Pattern(256)], [Bytes.Pattern(256)]);
    });

    [Theory, MemberData(nameof(PubSubRoles))]
    public Task IpcPubSub_SubscribedPrefix_DeliveredAndOthersFiltered(Topology topology, SocketType ours) => Deadline.Run(() =>
    {
        using var link = new Link(topology, ours, Cases.Peer(ours, SocketType.Pub, SocketType.Sub), transport: Transport.Ipc);
        var (pub, sub) = (link[SocketType.Pub], link[SocketType.Sub]);
        var probe = Bytes.Of("news/probe");
        sub.Subscribe(Bytes.Of("news/"));
        Transfer.WaitForSubscription(pub, sub, probe);
        pub.SendMessage(Bytes.Of("sports"));
        pub.SendMessage(Bytes.Of("news/1"), Bytes.Pattern(255));
        Bytes.Equal([Bytes.Of("news/1"), Bytes.Pattern(255)], Transfer.RecvSkipping(sub, probe), "filtered delivery over ipc");
    });
}
