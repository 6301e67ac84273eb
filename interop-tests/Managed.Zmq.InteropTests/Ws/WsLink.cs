using Managed.Zmq.InteropTests.Infrastructure;

namespace Managed.Zmq.InteropTests.Ws;

/// <summary>
/// A Managed.Zmq socket and a draft-libzmq socket joined over <c>ws://127.0.0.1:*/path</c>: the
/// binder takes an ephemeral port, the connector uses its Last_Endpoint. Disposal closes both
/// sockets (linger 0) before their contexts.
/// </summary>
internal sealed class WsLink : IDisposable
{
    public const string BindEndpoint = "ws://127.0.0.1:*/zmq";

    private readonly Context _ourContext = new();
    private readonly DraftContext _theirPeer;

    public WsLink(Topology topology, SocketType ours, SocketType theirs,
        Action<IEnd>? configureOurs = null, Action<IEnd>? configureTheirs = null, bool connectLater = false)
    {
        _theirPeer = new DraftContext();
        try
        {
            Ours = new ManagedEnd(_ourContext, ours);
            Theirs = _theirPeer.Socket(theirs);
            configureOurs?.Invoke(Ours);
            configureTheirs?.Invoke(Theirs);
            var (binder, connector) = topology == Topology.ManagedBinds ? (Ours, Theirs) : (Theirs, Ours);
            Endpoint = binder.Bind(BindEndpoint);
            Assert.Matches(@"^ws://127\.0\.0\.1:[1-9][0-9]*/zmq$", Endpoint);
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

    private readonly IEnd? _connector;

    /// <summary>Connects the connecting side (for links made with connectLater, once a ZAP handler is up).</summary>
    public void ConnectNow() => _connector!.Connect(Endpoint);

    public IEnd Ours { get; } = null!;

    /// <summary>Our context (for a ZapAuthenticator).</summary>
    public Context OurContext => _ourContext;

    /// <summary>libzmq's context (for a <see cref="DraftZapHandler"/>).</summary>
    public DraftContext TheirContext => _theirPeer;

    public IEnd Theirs { get; } = null!;

    public string Endpoint { get; } = "";

    public IEnd this[SocketType type] =>
        Ours.Type == Theirs.Type ? throw new InvalidOperationException("Both ends have the same type; use Ours/Theirs.")
        : Ours.Type == type ? Ours
        : Theirs.Type == type ? Theirs
        : throw new ArgumentException($"No {type} end in this link.", nameof(type));

    public void Dispose()
    {
        Ours?.Dispose();
        Theirs?.Dispose();
        _ourContext.Dispose();
        _theirPeer?.Dispose();
    }
}
