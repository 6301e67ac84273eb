using System.Net;
using System.Net.Sockets;

namespace Managed.Zmq.Transports;

/// <summary>
/// The source of a tcp:// connect, <c>tcp://source;host:port</c>: the local address and port the connection is made
/// from. As libzmq takes it: an IP literal or a network interface's name (never a host name to look up; "any" only
/// as <c>[*]</c>, since a connect's text may not start with '*'), then a port, with <c>*</c> or 0 for an ephemeral
/// one. An interface is looked up at each attempt, as libzmq looks it up when it opens the connection's socket.
/// </summary>
internal sealed class TcpSourceAddress
{
    /// <summary>The address, for a literal or <c>*</c>; null for an interface's name.</summary>
    private readonly IPAddress? _literal;

    private readonly string _interfaceName;
    private readonly bool _ipv6;

    private TcpSourceAddress(IPAddress? literal, string interfaceName, bool ipv6, int port)
    {
        _literal = literal;
        _interfaceName = interfaceName;
        _ipv6 = ipv6;
        Port = port;
    }

    /// <summary>The local port; 0 for an ephemeral one.</summary>
    public int Port { get; }

    /// <summary>Parses the part before the ';'; returns 0 or EINVAL (no port, no host, an IPv6 literal without Ipv6).</summary>
    public static int TryParse(string text, bool ipv6, out TcpSourceAddress? source)
    {
        source = null;
        int split = HostPortText.TrySplit(text, forBind: true, out string host, out int port);
        if (split != 0)
        {
            return split;
        }

        if (host.Length == 0)
        {
            return ZmqConstants.EINVAL;
        }

        IPAddress? literal = null;
        if (host == "*")
        {
            literal = ipv6 ? IPAddress.IPv6Any : IPAddress.Any;
        }
        else if (IPAddress.TryParse(host, out var parsed))
        {
            if (parsed.AddressFamily == AddressFamily.InterNetworkV6 && !ipv6)
            {
                // As a bound endpoint: an IPv6 literal needs Ipv6.
                return ZmqConstants.EINVAL;
            }

            literal = parsed;
        }

        source = new TcpSourceAddress(literal, literal is null ? host : string.Empty, ipv6, port);
        return 0;
    }

    /// <summary>
    /// Binds <paramref name="socket"/>, not yet connected, to <paramref name="local"/> (<see cref="EndPointFor"/>), with
    /// SO_REUSEADDR as libzmq sets it, so one source port may reach several servers. A failure throws
    /// <see cref="SocketException"/>: the attempt fails and is retried, as libzmq's.
    /// </summary>
    public static void Bind(System.Net.Sockets.Socket socket, IPEndPoint local)
    {
        if (local.Address.IsIPv4MappedToIPv6)
        {
            socket.DualMode = true;
        }

        SocketTuning.SetReuseAddress(socket);
        socket.Bind(local);
    }

    /// <summary>
    /// The local endpoint for a socket of <paramref name="family"/>, looked up now; null when this source has no address
    /// of that family (an interface that is down or gone): the attempt fails before it opens a socket, as libzmq's.
    /// </summary>
    public IPEndPoint? EndPointFor(AddressFamily family)
    {
        var address = _literal ?? TcpAddress.FindInterfaceAddress(_interfaceName, _ipv6);
        if (address is null)
        {
            return null;
        }

        if (address.Equals(IPAddress.Any) || address.Equals(IPAddress.IPv6Any))
        {
            address = family == AddressFamily.InterNetworkV6 ? IPAddress.IPv6Any : IPAddress.Any;
        }
        else if (family == AddressFamily.InterNetworkV6 && address.AddressFamily == AddressFamily.InterNetwork)
        {
            address = address.MapToIPv6();
        }
        else if (family == AddressFamily.InterNetwork && address.AddressFamily == AddressFamily.InterNetworkV6)
        {
            if (!address.IsIPv4MappedToIPv6)
            {
                return null;
            }

            address = address.MapToIPv4();
        }

        return new IPEndPoint(address, Port);
    }
}
