using Managed.Zmq.InteropTests.Native;

namespace Managed.Zmq.InteropTests.Infrastructure;

/// <summary>Which side of the link listens: the other side connects to its ephemeral TCP port.</summary>
public enum Topology
{
    ManagedBinds,
    NativeBinds,
}

/// <summary>How the two ends of a link reach each other; the binding side's endpoint form.</summary>
public enum Transport
{
    /// <summary><c>tcp://127.0.0.1:*</c>, connected through the port Last_Endpoint reports.</summary>
    Tcp,

    /// <summary><c>ipc://</c> on a fresh absolute path in the temp directory.</summary>
    Ipc,

    /// <summary><c>ipc://*</c>: the binder generates the path (libzmq: relative), the connector uses its Last_Endpoint.</summary>
    IpcWildcard,

    /// <summary><c>ipc://@name</c>: Linux's abstract namespace, no file.</summary>
    IpcAbstract,
}

/// <summary>Makes sockets for one side of a link.</summary>
internal interface IPeer : IDisposable
{
    IEnd Socket(SocketType type);
}

/// <summary>
/// A Managed.Zmq socket and a libzmq socket joined over <c>tcp://127.0.0.1</c> on an ephemeral port,
/// or over <c>ipc://</c> on a fresh path in the temp directory.
/// Disposal closes both sockets (linger 0) before their contexts.
/// </summary>
internal sealed class Link : IDisposable
{
    /// <summary>
    /// With MANAGED_ZMQ_INTEROP_SELFCHECK=1, "our" side is libzmq too, so every scenario runs
    /// libzmq↔libzmq. That checks the scenarios themselves: a scenario that fails in self-check mode
    /// is a wrong test, not a core bug.
    /// </summary>
    public static bool SelfCheck { get; } = Environment.GetEnvironmentVariable("MANAGED_ZMQ_INTEROP_SELFCHECK") == "1";

    private readonly IPeer _ourPeer;
    private readonly NativeContext _theirPeer;
    private readonly string? _ipcPath;

    public Link(Topology topology, SocketType ours, SocketType theirs,
        Action<IEnd>? configureOurs = null, Action<IEnd>? configureTheirs = null, Transport transport = Transport.Tcp)
    {
        _theirPeer = new NativeContext();
#if INTEROP_WITHOUT_CORE
        _ourPeer = SelfCheck ? new NativeContext() : throw new InvalidOperationException(
            "Built with InteropWithoutCore=true: the Managed.Zmq core is not merged yet, so only the self-check can run.");
#else
        _ourPeer = SelfCheck ? new NativeContext() : new ManagedPeer();
#endif
        try
        {
            Ours = _ourPeer.Socket(ours);
            Theirs = _theirPeer.Socket(theirs);
            configureOurs?.Invoke(Ours);
            configureTheirs?.Invoke(Theirs);
            var (binder, connector) = topology == Topology.ManagedBinds ? (Ours, Theirs) : (Theirs, Ours);
            if (transport == Transport.Ipc)
            {
                _ipcPath = Path.Combine(Path.GetTempPath(), $"managed-zmq-interop-{Guid.NewGuid():N}.sock");
                Endpoint = binder.Bind("ipc://" + _ipcPath);
                Assert.Equal("ipc://" + _ipcPath, Endpoint);
            }
            else if (transport == Transport.IpcWildcard)
            {
                // libzmq 4.3 reports a path relative to the working directory (tmpXXXXXX/socket) unless
                // TMPDIR is set; ours is absolute. Either way the connector must reach it as reported.
                Endpoint = binder.Bind("ipc://*");
                Assert.StartsWith("ipc://", Endpoint);
                Assert.NotEqual("ipc://*", Endpoint);
                // Both remove a generated path (and libzmq its directory) on close: nothing to clean up here.
                var generated = Path.GetFullPath(Endpoint["ipc://".Length..]);
                Assert.True(File.Exists(generated), $"{binder.Name} reported {Endpoint}, but there is no such socket file");
            }
            else if (transport == Transport.IpcAbstract)
            {
                var name = $"@managed-zmq-interop-{Guid.NewGuid():N}";
                Endpoint = binder.Bind("ipc://" + name);
                Assert.Equal("ipc://" + name, Endpoint);
            }
            else
            {
                Endpoint = binder.BindEphemeral();
                Assert.StartsWith("tcp://127.0.0.1:", Endpoint);
                Assert.NotEqual("tcp://127.0.0.1:0", Endpoint);
            }

            connector.Connect(Endpoint);
        }
        catch
        {
            Dispose();
            throw;
        }
    }

    /// <summary>Our socket (Managed.Zmq).</summary>
    public IEnd Ours { get; } = null!;

    /// <summary>The libzmq socket.</summary>
    public IEnd Theirs { get; } = null!;

    /// <summary>The endpoint the binding side reported through Last_Endpoint.</summary>
    public string Endpoint { get; } = "";

    /// <summary>The end with the given socket type (only for links whose two types differ).</summary>
    public IEnd this[SocketType type] =>
        Ours.Type == Theirs.Type ? throw new InvalidOperationException("Both ends have the same type; use Ours/Theirs.")
        : Ours.Type == type ? Ours
        : Theirs.Type == type ? Theirs
        : throw new ArgumentException($"No {type} end in this link.", nameof(type));

    public void Dispose()
    {
        Ours?.Dispose();
        Theirs?.Dispose();
        _ourPeer?.Dispose();
        _theirPeer?.Dispose();

        // libzmq 4.3 leaves a non-wildcard ipc socket file behind; so may we. Clean up after both.
        if (_ipcPath is not null)
            File.Delete(_ipcPath);
    }
}

/// <summary>Theory rows: both topologies × both roles (which of the two socket types is ours).</summary>
internal static class Cases
{
    public static TheoryData<Topology, SocketType> Roles(SocketType first, SocketType second)
    {
        var data = new TheoryData<Topology, SocketType>();
        foreach (var topology in Enum.GetValues<Topology>())
        {
            data.Add(topology, first);
            if (second != first)
                data.Add(topology, second);
        }

        return data;
    }

    public static TheoryData<Topology> Topologies() => new(Enum.GetValues<Topology>());

    /// <summary>The other socket type of the pair.</summary>
    public static SocketType Peer(SocketType ours, SocketType first, SocketType second) => ours == first ? second : first;
}
