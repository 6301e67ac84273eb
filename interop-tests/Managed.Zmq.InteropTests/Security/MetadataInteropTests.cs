#if !INTEROP_WITHOUT_CORE
using Managed.Zmq.InteropTests.Infrastructure;
using Managed.Zmq.InteropTests.Native;

namespace Managed.Zmq.InteropTests.Security;

/// <summary>
/// Connection metadata both ways, over NULL (with a ZAP domain), PLAIN and CURVE, each with a ZAP handler on
/// the server's side: our <see cref="Message.GetMetadata"/> on what a libzmq DEALER sends, and libzmq's
/// <c>zmq_msg_gets</c> on what our DEALER sends. Both must see Socket-Type, Identity, Peer-Address and the
/// User-Id the ZAP handler returned, and the application property each client sets (ZMQ_METADATA, our Metadata).
/// </summary>
public sealed class MetadataInteropTests
{
    private const string Domain = "metadata-domain";
    private const string User = "admin";
    private const string Password = "s3cret";
    private const string ZapUserId = "alice";
    private const int ZmqMetadata = 95;

    public static TheoryData<Mechanism, OurRole> Cases() => SecureCases.MechanismsAndRoles();

    [Theory]
    [MemberData(nameof(Cases))]
    public Task Metadata_ZapAcceptsDealer_ServerSeesPeerPropertiesAndZapUserId(Mechanism mechanism, OurRole role) => Deadline.Run(() =>
    {
        var serverKeys = CurveKeys.New();
        var clientKeys = CurveKeys.New();
        var topology = role == OurRole.Server ? Topology.ManagedBinds : Topology.NativeBinds;
        using var link = new SecureLink(topology, role, SocketType.Router, SocketType.Dealer,
            end =>
            {
                Secure.SetString(end, LibZmq.ZMQ_ZAP_DOMAIN, Domain);
                if (mechanism == Mechanism.Plain)
                    Secure.PlainServer(end);
                else if (mechanism == Mechanism.Curve)
                    Secure.CurveServer(end, serverKeys);
            },
            end =>
            {
                end.SetOption(LibZmq.ZMQ_ROUTING_ID, Bytes.Of("client-id"));
                // libzmq 4.3.4 from Debian accepts ZMQ_METADATA (95): its draft API is built in.
                end.SetOption(ZmqMetadata, Bytes.Of(end is NativeSocket ? "X-App:native" : "X-App:managed"));
                if (mechanism == Mechanism.Plain)
                    Secure.PlainClient(end, User, Password);
                else if (mechanism == Mechanism.Curve)
                    Secure.CurveClient(end, clientKeys, serverKeys.PublicZ85);
            },
            _ => new ZapAnswer("200", ZapUserId));

        link.Client.SendMessage(Bytes.Of("hello"));
        var seen = link.Server is NativeSocket server ? ReadNative(server) : ReadManaged(((ManagedEnd)link.Server).Socket);

        Assert.Equal("hello", seen.Body);
        Assert.Equal("DEALER", seen.Get("Socket-Type"));
        Assert.Equal("client-id", seen.Get("Identity"));
        Assert.Equal("127.0.0.1", seen.Get("Peer-Address"));
        Assert.Equal(ZapUserId, seen.Get("User-Id"));
        Assert.Equal(link.Client is NativeSocket ? "native" : "managed", seen.Get("X-App"));
    });

    [Fact]
    public Task Metadata_NoZap_LibzmqSeesNoUserIdAndWeSeeNone() => Deadline.Run(() =>
    {
        using var ours = new Context();
        using var theirs = new NativeContext();
        using var router = theirs.Socket(SocketType.Router);
        string endpoint = router.BindEphemeral();
        using var dealer = new Socket(ours, SocketType.Dealer);
        dealer.SetOption(SocketOption.Linger, 0);
        dealer.SetOption(SocketOption.Rcvtimeo, (int)Timeouts.Io.TotalMilliseconds);
        dealer.SetOption(SocketOption.Routing_Id, Bytes.Of("d1"));
        dealer.Connect(endpoint);

        dealer.Send("ping");
        var seen = ReadNative(router);
        router.SendMessage(Bytes.Of("d1"), Bytes.Of("pong"));
        using var reply = new Message();
        dealer.Recv(reply);

        Assert.Null(seen.Get("User-Id"));
        Assert.Equal("DEALER", seen.Get("Socket-Type"));
        Assert.Equal("ROUTER", reply.GetMetadata("Socket-Type"));
        Assert.Equal("127.0.0.1", reply.GetMetadata("Peer-Address"));
        Assert.Null(reply.GetMetadata("User-Id"));
    });

    private static Seen ReadManaged(Socket router)
    {
        using var frames = router.RecvMultipart();
        var body = frames[1];
        var names = new[] { "Socket-Type", "Identity", "Peer-Address", "User-Id", "X-App" };
        return new Seen(body.ToString(), names.ToDictionary(n => n, n => body.GetMetadata(n)));
    }

    /// <summary>Receives ROUTER's [id, body] and reads the body's properties with zmq_msg_gets.</summary>
    private static Seen ReadNative(NativeSocket router)
    {
        var (body, values) = router.RecvRoutedWithProperties("Socket-Type", "Identity", "Peer-Address", "User-Id", "X-App");
        return new Seen(body, values);
    }

    private sealed record Seen(string Body, Dictionary<string, string?> Values)
    {
        public string? Get(string name) => Values.GetValueOrDefault(name);
    }
}
#endif
