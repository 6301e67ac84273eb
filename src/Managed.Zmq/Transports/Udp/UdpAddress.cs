using System.Globalization;
using System.Net;
using System.Net.NetworkInformation;
using System.Net.Sockets;

namespace Managed.Zmq.Transports.Udp;

/// <summary>
/// <c>udp://[interface;]host:port</c> as libzmq 4.3.4 resolves it (its udp_address): the target the datagrams go
/// to (RADIO) and the address the receiving socket binds (DISH). A multicast target is joined on the interface
/// (<c>*</c>, an address or a NIC name; any when absent) and the socket binds any address on the port; a unicast
/// one is the bind address for a DISH and the destination for a RADIO; an interface is only allowed with a
/// multicast target.
/// </summary>
internal sealed class UdpAddress
{
    private UdpAddress(string original, IPEndPoint target, IPEndPoint bind, int interfaceIndex, string hostText)
    {
        Original = original;
        Target = target;
        Bind = bind;
        InterfaceIndex = interfaceIndex;
        HostText = hostText;
    }

    /// <summary>The endpoint as given by the user.</summary>
    public string Original { get; }

    /// <summary>Where a RADIO sends; for a DISH, the multicast group it joins (or its bind address).</summary>
    public IPEndPoint Target { get; }

    /// <summary>What a DISH binds (any address on the port for multicast) and the interface a multicast RADIO sends from.</summary>
    public IPEndPoint Bind { get; }

    /// <summary>The interface's index for IPv6 multicast; 0 for any, -1 when it was given as an address.</summary>
    public int InterfaceIndex { get; }

    /// <summary>Everything before the port, as given (with the interface part): <c>Last_Endpoint</c> is built from it.</summary>
    public string HostText { get; }

    public bool IsMulticast => IsMulticastAddress(Target.Address);

    public AddressFamily AddressFamily => Target.AddressFamily;

    /// <summary>Parses the part after <c>udp://</c>; returns 0 or libzmq's errno (EINVAL, ENODEV).</summary>
    public static int TryParse(string original, string rest, bool forBind, bool ipv6, out UdpAddress? address)
    {
        address = null;
        IPAddress? interfaceAddress = null;
        int interfaceIndex = 0;
        string name = rest;
        int semicolon = rest.LastIndexOf(';');
        if (semicolon >= 0)
        {
            string source = rest[..semicolon];
            if (source == "*")
            {
                interfaceAddress = ipv6 ? IPAddress.IPv6Any : IPAddress.Any;
            }
            else if (IPAddress.TryParse(source, out var literal))
            {
                interfaceAddress = literal;
                interfaceIndex = -1;
            }
            else if (FindInterface(source, ipv6) is { } nic)
            {
                (interfaceAddress, interfaceIndex) = nic;
            }
            else
            {
                // libzmq's resolver: neither an address nor a NIC name.
                return ZmqConstants.ENODEV;
            }

            if (IsMulticastAddress(interfaceAddress))
            {
                // A multicast address makes no sense as the source.
                return ZmqConstants.EINVAL;
            }

            name = rest[(semicolon + 1)..];
        }

        int split = HostPortText.TrySplit(name, forBind, out string host, out int port);
        if (split != 0)
        {
            return split;
        }

        IPAddress? target = ResolveHost(host, forBind, ipv6, out int error);
        if (target is null)
        {
            return error;
        }

        bool multicast = IsMulticastAddress(target);
        IPEndPoint bind;
        if (interfaceAddress is not null)
        {
            if (!multicast)
            {
                // An interface is only meaningful for a multicast target.
                return ZmqConstants.EINVAL;
            }

            bind = new IPEndPoint(interfaceAddress, port);
        }
        else if (multicast || !forBind)
        {
            bind = new IPEndPoint(target.AddressFamily == AddressFamily.InterNetworkV6 ? IPAddress.IPv6Any : IPAddress.Any, port);
        }
        else
        {
            bind = new IPEndPoint(target, port);
        }

        if (bind.AddressFamily != target.AddressFamily)
        {
            return ZmqConstants.EINVAL;
        }

        if (target.AddressFamily == AddressFamily.InterNetworkV6 && multicast && interfaceIndex < 0)
        {
            // IPv6 multicast needs the interface's index, which only a NIC name gives (as in libzmq).
            return ZmqConstants.ENODEV;
        }

        address = new UdpAddress(original, new IPEndPoint(target, port), bind, interfaceIndex, rest[..rest.LastIndexOf(':')]);
        return 0;
    }

    /// <summary><c>Last_Endpoint</c> after binding to <paramref name="port"/> (the real one for <c>*</c>).</summary>
    public string FormatBound(int port) => $"udp://{HostText}:{port.ToString(CultureInfo.InvariantCulture)}";

    private static bool IsMulticastAddress(IPAddress address) => address.AddressFamily == AddressFamily.InterNetworkV6
        ? address.IsIPv6Multicast
        : address.AddressFamily == AddressFamily.InterNetwork && (address.GetAddressBytes()[0] & 0xF0) == 0xE0;

    /// <summary>The host: <c>*</c> (bind only), a literal, a NIC name (bind) or a DNS name (connect).</summary>
    private static IPAddress? ResolveHost(string host, bool forBind, bool ipv6, out int error)
    {
        error = ZmqConstants.EINVAL;
        if (host.Length == 0)
        {
            // libzmq looks an empty host up as an interface to bind, which none is named.
            error = forBind ? ZmqConstants.ENODEV : ZmqConstants.EINVAL;
            return null;
        }

        if (host == "*")
        {
            return forBind ? (ipv6 ? IPAddress.IPv6Any : IPAddress.Any) : null;
        }

        if (IPAddress.TryParse(host, out var literal))
        {
            if (literal.AddressFamily == AddressFamily.InterNetworkV6 && !ipv6)
            {
                // libzmq takes IPv6 only with ZMQ_IPV6 set.
                return null;
            }

            return literal;
        }

        if (forBind)
        {
            if (FindInterface(host, ipv6) is { } nic)
            {
                return nic.Address;
            }

            error = ZmqConstants.ENODEV;
            return null;
        }

        try
        {
            return Array.Find(Dns.GetHostAddresses(host), a => a.AddressFamily == AddressFamily.InterNetwork || (ipv6 && a.AddressFamily == AddressFamily.InterNetworkV6));
        }
        catch (SocketException)
        {
            return null;
        }
    }

    /// <summary>A NIC by name: its first IPv4 address (or IPv6 with <paramref name="ipv6"/>) and its index.</summary>
    private static (IPAddress Address, int Index)? FindInterface(string name, bool ipv6)
    {
        foreach (var nic in NetworkInterface.GetAllNetworkInterfaces())
        {
            if (nic.Name != name)
            {
                continue;
            }

            var properties = nic.GetIPProperties();
            foreach (var unicast in properties.UnicastAddresses)
            {
                var family = unicast.Address.AddressFamily;
                if (family == AddressFamily.InterNetwork || (ipv6 && family == AddressFamily.InterNetworkV6))
                {
                    int index = family == AddressFamily.InterNetworkV6
                        ? properties.GetIPv6Properties().Index
                        : properties.GetIPv4Properties().Index;
                    return (unicast.Address, index);
                }
            }
        }

        return null;
    }
}
