using System.Text;
using Managed.Zmq.InteropTests.Infrastructure;

namespace Managed.Zmq.InteropTests.Ws;

/// <summary>
/// A Managed.Zmq socket and a draft-libzmq socket joined over <c>wss://127.0.0.1:*/zmq</c>: the
/// binder presents a certificate for <see cref="ServerName"/> signed by <see cref="Authority"/>
/// (ZMQ_WSS_CERT_PEM, ZMQ_WSS_KEY_PEM); the connector trusts what <paramref name="trust"/> says
/// (by default that authority, with ZMQ_WSS_HOSTNAME = <see cref="ServerName"/>).
/// </summary>
internal sealed class WssLink : IDisposable
{
    public const string BindEndpoint = "wss://127.0.0.1:*/zmq";
    public const string ServerName = "server.zmq.test";

    private readonly Context _ourContext = new();
    private readonly DraftContext _theirPeer = new();
    private readonly IEnd _connector = null!;

    public WssLink(Topology topology, SocketType ours, SocketType theirs,
        Action<IEnd>? configureOurs = null, Action<IEnd>? configureTheirs = null,
        Action<IEnd, WssCertificates>? trust = null, bool connectLater = false)
    {
        try
        {
            Ours = new ManagedEnd(_ourContext, ours);
            Theirs = _theirPeer.Socket(theirs);
            configureOurs?.Invoke(Ours);
            configureTheirs?.Invoke(Theirs);
            var (binder, connector) = topology == Topology.ManagedBinds ? (Ours, Theirs) : (Theirs, Ours);
            var (certificate, key) = Authority.IssueServer(ServerName);
            SetText(binder, DraftLibZmq.ZMQ_WSS_CERT_PEM, certificate);
            SetText(binder, DraftLibZmq.ZMQ_WSS_KEY_PEM, key);
            (trust ?? TrustAuthority)(connector, Authority);
            Endpoint = binder.Bind(BindEndpoint);
            Assert.Matches(@"^wss://127\.0\.0\.1:[1-9][0-9]*/zmq$", Endpoint);
            _connector = connector;
            if (!connectLater)
                ConnectNow();
        }
        catch
        {
            Dispose();
            throw;
        }
    }

    public WssCertificates Authority { get; } = new();

    public IEnd Ours { get; } = null!;

    public IEnd Theirs { get; } = null!;

    public Context OurContext => _ourContext;

    public DraftContext TheirContext => _theirPeer;

    public string Endpoint { get; } = "";

    public void ConnectNow() => _connector.Connect(Endpoint);

    public static void SetText(IEnd end, int option, string text) => end.SetOption(option, Encoding.UTF8.GetBytes(text));

    /// <summary>The default trust: the link's authority, and the server's name checked.</summary>
    public static void TrustAuthority(IEnd connector, WssCertificates authority)
    {
        SetText(connector, DraftLibZmq.ZMQ_WSS_TRUST_PEM, authority.CaPem);
        SetText(connector, DraftLibZmq.ZMQ_WSS_HOSTNAME, ServerName);
    }

    public void Dispose()
    {
        Ours?.Dispose();
        Theirs?.Dispose();
        _ourContext.Dispose();
        _theirPeer.Dispose();
        Authority.Dispose();
    }
}
