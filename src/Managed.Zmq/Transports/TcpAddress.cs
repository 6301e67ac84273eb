using System.Globalization;
using System.Net;
using System.Net.NetworkInformation;
using System.Net.Sockets;

namespace Managed.Zmq.Transports;

/// <summary>
/// <c>tcp://host:port</c> as libzmq takes it: <c>*</c> for every interface, IPv4 and bracketed IPv6
/// literals, interface names and host names; port <c>*</c> or 0 for an ephemeral port.
/// </summary>
internal sealed class TcpAddress : TransportAddress
{
    private IPAddress? _literal;

    public string Host { get; private init; } = string.Empty;

    public int Port { get; private init; }

    public bool Ipv6 { get; private init; }

    /// <summary>The local end a connect binds before it connects (<c>tcp://source;host:port</c>); null for the system's choice.</summary>
    public TcpSourceAddress? Source { get; private init; }

    public override AddressFamily AddressFamily => _literal?.AddressFamily ?? (Ipv6 ? AddressFamily.InterNetworkV6 : AddressFamily.InterNetwork);

    public override ProtocolType ProtocolType => ProtocolType.Tcp;

    /// <summary>Parses the part after <c>tcp://</c>; returns 0 or an errno (EINVAL, ENODEV).</summary>
    public static int TryParse(string original, string rest, bool forBind, bool ipv6, out TcpAddress? address)
    {
        address = null;

        if (!forBind && !HasAddressCharactersOnly(rest))
        {
            return ZmqConstants.EINVAL;
        }

        // A source address: tcp://source;host:port, split at the last ';' as libzmq splits it. A bind parses it as
        // libzmq does (the same refusals) and, as libzmq, listens on the rest alone.
        TcpSourceAddress? source = null;
        int semicolon = rest.LastIndexOf(';');
        if (semicolon >= 0)
        {
            int sourceError = TcpSourceAddress.TryParse(rest[..semicolon], ipv6, out source);
            if (sourceError != 0)
            {
                return sourceError;
            }

            rest = rest[(semicolon + 1)..];
            if (forBind)
            {
                source = null;
            }
        }

        int split = HostPortText.TrySplit(rest, forBind, out string host, out int port);
        if (split != 0)
        {
            return split;
        }

        if (host.Length == 0)
        {
            // libzmq looks an empty host up as an interface to bind, which none is named.
            return forBind ? ZmqConstants.ENODEV : ZmqConstants.EINVAL;
        }

        IPAddress? literal = null;
        if (host == "*")
        {
            if (!forBind)
            {
                return ZmqConstants.EINVAL;
            }

            literal = ipv6 ? IPAddress.IPv6Any : IPAddress.Any;
        }
        else if (IPAddress.TryParse(host, out var parsed))
        {
            if (parsed.AddressFamily == AddressFamily.InterNetworkV6 && !ipv6 && forBind)
            {
                // libzmq needs ZMQ_IPV6 before an IPv6 literal can be bound; without it, it looks the literal up
                // as an interface's name, and fails as for an unknown one.
                return ZmqConstants.ENODEV;
            }

            literal = parsed;
        }
        else if (forBind)
        {
            literal = ResolveInterfaceOrHost(host, ipv6, out int error);
            if (literal is null)
            {
                return error;
            }
        }

        address = new TcpAddress { Original = original, Host = host, Port = port, Ipv6 = ipv6, Source = source, _literal = literal };
        return 0;
    }

    private static IPAddress? ResolveInterfaceOrHost(string host, bool ipv6, out int error)
    {
        error = 0;
        var address = FindInterfaceAddress(host, ipv6);
        if (address is not null)
        {
            return address;
        }

        try
        {
            foreach (var candidate in Dns.GetHostAddresses(host))
            {
                if (candidate.AddressFamily == AddressFamily.InterNetwork || (ipv6 && candidate.AddressFamily == AddressFamily.InterNetworkV6))
                {
                    return candidate;
                }
            }
        }
        catch (SocketException)
        {
        }

        error = ZmqConstants.ENODEV;
        return null;
    }

    /// <summary>
    /// libzmq's check of a tcp connect's text, before anything is looked up: it starts with an ASCII letter or digit,
    /// '[' or ':', and holds only those and ".-:%;[]_*". Anything else (a space, say) could never be resolved, and
    /// libzmq refuses it with EINVAL rather than retrying for ever.
    /// </summary>
    private static bool HasAddressCharactersOnly(string text)
    {
        if (text.Length == 0 || !(char.IsAsciiLetterOrDigit(text[0]) || text[0] is '[' or ':'))
        {
            return false;
        }

        foreach (char c in text)
        {
            if (!char.IsAsciiLetterOrDigit(c) && c is not ('.' or '-' or ':' or '%' or ';' or '[' or ']' or '_' or '*'))
            {
                return false;
            }
        }

        return true;
    }

    /// <summary>
    /// The first address of the network interface named <paramref name="name"/>, of one family as libzmq takes it:
    /// IPv6 with <paramref name="ipv6"/> (Ipv6 set), else IPv4; null when the interface has none.
    /// </summary>
    public static IPAddress? FindInterfaceAddress(string name, bool ipv6)
    {
        var family = ipv6 ? AddressFamily.InterNetworkV6 : AddressFamily.InterNetwork;
        foreach (var nic in NetworkInterface.GetAllNetworkInterfaces())
        {
            if (nic.Name != name)
            {
                continue;
            }

            foreach (var unicast in nic.GetIPProperties().UnicastAddresses)
            {
                if (unicast.Address.AddressFamily == family)
                {
                    return unicast.Address;
                }
            }
        }

        return null;
    }

    public override async ValueTask<EndPoint> ResolveAsync(CancellationToken cancellationToken)
    {
        if (_literal is not null)
        {
            return new IPEndPoint(_literal, Port);
        }

        var addresses = await Dns.GetHostAddressesAsync(Host, cancellationToken).ConfigureAwait(true);
        foreach (var candidate in addresses)
        {
            if (candidate.AddressFamily == AddressFamily.InterNetwork || (Ipv6 && candidate.AddressFamily == AddressFamily.InterNetworkV6))
            {
                return new IPEndPoint(candidate, Port);
            }
        }

        throw new SocketException((int)SocketError.HostNotFound);
    }

    public override EndPoint GetBindEndPoint() => new IPEndPoint(_literal!, Port);

    public override string FormatBound(EndPoint boundEndPoint) => Format((IPEndPoint)boundEndPoint);

    /// <summary>An IP endpoint as a tcp:// endpoint (IPv6 bracketed), as Last_Endpoint spells it.</summary>
    public static string Format(IPEndPoint ip)
    {
        return ip.AddressFamily == AddressFamily.InterNetworkV6
            ? $"tcp://[{ip.Address}]:{ip.Port.ToString(CultureInfo.InvariantCulture)}"
            : $"tcp://{ip.Address}:{ip.Port.ToString(CultureInfo.InvariantCulture)}";
    }
}
