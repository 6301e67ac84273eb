using Managed.Zmq.InteropTests.Infrastructure;

namespace Managed.Zmq.InteropTests;

/// <summary>
/// REQ↔REP against libzmq, plus the envelopes each side puts on the wire: REQ's empty delimiter
/// as a libzmq/our ROUTER sees it, and REP stripping and restoring a DEALER's address envelope.
/// </summary>
public sealed class ReqRepTests
{
    public static TheoryData<Topology, SocketType> ReqRepRoles => Cases.Roles(SocketType.Req, SocketType.Rep);

    public static TheoryData<Topology, SocketType> ReqRouterRoles => Cases.Roles(SocketType.Req, SocketType.Router);

    public static TheoryData<Topology, SocketType> DealerRepRoles => Cases.Roles(SocketType.Dealer, SocketType.Rep);

    [Theory, MemberData(nameof(ReqRepRoles))]
    public Task ReqRep_RequestsAndReplies_RoundTripIntact(Topology topology, SocketType ours) => Deadline.Run(() =>
    {
        using var link = new Link(topology, ours, Cases.Peer(ours, SocketType.Req, SocketType.Rep));
        var (req, rep) = (link[SocketType.Req], link[SocketType.Rep]);

        byte[][][] bodies =
        [
            [Bytes.Of("hello")],
            [[]],
            Transfer.MultipartWithEmptyFrames(),
            [Bytes.Pattern(255)],
            [Bytes.Pattern(256)],
            [Bytes.Pattern(Transfer.MiB), Bytes.Of("tail")],
        ];
        foreach (var body in bodies)
        {
            Transfer.Deliver(req, rep, body);
            Transfer.Deliver(rep, req, [Bytes.Of("reply"), .. body]);
        }
    });

    [Theory, MemberData(nameof(ReqRepRoles))]
    public Task ReqRep_ThousandRoundTrips_StayPaired(Topology topology, SocketType ours) => Deadline.Run(() =>
    {
        using var link = new Link(topology, ours, Cases.Peer(ours, SocketType.Req, SocketType.Rep));
        var (req, rep) = (link[SocketType.Req], link[SocketType.Rep]);
        for (var i = 0; i < 1_000; i++)
        {
            Transfer.Deliver(req, rep, [Transfer.StreamFrame(i)]);
            Transfer.Deliver(rep, req, [Transfer.StreamFrame(i + 1)]);
        }
    });

    [Theory, MemberData(nameof(ReqRouterRoles))]
    public Task ReqRouter_Request_CarriesRoutingIdAndEmptyDelimiter(Topology topology, SocketType ours) => Deadline.Run(() =>
    {
        var routingId = Bytes.Of("client-1");
        using var link = new Link(topology, ours, Cases.Peer(ours, SocketType.Req, SocketType.Router),
            configureOurs: end => { if (end.Type == SocketType.Req) end.SetOption(Native.LibZmq.ZMQ_ROUTING_ID, routingId); },
            configureTheirs: end => { if (end.Type == SocketType.Req) end.SetOption(Native.LibZmq.ZMQ_ROUTING_ID, routingId); });
        var (req, router) = (link[SocketType.Req], link[SocketType.Router]);

        req.SendMessage(Bytes.Of("request"), Bytes.Of("part 2"));
        Bytes.Equal([routingId, [], Bytes.Of("request"), Bytes.Of("part 2")], router.RecvMessage(), "REQ request as the ROUTER sees it");

        router.SendMessage(routingId, [], Bytes.Of("reply"));
        Bytes.Equal([Bytes.Of("reply")], req.RecvMessage(), "ROUTER reply as the REQ sees it");

        // A second exchange proves the REQ went back to its sending state.
        req.SendMessage(Bytes.Of("again"));
        Bytes.Equal([routingId, [], Bytes.Of("again")], router.RecvMessage(), "second REQ request");
        router.SendMessage(routingId, [], Bytes.Of("done"), []);
        Bytes.Equal([Bytes.Of("done"), []], req.RecvMessage(), "second ROUTER reply");
    });

    [Theory, MemberData(nameof(DealerRepRoles))]
    public Task DealerRep_AddressEnvelope_IsStrippedAndRestored(Topology topology, SocketType ours) => Deadline.Run(() =>
    {
        using var link = new Link(topology, ours, Cases.Peer(ours, SocketType.Dealer, SocketType.Rep));
        var (dealer, rep) = (link[SocketType.Dealer], link[SocketType.Rep]);

        // Minimal envelope: just the delimiter.
        dealer.SendMessage([], Bytes.Of("request"));
        Bytes.Equal([Bytes.Of("request")], rep.RecvMessage(), "REP strips the delimiter");
        rep.SendMessage(Bytes.Of("reply"));
        Bytes.Equal([[], Bytes.Of("reply")], dealer.RecvMessage(), "REP restores the delimiter");

        // Multi-hop envelope, as a chain of ROUTERs would build (test_spec_rep).
        byte[][] envelope = [Bytes.Of("hop-1"), Bytes.Pattern(255), Bytes.Of("hop-3"), []];
        dealer.SendMessage([.. envelope, Bytes.Of("deep"), []]);
        Bytes.Equal([Bytes.Of("deep"), []], rep.RecvMessage(), "REP strips a multi-hop envelope");
        rep.SendMessage(Bytes.Of("deep reply"));
        Bytes.Equal([.. envelope, Bytes.Of("deep reply")], dealer.RecvMessage(), "REP restores a multi-hop envelope");
    });
}
