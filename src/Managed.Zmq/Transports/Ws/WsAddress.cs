using System.Net;
using System.Net.Sockets;
using Managed.Zmq.Options;
using Managed.Zmq.Transports.Tls;
using Managed.Zmq.Wire;

namespace Managed.Zmq.Transports.Ws;

/// <summary>
/// <c>ws://host:port/path</c> as libzmq's draft ws transport takes it: the host and port as for
/// tcp:// (<c>*</c>, ephemeral ports, IPv6 in brackets, host names), then an optional path from
/// the last '/' on (default "/"). The path goes in the client's request line; a listener accepts
/// any path, as libzmq's does. <c>Last_Endpoint</c> keeps the path: <c>ws://127.0.0.1:40427/zmq</c>.
/// Only the last path segment counts, as in libzmq: <c>ws://host:port/a/b</c> has the path <c>/b</c>.
/// <c>wss://</c> has the same syntax and runs the same WebSocket over TLS (docs/ws.md, "wss://").
/// </summary>
internal sealed class WsAddress : TransportAddress
{
    private TcpAddress _tcp = null!;

    /// <summary>"ws" or "wss".</summary>
    private string _scheme = "ws";

    /// <summary>wss:// listeners: the certificate and key, taken at Bind.</summary>
    private TlsServerCredentials? _serverCredentials;

    /// <summary>wss:// connects: the trust and host name, taken at Connect.</summary>
    private TlsClientTrust? _clientTrust;

    /// <summary>The path, always starting with '/'.</summary>
    public string Path { get; private init; } = "/";

    public override AddressFamily AddressFamily => _tcp.AddressFamily;

    public override ProtocolType ProtocolType => ProtocolType.Tcp;

    /// <summary>True for wss://.</summary>
    public bool Secure => _scheme == "wss";

    /// <summary>Parses the part after <c>ws://</c> (or <c>wss://</c> when <paramref name="secure"/>); returns 0 or an errno as for tcp://.</summary>
    public static int TryParse(string original, string rest, bool forBind, bool ipv6, out WsAddress? address, bool secure = false)
    {
        address = null;
        // As libzmq resolves it: the path is what follows the last '/', the host and port end at the
        // first one (so "ws://host:port/a/b" asks for "/b", and Last_Endpoint says so).
        int first = rest.IndexOf('/', StringComparison.Ordinal);
        string hostPort = first >= 0 ? rest[..first] : rest;
        string path = first >= 0 ? rest[rest.LastIndexOf('/')..] : "/";
        int error = TcpAddress.TryParse(original, hostPort, forBind, ipv6, out var tcp);
        if (error != 0)
        {
            return error;
        }

        if (tcp!.Source is not null)
        {
            // libzmq's ws:// has no source address: it refuses "source;host" when Connect resolves it.
            return ZmqConstants.EINVAL;
        }

        address = new WsAddress { Original = original, Path = path, _tcp = tcp!, _scheme = secure ? "wss" : "ws" };
        return 0;
    }

    /// <summary>wss:// takes its TLS options now, as libzmq's listener and session do: EINVAL when they are missing or unreadable.</summary>
    public override int Prepare(SocketOptions options, bool forBind)
    {
        if (!Secure)
        {
            return 0;
        }

        return forBind
            ? TlsServerCredentials.TryCreate(options, out _serverCredentials)
            : TlsClientTrust.TryCreate(options, out _clientTrust);
    }

    public override ValueTask<EndPoint> ResolveAsync(CancellationToken cancellationToken) => _tcp.ResolveAsync(cancellationToken);

    public override EndPoint GetBindEndPoint() => _tcp.GetBindEndPoint();

    public override string FormatBound(EndPoint boundEndPoint) => _scheme + "://" + TcpAddress.Format((IPEndPoint)boundEndPoint)["tcp://".Length..] + Path;

    public override IByteTransport Wrap(IByteTransport connected, bool connecting, SocketOptions options)
    {
        if (options.SocketType == SocketType.Stream || options.RouterRaw)
        {
            return new WsRawRefusal(connected);
        }

        var mechanism = options.Mechanism;
        if (Secure)
        {
            // TLS below, the WebSocket above it, unchanged.
            connected = connecting
                ? TlsTransport.ForClient(connected, _clientTrust!)
                : TlsTransport.ForServer(connected, _serverCredentials!);
        }

        // The Host header carries the host as written in the endpoint, without the port, as libzmq sends it.
        return connecting
            ? WsTransport.ForClient(connected, mechanism, _tcp.Host, Path, _scheme)
            : WsTransport.ForServer(connected, mechanism, _scheme);
    }
}
