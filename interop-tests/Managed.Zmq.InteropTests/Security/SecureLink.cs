using Managed.Zmq.InteropTests.Infrastructure;
using Managed.Zmq.InteropTests.Native;

namespace Managed.Zmq.InteropTests.Security;

/// <summary>A CURVE key pair as Z85 text, with the raw 32-byte forms.</summary>
internal sealed record CurveKeys(string PublicZ85, string SecretZ85)
{
    public byte[] Public => NativeCurve.Z85Decode(PublicZ85);

    public byte[] Secret => NativeCurve.Z85Decode(SecretZ85);

    /// <summary>A fresh pair from libzmq's zmq_curve_keypair (neutral for scenarios that are not about key generation).</summary>
    public static CurveKeys New()
    {
        var (pub, sec) = NativeCurve.Keypair();
        return new CurveKeys(pub, sec);
    }
}

/// <summary>Option helpers that work on both kinds of <see cref="IEnd"/>.</summary>
internal static class Secure
{
    /// <summary>A string option: our string overload (UTF-8, no NUL), or libzmq's bytes.</summary>
    public static void SetString(IEnd end, int option, string value)
    {
        switch (end)
        {
            case NativeSocket native:
                native.SetOption(option, value);
                break;
#if !INTEROP_WITHOUT_CORE
            case ManagedEnd managed:
                managed.Socket.SetOption((SocketOption)option, value);
                break;
#endif
            default:
                throw new ArgumentException($"Unknown end {end.Name}.", nameof(end));
        }
    }

    public static void Disconnect(IEnd end, string endpoint)
    {
        switch (end)
        {
            case NativeSocket native:
                native.Disconnect(endpoint);
                break;
#if !INTEROP_WITHOUT_CORE
            case ManagedEnd managed:
                managed.Socket.Disconnect(endpoint);
                break;
#endif
            default:
                throw new ArgumentException($"Unknown end {end.Name}.", nameof(end));
        }
    }

    /// <summary>Sets a CURVE key as 32 raw bytes or as 40-character Z85 text.</summary>
    public static void SetKey(IEnd end, int option, string z85, bool raw)
    {
        if (raw)
            end.SetOption(option, NativeCurve.Z85Decode(z85));
        else
            SetString(end, option, z85);
    }

    public static void CurveServer(IEnd end, CurveKeys server, bool raw = true)
    {
        end.SetOption(LibZmq.ZMQ_CURVE_SERVER, 1);
        SetKey(end, LibZmq.ZMQ_CURVE_PUBLICKEY, server.PublicZ85, raw);
        SetKey(end, LibZmq.ZMQ_CURVE_SECRETKEY, server.SecretZ85, raw);
    }

    public static void CurveClient(IEnd end, CurveKeys client, string serverPublicZ85, bool raw = true)
    {
        SetKey(end, LibZmq.ZMQ_CURVE_SERVERKEY, serverPublicZ85, raw);
        SetKey(end, LibZmq.ZMQ_CURVE_PUBLICKEY, client.PublicZ85, raw);
        SetKey(end, LibZmq.ZMQ_CURVE_SECRETKEY, client.SecretZ85, raw);
    }

    public static void PlainServer(IEnd end) => end.SetOption(LibZmq.ZMQ_PLAIN_SERVER, 1);

    /// <summary>Makes <paramref name="end"/> the server of <paramref name="mechanism"/> (nothing for NULL).</summary>
    public static void Server(IEnd end, Mechanism mechanism, CurveKeys serverKeys)
    {
        if (mechanism == Mechanism.Plain)
            PlainServer(end);
        else if (mechanism == Mechanism.Curve)
            CurveServer(end, serverKeys);
    }

    /// <summary>Makes <paramref name="end"/> the client of <paramref name="mechanism"/> (nothing for NULL).</summary>
    public static void Client(IEnd end, Mechanism mechanism, string username, string password, CurveKeys clientKeys, CurveKeys serverKeys)
    {
        if (mechanism == Mechanism.Plain)
            PlainClient(end, username, password);
        else if (mechanism == Mechanism.Curve)
            CurveClient(end, clientKeys, serverKeys.PublicZ85);
    }

    public static void PlainClient(IEnd end, string username, string password)
    {
        SetString(end, LibZmq.ZMQ_PLAIN_USERNAME, username);
        SetString(end, LibZmq.ZMQ_PLAIN_PASSWORD, password);
    }
}

/// <summary>
/// A secured link between our socket and a libzmq socket over tcp on an ephemeral port of
/// <see cref="PrivateLoopback"/>, where no other test process's reconnecting socket can turn into a
/// second client (a NULL server would hand it to ZAP and count one more request). The security server and client are chosen by <see cref="OurRole"/>, the binder
/// by <see cref="Topology"/>, independently. Monitors on both sockets start before bind/connect,
/// and the ZAP handler (if any) is bound on the server's side before anything connects.
/// </summary>
internal sealed class SecureLink : IDisposable
{
    public SecureLink(Topology topology, OurRole role, SocketType serverType, SocketType clientType,
        Action<IEnd> configureServer, Action<IEnd> configureClient, Func<byte[][], ZapAnswer>? zap = null)
    {
        OurSide = SecuritySide.Ours();
        TheirSide = SecuritySide.Theirs();
        try
        {
            ServerSide = role == OurRole.Server ? OurSide : TheirSide;
            ClientSide = role == OurRole.Server ? TheirSide : OurSide;
            if (zap is not null)
                Zap = ServerSide.StartZap(zap);
            Server = ServerSide.Socket(serverType);
            Client = ClientSide.Socket(clientType);
            configureServer(Server);
            configureClient(Client);
            ServerEvents = ServerSide.Monitor(Server);
            ClientEvents = ClientSide.Monitor(Client);

            var serverIsOurs = role == OurRole.Server;
            var oursBinds = topology == Topology.ManagedBinds;
            var (binder, connector) = serverIsOurs == oursBinds ? (Server, Client) : (Client, Server);
            Endpoint = binder.Bind(PrivateLoopback.EphemeralTcp);
            Connector = connector;
            connector.Connect(Endpoint);
        }
        catch
        {
            Dispose();
            throw;
        }
    }

    /// <summary>A CURVE link with fresh keys; <paramref name="configure"/> runs on both ends after the keys are set.</summary>
    public static SecureLink Curve(Topology topology, OurRole role, SocketType serverType, SocketType clientType,
        Action<IEnd>? configure = null, Func<byte[][], ZapAnswer>? zap = null)
    {
        var serverKeys = CurveKeys.New();
        var clientKeys = CurveKeys.New();
        return new SecureLink(topology, role, serverType, clientType,
            end => { Secure.CurveServer(end, serverKeys); configure?.Invoke(end); },
            end => { Secure.CurveClient(end, clientKeys, serverKeys.PublicZ85); configure?.Invoke(end); },
            zap);
    }

    public SecuritySide OurSide { get; }

    public SecuritySide TheirSide { get; }

    public SecuritySide ServerSide { get; } = null!;

    public SecuritySide ClientSide { get; } = null!;

    public IEnd Server { get; } = null!;

    public IEnd Client { get; } = null!;

    /// <summary>The end that connected (the other one bound <see cref="Endpoint"/>).</summary>
    public IEnd Connector { get; } = null!;

    public EventLog ServerEvents { get; } = null!;

    public EventLog ClientEvents { get; } = null!;

    public ZapHandler? Zap { get; }

    public string Endpoint { get; } = "";

    public void Dispose()
    {
        OurSide.Dispose();
        TheirSide.Dispose();
    }
}

/// <summary>Theory rows for secured links.</summary>
internal static class SecureCases
{
    /// <summary>Both topologies × both security roles.</summary>
    public static TheoryData<Topology, OurRole> All() => Every<Topology, OurRole>();

    public static TheoryData<OurRole> Roles() => new(Enum.GetValues<OurRole>());

    /// <summary>Every mechanism × both security roles.</summary>
    public static TheoryData<Mechanism, OurRole> MechanismsAndRoles() => Every<Mechanism, OurRole>();

    /// <summary>Every value of <typeparamref name="TFirst"/> with every value of <typeparamref name="TSecond"/>.</summary>
    private static TheoryData<TFirst, TSecond> Every<TFirst, TSecond>()
        where TFirst : struct, Enum
        where TSecond : struct, Enum
    {
        var data = new TheoryData<TFirst, TSecond>();
        foreach (var first in Enum.GetValues<TFirst>())
        {
            foreach (var second in Enum.GetValues<TSecond>())
                data.Add(first, second);
        }

        return data;
    }
}
