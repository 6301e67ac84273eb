using Managed.Zmq.InteropTests.Infrastructure;
using Managed.Zmq.InteropTests.Native;
using Managed.Zmq.InteropTests.Security;

namespace Managed.Zmq.InteropTests.Ws;

/// <summary>
/// wss:// (ZWS 2.0 over TLS, RFC 45) against the draft libzmq built with GnuTLS: ours as client and
/// as server, with NULL, PLAIN and CURVE inside, and each side refusing the other's certificate
/// (untrusted authority, name mismatch) with the monitor event libzmq raises. Certificates are made
/// when the test runs.
/// </summary>
public sealed class WssInteropTests
{
    private const int HandshakeFailedNoDetail = 0x0800;
    private const int HandshakeSucceeded = 0x1000;
    private const int HandshakeFailedProtocol = 0x2000;

    public static TheoryData<Topology, SocketType> ReqRepRoles => Cases.Roles(SocketType.Req, SocketType.Rep);

    public static TheoryData<Topology, SocketType> PushPullRoles => Cases.Roles(SocketType.Push, SocketType.Pull);

    public static TheoryData<Topology> Topologies => Cases.Topologies();

    [Fact]
    public void DraftLibzmq_Capabilities_IncludeWss()
    {
        // libzmq spells these capabilities in capitals; built without TLS it has WS but not WSS.
        Assert.Equal(1, DraftLibZmq.Has("WS"));
        Assert.Equal(1, DraftLibZmq.Has("WSS"));
    }

    [Theory, MemberData(nameof(ReqRepRoles))]
    public Task ReqRep_OverWss_RoundTripIntact(Topology topology, SocketType ours) => Deadline.Run(() =>
    {
        using var link = new WssLink(topology, ours, Cases.Peer(ours, SocketType.Req, SocketType.Rep));
        var (req, rep) = ours == SocketType.Req ? (link.Ours, link.Theirs) : (link.Theirs, link.Ours);
        for (var i = 0; i < 50; i++)
        {
            Transfer.Deliver(req, rep, [Transfer.StreamFrame(i)]);
            Transfer.Deliver(rep, req, [Bytes.Of("reply"), Transfer.StreamFrame(i + 1)]);
        }

        Transfer.Deliver(req, rep, [Bytes.Pattern(Transfer.MiB), Bytes.Of("tail")]);
        Transfer.Deliver(rep, req, [[]]);
    });

    [Theory, MemberData(nameof(PushPullRoles))]
    public Task PushPull_OverWss_FramesOfEverySizeAndAStream(Topology topology, SocketType ours) => Deadline.Run(() =>
    {
        using var link = new WssLink(topology, ours, Cases.Peer(ours, SocketType.Push, SocketType.Pull));
        var (push, pull) = ours == SocketType.Push ? (link.Ours, link.Theirs) : (link.Theirs, link.Ours);
        // TLS records hold at most 16 KiB: these frames span several, and WebSocket's length forms change at 126 and 65536.
        foreach (var size in (int[])[.. Transfer.BoundarySizes, 125, 126, 16_383, 16_384, 16_385])
            Transfer.Deliver(push, pull, [Bytes.Pattern(size, size)]);
        Transfer.Deliver(push, pull, [Bytes.Pattern(Transfer.MiB + 1, 6)]);
        Transfer.Stream(push, pull, count: 2_000);
    });

    [Theory, MemberData(nameof(Topologies))]
    public Task Push_BurstsLargerThanLibzmqReadBatch_ArriveWithoutFollowUpTraffic(Topology topology) => Deadline.Run(() =>
    {
        // libzmq's wss engine reads 8 KiB per readiness event and is not woken again for what GnuTLS
        // keeps of a longer TLS record: each burst here must arrive with nothing sent after it.
        using var link = new WssLink(topology, SocketType.Push, SocketType.Pull);
        foreach (var size in (int[])[8_193, 12_000, 16_385, 40_000, 100_000])
            Transfer.Deliver(link.Ours, link.Theirs, [Bytes.Pattern(size, size)]);
        for (var burst = 0; burst < 20; burst++)
            Transfer.Deliver(link.Ours, link.Theirs, [.. Enumerable.Range(0, 50).Select(i => Bytes.Pattern(300, burst + i))]);
    });

    [Theory, MemberData(nameof(Topologies))]
    public Task Curve_OverWss_OursServerOrClient(Topology topology) => Deadline.Run(() =>
    {
        var server = CurveKeys.New();
        var client = CurveKeys.New();
        bool oursServer = topology == Topology.ManagedBinds;
        void Server(IEnd end) => Secure.CurveServer(end, server);

        void Client(IEnd end) => Secure.CurveClient(end, client, server.PublicZ85);

        var ours = oursServer ? SocketType.Rep : SocketType.Req;
        using var link = new WssLink(topology, ours, Cases.Peer(ours, SocketType.Req, SocketType.Rep),
            configureOurs: oursServer ? Server : Client, configureTheirs: oursServer ? Client : Server);
        var (req, rep) = oursServer ? (link.Theirs, link.Ours) : (link.Ours, link.Theirs);
        Transfer.Deliver(req, rep, [Bytes.Of("curve inside tls"), Bytes.Pattern(100_000)]);
        Transfer.Deliver(rep, req, [Bytes.Of("back")]);
    });

    [Theory, MemberData(nameof(Topologies))]
    public Task Plain_OverWss_OursServerOrClient(Topology topology) => Deadline.Run(() =>
    {
        bool oursServer = topology == Topology.ManagedBinds;
        void Server(IEnd end) => end.SetOption(LibZmq.ZMQ_PLAIN_SERVER, 1);
        void Client(IEnd end)
        {
            WssLink.SetText(end, LibZmq.ZMQ_PLAIN_USERNAME, "admin");
            WssLink.SetText(end, LibZmq.ZMQ_PLAIN_PASSWORD, "secret");
        }

        var ours = oursServer ? SocketType.Rep : SocketType.Req;
        using var link = new WssLink(topology, ours, Cases.Peer(ours, SocketType.Req, SocketType.Rep),
            configureOurs: oursServer ? Server : Client, configureTheirs: oursServer ? Client : Server, connectLater: true);

        // Both libraries' PLAIN servers ask a ZAP handler.
        using var ourZap = oursServer ? new ZapAuthenticator(link.OurContext) : null;
        ourZap?.ConfigurePlain("*", new Dictionary<string, string> { ["admin"] = "secret" });
        using var theirZap = oursServer ? null : new DraftZapHandler(link.TheirContext);
        link.ConnectNow();

        var (req, rep) = oursServer ? (link.Theirs, link.Ours) : (link.Ours, link.Theirs);
        Transfer.Deliver(req, rep, [Bytes.Of("plain inside tls")]);
        Transfer.Deliver(rep, req, [Bytes.Of("welcome")]);
        theirZap?.Dispose();
    });

    [Theory, MemberData(nameof(Topologies))]
    public Task Connect_NoHostnameSet_BothLibrariesCheckOnlyTheChain(Topology topology) => Deadline.Run(() =>
    {
        // Neither library compares names without ZMQ_WSS_HOSTNAME (the endpoint says 127.0.0.1, the certificate does not).
        using var link = new WssLink(topology, SocketType.Pair, SocketType.Pair,
            trust: (connector, authority) => WssLink.SetText(connector, DraftLibZmq.ZMQ_WSS_TRUST_PEM, authority.CaPem));
        Transfer.Deliver(link.Ours, link.Theirs, [Bytes.Of("no name checked")]);
        Transfer.Deliver(link.Theirs, link.Ours, [Bytes.Of("back")]);
    });

    public static TheoryData<Topology, string> RefusalCases => new()
    {
        { Topology.ManagedBinds, "untrusted" }, { Topology.ManagedBinds, "hostname" },
        { Topology.NativeBinds, "untrusted" }, { Topology.NativeBinds, "hostname" },
    };

    [Theory, MemberData(nameof(RefusalCases))]
    public Task Connect_ServerCertificateRefused_ClientSeesHandshakeFailedNoDetail(Topology topology, string why) => Deadline.Run(() =>
    {
        using var stranger = new WssCertificates("someone else");
        void Trust(IEnd connector, WssCertificates authority)
        {
            WssLink.SetText(connector, DraftLibZmq.ZMQ_WSS_TRUST_PEM, why == "untrusted" ? stranger.CaPem : authority.CaPem);
            WssLink.SetText(connector, DraftLibZmq.ZMQ_WSS_HOSTNAME, why == "hostname" ? "elsewhere.zmq.test" : WssLink.ServerName);
        }

        using var link = new WssLink(topology, SocketType.Pair, SocketType.Pair, trust: Trust, connectLater: true);
        if (topology == Topology.NativeBinds)
        {
            // Ours connects and refuses libzmq's certificate.
            var socket = ((ManagedEnd)link.Ours).Socket;
            using var events = Resilience.MonitorReader.Attach(link.OurContext, socket);
            link.ConnectNow();
            var failed = events.WaitFor((SocketMonitorEvent)HandshakeFailedNoDetail);
            Assert.Equal(ZmqConstants.ECONNRESET, failed.Value);
            events.WaitFor(SocketMonitorEvent.Disconnected);
            Assert.DoesNotContain(events.Seen, e => (int)e.Event == HandshakeSucceeded);
        }
        else
        {
            // libzmq connects and refuses ours: its monitor shows the failure, ours never a good handshake.
            using var theirEvents = ((DraftSocket)link.Theirs).Monitor(HandshakeFailedNoDetail | HandshakeSucceeded);
            link.ConnectNow();
            var first = theirEvents.NextEvent(Timeouts.Io);
            Assert.NotNull(first);
            Assert.Equal(HandshakeFailedNoDetail, first.Value.Event);
        }

        Assert.Null(link.Ours.TryRecvMessage(TimeSpan.Zero));
    });

    [Fact]
    public Task Connect_LibzmqWssClientAtOurPlainWsListener_RefusedAtItsFirstOctets() => Deadline.Run(() =>
    {
        // Our ws listener reads libzmq's TLS ClientHello where "GET " belongs and refuses it as libzmq's ws listener
        // refuses a request it cannot parse (HANDSHAKE_FAILED_PROTOCOL, WS_UNSPECIFIED). With no handshake timer the
        // refusal can only come from those first octets: the request's head would never be complete.
        using var context = new Context();
        using var rep = new Socket(context, SocketType.Rep);
        rep.SetOption(SocketOption.Linger, 0);
        rep.SetOption(SocketOption.Handshake_Ivl, 0);
        using var events = Resilience.MonitorReader.Attach(context, rep);
        rep.Bind("ws://127.0.0.1:*/zmq");
        string endpoint = rep.GetOptionString(SocketOption.Last_Endpoint);
        using var authority = new WssCertificates("ws listener test");
        using var theirs = new DraftContext();
        using var req = theirs.Socket(SocketType.Req);
        WssLink.TrustAuthority(req, authority);

        req.Connect("wss" + endpoint["ws".Length..]);

        var refused = events.WaitFor((SocketMonitorEvent)HandshakeFailedProtocol);
        Assert.Equal(ZmqConstants.ZMQ_PROTOCOL_ERROR_WS_UNSPECIFIED, refused.Value);
        Assert.DoesNotContain(events.Seen, e => (int)e.Event == HandshakeSucceeded);
    });
}
