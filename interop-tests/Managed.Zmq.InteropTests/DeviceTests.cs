using Managed.Zmq.InteropTests.Infrastructure;
using Managed.Zmq.InteropTests.Native;

namespace Managed.Zmq.InteropTests;

/// <summary>
/// Multi-hop envelopes across a mix of libzmq and Managed.Zmq sockets (test_reqrep_device), and
/// ZMQ_PROBE_ROUTER's connect-time empty message (test_probe_router).
/// </summary>
public sealed class DeviceTests
{
    public static TheoryData<bool> DeviceIsManaged => new(true, false);

    [Theory, MemberData(nameof(DeviceIsManaged))]
    public Task ReqRepDevice_RouterDealerBetweenReqAndRep_EnvelopeSurvivesBothHops(bool deviceIsManaged) => Deadline.Run(() =>
    {
        // REQ → ROUTER | DEALER → REP, the device forwarding frames verbatim; either the device is
        // ours and the ends are libzmq, or the other way round.
        using var native = new NativeContext();
        using var managed = new ManagedPeer();
        IPeer devicePeer = deviceIsManaged ? managed : native;
        IPeer endPeer = deviceIsManaged ? native : managed;

        using var router = devicePeer.Socket(SocketType.Router);
        using var dealer = devicePeer.Socket(SocketType.Dealer);
        using var req = endPeer.Socket(SocketType.Req);
        using var rep = endPeer.Socket(SocketType.Rep);
        req.SetOption(LibZmq.ZMQ_ROUTING_ID, Bytes.Of("client"));
        req.Connect(router.BindEphemeral());
        rep.Connect(dealer.BindEphemeral());

        for (var i = 0; i < 3; i++)
        {
            req.SendMessage(Bytes.Of($"request {i}"), Bytes.Pattern(256, i));
            var request = router.RecvMessage();
            Bytes.Equal([Bytes.Of("client"), [], Bytes.Of($"request {i}"), Bytes.Pattern(256, i)], request, "request at the device's ROUTER");
            dealer.SendMessage(request);
            Bytes.Equal([Bytes.Of($"request {i}"), Bytes.Pattern(256, i)], rep.RecvMessage(), "request at the REP");

            rep.SendMessage(Bytes.Of($"reply {i}"));
            var reply = dealer.RecvMessage();
            Bytes.Equal([Bytes.Of("client"), [], Bytes.Of($"reply {i}")], reply, "reply at the device's DEALER");
            router.SendMessage(reply);
            Bytes.Equal([Bytes.Of($"reply {i}")], req.RecvMessage(), "reply at the REQ");
        }
    });

    public static TheoryData<Topology> Topologies => Cases.Topologies();

    [Theory, MemberData(nameof(Topologies))]
    public Task ProbeRouter_ConnectingDealerWithProbe_BindingRouterLearnsIdWithoutTraffic(Topology topology) => Deadline.Run(() =>
    {
        // The connecting side probes: ours when libzmq binds, libzmq's when we bind.
        var oursConnects = topology == Topology.NativeBinds;
        static void Probe(IEnd end)
        {
            end.SetOption(LibZmq.ZMQ_ROUTING_ID, Bytes.Of("X"));
            end.SetOption(LibZmq.ZMQ_PROBE_ROUTER, 1);
        }

        using var link = new Link(topology,
            ours: oursConnects ? SocketType.Dealer : SocketType.Router,
            theirs: oursConnects ? SocketType.Router : SocketType.Dealer,
            configureOurs: oursConnects ? Probe : null,
            configureTheirs: oursConnects ? null : Probe);
        var (dealer, router) = (link[SocketType.Dealer], link[SocketType.Router]);

        Bytes.Equal([Bytes.Of("X"), []], router.RecvMessage(), "probe at the ROUTER");
        router.SendMessage(Bytes.Of("X"), Bytes.Of("hello"));
        Bytes.Equal([Bytes.Of("hello")], dealer.RecvMessage(), "reply to the probing DEALER");
    });
}
