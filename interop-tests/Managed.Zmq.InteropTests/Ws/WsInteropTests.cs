using Managed.Zmq.InteropTests.Infrastructure;
using Managed.Zmq.InteropTests.Native;
using Managed.Zmq.InteropTests.Security;

namespace Managed.Zmq.InteropTests.Ws;

/// <summary>
/// ws:// (ZWS 2.0, RFC 45) against libzmq built with drafts: every classic pair, both topologies
/// (we bind / libzmq binds) and both roles, with NULL, PLAIN and CURVE.
/// </summary>
public sealed class WsInteropTests
{
    private static readonly byte[] Probe = Bytes.Of("sync/probe");

    public static TheoryData<Topology, SocketType> PushPullRoles => Cases.Roles(SocketType.Push, SocketType.Pull);

    public static TheoryData<Topology, SocketType> ReqRepRoles => Cases.Roles(SocketType.Req, SocketType.Rep);

    public static TheoryData<Topology, SocketType> PubSubRoles => Cases.Roles(SocketType.Pub, SocketType.Sub);

    public static TheoryData<Topology, SocketType> XPubXSubRoles => Cases.Roles(SocketType.XPub, SocketType.XSub);

    public static TheoryData<Topology, SocketType> DealerRouterRoles => Cases.Roles(SocketType.Dealer, SocketType.Router);

    public static TheoryData<Topology, SocketType> DealerDealerRoles => Cases.Roles(SocketType.Dealer, SocketType.Dealer);

    public static TheoryData<Topology> Topologies => Cases.Topologies();

    [Fact]
    public void DraftLibzmq_LoadedBesideSystemLibzmq_EachKeepsItsOwnBuild()
    {
        DraftLibZmq.Version(out var major, out var minor, out _);
        Assert.Equal((4, 3), (major, minor));

        // Both carry the SONAME libzmq.so.5: the other interop tests must still reach Debian's build.
        Assert.Equal(1, DraftLibZmq.Has("draft"));
        Assert.Equal(0, LibZmq.zmq_has("draft"));
    }

    [Theory, MemberData(nameof(PushPullRoles))]
    public Task PushPull_FramesOfEverySize_ArriveIntact(Topology topology, SocketType ours) => Deadline.Run(() =>
    {
        using var link = new WsLink(topology, ours, Cases.Peer(ours, SocketType.Push, SocketType.Pull));
        var (push, pull) = (link[SocketType.Push], link[SocketType.Pull]);
        Transfer.Deliver(push, pull, [Bytes.Of("hello")]);
        Transfer.Deliver(push, pull, Transfer.MultipartWithEmptyFrames());
        Transfer.Deliver(push, pull, [[]]);
        // 125/126 and 65535/65536 are where WebSocket's length field changes form (the flags octet counts).
        foreach (var size in (int[])[.. Transfer.BoundarySizes, 124, 125, 126, 65534])
            Transfer.Deliver(push, pull, [Bytes.Pattern(size, size)]);
        Transfer.Deliver(push, pull, [Bytes.Pattern(Transfer.MiB, 5), [], Bytes.Pattern(Transfer.MiB + 1, 6)]);
    });

    [Theory, MemberData(nameof(PushPullRoles))]
    public Task PushPull_TenThousandMessages_ArriveCompleteAndInOrder(Topology topology, SocketType ours) => Deadline.Run(() =>
    {
        using var link = new WsLink(topology, ours, Cases.Peer(ours, SocketType.Push, SocketType.Pull));
        Transfer.Stream(link[SocketType.Push], link[SocketType.Pull]);
    });

    [Theory, MemberData(nameof(ReqRepRoles))]
    public Task ReqRep_RequestsAndReplies_RoundTripIntact(Topology topology, SocketType ours) => Deadline.Run(() =>
    {
        using var link = new WsLink(topology, ours, Cases.Peer(ours, SocketType.Req, SocketType.Rep));
        var (req, rep) = (link[SocketType.Req], link[SocketType.Rep]);
        for (var i = 0; i < 100; i++)
        {
            Transfer.Deliver(req, rep, [Transfer.StreamFrame(i)]);
            Transfer.Deliver(rep, req, [Bytes.Of("reply"), Transfer.StreamFrame(i + 1)]);
        }

        Transfer.Deliver(req, rep, [Bytes.Pattern(Transfer.MiB), Bytes.Of("tail")]);
        Transfer.Deliver(rep, req, [[]]);
    });

    [Theory, MemberData(nameof(PubSubRoles))]
    public Task PubSub_SubscribedPrefix_DeliveredAndOthersFiltered(Topology topology, SocketType ours) => Deadline.Run(() =>
    {
        using var link = new WsLink(topology, ours, Cases.Peer(ours, SocketType.Pub, SocketType.Sub));
        var (pub, sub) = (link[SocketType.Pub], link[SocketType.Sub]);
        sub.Subscribe(Bytes.Of("weather"));
        sub.Subscribe(Probe);
        Transfer.WaitForSubscription(pub, sub, Probe);

        pub.SendMessage(Bytes.Of("sports"), Bytes.Of("filtered out"));
        pub.SendMessage(Bytes.Of("weather/oslo"), Bytes.Of("rain"));
        Bytes.Equal([Bytes.Of("weather/oslo"), Bytes.Of("rain")], Transfer.RecvSkipping(sub, Probe), "subscribed message");

        // Unsubscribing travels as a 0x00-prefixed message over ZWS; afterwards only the probe passes.
        sub.Unsubscribe(Bytes.Of("weather"));
        Deadline.RetryUntil(() =>
        {
            pub.SendMessage(Bytes.Of("weather/bergen"));
            pub.SendMessage(Probe);
            var got = sub.RecvMessage();
            if (got[0].AsSpan().SequenceEqual(Probe))
                return sub.TryRecvMessage(Timeouts.Probe) is null;
            return false;
        }, "the unsubscription to reach the publisher");
    });

    [Theory, MemberData(nameof(XPubXSubRoles))]
    public Task XPubXSub_SubscriptionMessages_SeenByPublisher(Topology topology, SocketType ours) => Deadline.Run(() =>
    {
        using var link = new WsLink(topology, ours, Cases.Peer(ours, SocketType.XPub, SocketType.XSub));
        var (xpub, xsub) = (link[SocketType.XPub], link[SocketType.XSub]);
        // Subscribe until the XPUB reports it: the connection is up only then (XPUB drops repeats).
        byte[] subscription = [0x01, .. Bytes.Of("topic")];
        Deadline.RetryUntil(() =>
        {
            Assert.Null(xsub.TryRecvMessage(TimeSpan.Zero)); // lets a bound libzmq XSUB attach the connection
            xsub.SendMessage(subscription);
            var got = xpub.TryRecvMessage(Timeouts.Probe);
            if (got is null)
                return false;
            Bytes.Equal([subscription], got, "subscription at the XPUB");
            return true;
        }, "the XPUB to report the subscription");
        xpub.SendMessage(Bytes.Of("topic/1"), Bytes.Of("body"));
        Bytes.Equal([Bytes.Of("topic/1"), Bytes.Of("body")], xsub.RecvMessage(), "published message");
    });

    [Theory, MemberData(nameof(DealerRouterRoles))]
    public Task DealerRouter_RoutingIdAndReplies_RouteBack(Topology topology, SocketType ours) => Deadline.Run(() =>
    {
        var routingId = Bytes.Of("dealer-1");
        using var link = new WsLink(topology, ours, Cases.Peer(ours, SocketType.Dealer, SocketType.Router),
            configureOurs: end => { if (end.Type == SocketType.Dealer) end.SetOption(LibZmq.ZMQ_ROUTING_ID, routingId); },
            configureTheirs: end => { if (end.Type == SocketType.Dealer) end.SetOption(LibZmq.ZMQ_ROUTING_ID, routingId); });
        var (dealer, router) = (link[SocketType.Dealer], link[SocketType.Router]);
        for (var i = 0; i < 50; i++)
        {
            dealer.SendMessage(Bytes.Of("request"), Transfer.StreamFrame(i));
            Bytes.Equal([routingId, Bytes.Of("request"), Transfer.StreamFrame(i)], router.RecvMessage(), "request at the ROUTER");
            router.SendMessage(routingId, Bytes.Of("reply"), Transfer.StreamFrame(i));
            Bytes.Equal([Bytes.Of("reply"), Transfer.StreamFrame(i)], dealer.RecvMessage(), "reply at the DEALER");
        }
    });

    [Theory, MemberData(nameof(DealerDealerRoles))]
    public Task DealerDealer_BothDirections_Arrive(Topology topology, SocketType ours) => Deadline.Run(() =>
    {
        using var link = new WsLink(topology, ours, SocketType.Dealer);
        Transfer.Deliver(link.Ours, link.Theirs, [Bytes.Of("to libzmq"), Bytes.Pattern(70_000)]);
        Transfer.Deliver(link.Theirs, link.Ours, [Bytes.Of("to us"), Bytes.Pattern(300)]);
    });

    [Theory, MemberData(nameof(Topologies))]
    public Task Pair_BothDirections_Arrive(Topology topology) => Deadline.Run(() =>
    {
        using var link = new WsLink(topology, SocketType.Pair, SocketType.Pair);
        Transfer.Deliver(link.Ours, link.Theirs, [Bytes.Of("ping")]);
        Transfer.Deliver(link.Theirs, link.Ours, [Bytes.Of("pong"), Bytes.Pattern(200_000)]);
    });

    [Theory, MemberData(nameof(Topologies))]
    public Task Plain_OursServerOrClient_Authenticates(Topology topology) => Deadline.Run(() =>
    {
        // The binder is the PLAIN server: ZWS2.0/PLAIN is offered and accepted, then ZMTP's PLAIN commands run over ws.
        bool oursServer = topology == Topology.ManagedBinds;
        void Server(IEnd end) => end.SetOption(LibZmq.ZMQ_PLAIN_SERVER, 1);
        void Client(IEnd end)
        {
            SetString(end, LibZmq.ZMQ_PLAIN_USERNAME, "admin");
            SetString(end, LibZmq.ZMQ_PLAIN_PASSWORD, "secret");
        }

        // libzmq's PLAIN server asks a ZAP handler (without one it fails the handshake with EFAULT), and so does ours.
        using var ourContextLink = new WsLinkWithZap(topology, oursServer, Server, Client);
        var link = ourContextLink.Link;
        var (req, rep) = oursServer ? (link.Theirs, link.Ours) : (link.Ours, link.Theirs);
        Transfer.Deliver(req, rep, [Bytes.Of("hello over PLAIN")]);
        Transfer.Deliver(rep, req, [Bytes.Of("welcome")]);
    });

    [Theory, MemberData(nameof(Topologies))]
    public Task Curve_OursServerOrClient_EncryptsBothWays(Topology topology) => Deadline.Run(() =>
    {
        var server = CurveKeys.New();
        var client = CurveKeys.New();
        bool oursServer = topology == Topology.ManagedBinds;
        void Server(IEnd end) => Secure.CurveServer(end, server);

        void Client(IEnd end) => Secure.CurveClient(end, client, server.PublicZ85);

        using var link = new WsLink(topology, SocketType.Pub, SocketType.Sub,
            configureOurs: oursServer ? Server : Client, configureTheirs: oursServer ? Client : Server);
        var (pub, sub) = (link.Ours, link.Theirs);
        // Under CURVE, libzmq's ws engine sends SUBSCRIBE as a command inside MESSAGE (not a 0x01 message).
        sub.Subscribe(Probe);
        sub.Subscribe(Bytes.Of("news"));
        Transfer.WaitForSubscription(pub, sub, Probe);
        pub.SendMessage(Bytes.Of("other"));
        pub.SendMessage(Bytes.Of("news/1"), Bytes.Pattern(100_000));
        Bytes.Equal([Bytes.Of("news/1"), Bytes.Pattern(100_000)], Transfer.RecvSkipping(sub, Probe), "CURVE message");
    });

    [Theory, MemberData(nameof(Topologies))]
    public Task Curve_TheirsPublishes_OursSubscribes(Topology topology) => Deadline.Run(() =>
    {
        var server = CurveKeys.New();
        var client = CurveKeys.New();
        using var link = new WsLink(topology, SocketType.Sub, SocketType.Pub,
            configureOurs: end =>
            {
                end.SetOption(LibZmq.ZMQ_CURVE_SERVERKEY, server.Public);
                end.SetOption(LibZmq.ZMQ_CURVE_PUBLICKEY, client.Public);
                end.SetOption(LibZmq.ZMQ_CURVE_SECRETKEY, client.Secret);
            },
            configureTheirs: end =>
            {
                end.SetOption(LibZmq.ZMQ_CURVE_SERVER, 1);
                end.SetOption(LibZmq.ZMQ_CURVE_SECRETKEY, server.Secret);
            });
        var (sub, pub) = (link.Ours, link.Theirs);
        sub.Subscribe(Probe);
        Transfer.WaitForSubscription(pub, sub, Probe);
    });

    public static TheoryData<Topology, bool> HeartbeatCases => new()
    {
        { Topology.ManagedBinds, true }, { Topology.ManagedBinds, false },
        { Topology.NativeBinds, true }, { Topology.NativeBinds, false },
    };

    [Theory, MemberData(nameof(HeartbeatCases))]
    public Task Heartbeats_QuietConnection_PingsAnswered(Topology topology, bool oursPings) => Deadline.Run(() =>
    {
        // One side pings every 20 ms and drops the connection when 500 ms pass without traffic
        // after a ping (libzmq pings with WebSocket ping frames, and so do we). Pings are traffic
        // too, so only one side pings: on a connection quiet for four timeouts, only the other
        // side's pongs keep it up. A DISCONNECTED at libzmq's monitor (either side dropping shows
        // there) means a ping went unanswered.
        static void Heartbeat(IEnd end)
        {
            end.SetOption(LibZmq.ZMQ_HEARTBEAT_IVL, 20);
            end.SetOption(LibZmq.ZMQ_HEARTBEAT_TIMEOUT, 500);
        }

        using var link = new WsLink(topology, SocketType.Pair, SocketType.Pair,
            configureOurs: oursPings ? Heartbeat : null, configureTheirs: oursPings ? null : Heartbeat);
        using var theirMonitor = ((DraftSocket)link.Theirs).Monitor(LibZmq.ZMQ_EVENT_DISCONNECTED);
        Transfer.Deliver(link.Ours, link.Theirs, [Bytes.Of("before")]);

        Assert.Null(theirMonitor.NextEvent(TimeSpan.FromSeconds(2)));

        Transfer.Deliver(link.Theirs, link.Ours, [Bytes.Of("after")]);
        Transfer.Deliver(link.Ours, link.Theirs, [Bytes.Of("after")]);
    });

    /// <summary>A REQ/REP link whose server side (the binder) has a ZAP handler that admits everyone.</summary>
    private sealed class WsLinkWithZap : IDisposable
    {
        private readonly ZapAuthenticator? _ours;
        private readonly DraftZapHandler? _theirs;

        public WsLinkWithZap(Topology topology, bool oursServer, Action<IEnd> server, Action<IEnd> client)
        {
            // The server binds: ours is REP when we bind, REQ otherwise.
            var oursType = oursServer ? SocketType.Rep : SocketType.Req;
            Link = new WsLink(topology, oursType, Cases.Peer(oursType, SocketType.Req, SocketType.Rep),
                configureOurs: oursServer ? server : client, configureTheirs: oursServer ? client : server, connectLater: true);
            if (oursServer)
            {
                _ours = new ZapAuthenticator(Link.OurContext);
                _ours.ConfigurePlain("*", new Dictionary<string, string> { ["admin"] = "secret" });
            }
            else
            {
                _theirs = new DraftZapHandler(Link.TheirContext);
            }

            Link.ConnectNow();
        }

        public WsLink Link { get; }

        public void Dispose()
        {
            // The handler's socket closes before its context terminates (zmq_ctx_term waits for it).
            _theirs?.Dispose();
            Link.Dispose();
            _ours?.Dispose();
        }
    }

    private static void SetString(IEnd end, int option, string value)
    {
        switch (end)
        {
            case DraftSocket draft:
                draft.SetOption(option, value);
                break;
            default:
                Secure.SetString(end, option, value);
                break;
        }
    }
}
