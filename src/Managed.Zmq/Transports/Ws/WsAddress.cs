using System.Net;
using System.Net.Sockets;
using Managed.Zmq.Options;
using Managed.Zmq.Wire;

namespace Managed.Zmq.Transports.Ws;

/// <summary>
/// <c>ws://host:port/path</c> as libzmq's draft ws transport takes it: the host and port as for
/// tcp:// (<c>*</c>, ephemeral ports, IPv6 in brackets, host names), then an optional path from
/// the last '/' on (default "/"). The path goes in the client's request line; a listener accepts
/// any path, as libzmq's does. <c>Last_Endpoint</c> keeps the path: <c>ws://127.0.0.1:40427/zmq</c>.
/// Only the last path segment counts, as in libzmq: <c>ws://host:port/a/b</c> has the path <c>/b</c>.
/// </summary>
internal sealed class WsAddress : TransportAddress
{
    private TcpAddress _tcp = null!;

    /// <summary>The path, always starting with '/'.</summary>
    public string Path { get; private init; } = "/";

    public override AddressFamily AddressFamily => _tcp.AddressFamily;

    public override ProtocolType ProtocolType => ProtocolType.Tcp;

    /// <summary>Parses the part after <c>ws://</c>; returns 0 or an errno as for tcp://.</summary>
    public static int TryParse(string original, string rest, bool forBind, bool ipv6, out WsAddress? address)
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

        address = new WsAddress { Original = original, Path = path, _tcp = tcp! };
        return 0;
    }

    public override ValueTask<EndPoint> ResolveAsync(CancellationToken cancellationToken) => _tcp.ResolveAsync(cancellationToken);

    public override EndPoint GetBindEndPoint() => _tcp.GetBindEndPoint();

    public override string FormatBound(EndPoint boundEndPoint) => "ws://" + TcpAddress.Format((IPEndPoint)boundEndPoint)["tcp://".Length..] + Path;

    public override IByteTransport Wrap(IByteTransport connected, bool connecting, SocketOptions options)
    {
        if (options.SocketType == SocketType.Stream || options.RouterRaw)
        {
            return new WsRawRefusal(connected);
        }

        var mechanism = options.Mechanism;

        // The Host header carries the host as written in the endpoint, without the port, as libzmq sends it.
        return connecting
            ? WsTransport.ForClient(connected, mechanism, _tcp.Host, Path)
            : WsTransport.ForServer(connected, mechanism);
    }
}
