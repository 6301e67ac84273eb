namespace Managed.Zmq.Transports;

/// <summary>
/// Linux's numbers for the socket options .NET has no <see cref="System.Net.Sockets.SocketOptionName"/> for, set
/// or read through the raw-option API (the values of the kernel's uapi headers, fixed by its ABI).
/// </summary>
internal static class LinuxSocketOptions
{
    /// <summary>SOL_SOCKET.</summary>
    public const int SolSocket = 1;

    /// <summary>
    /// SO_REUSEADDR, set raw: .NET's ReuseAddress also sets SO_REUSEPORT on Linux, which would let a second socket
    /// listen on the same port instead of failing with EADDRINUSE.
    /// </summary>
    public const int SoReuseAddr = 2;

    /// <summary>SO_PEERCRED: struct ucred { pid, uid, gid }, three 32-bit integers.</summary>
    public const int SoPeerCred = 17;

    /// <summary>SO_BINDTODEVICE (Bindtodevice).</summary>
    public const int SoBindToDevice = 25;

    /// <summary>IPPROTO_IP.</summary>
    public const int IpProtoIp = 0;

    /// <summary>IP_TOS, set raw on an IPv6 socket (the managed option is for IPv4 sockets).</summary>
    public const int IpTos = 1;

    /// <summary>IPPROTO_TCP.</summary>
    public const int IpProtoTcp = 6;

    /// <summary>TCP_CORK: while set, the kernel sends full segments only and holds a partial one for the bytes that follow.</summary>
    public const int TcpCork = 3;

    /// <summary>TCP_USER_TIMEOUT (Tcp_Maxrt).</summary>
    public const int TcpUserTimeout = 18;

    /// <summary>IPPROTO_IPV6.</summary>
    public const int IpProtoIpv6 = 41;

    /// <summary>IPV6_TCLASS: the IPv6 traffic class, which libzmq sets from Tos as well.</summary>
    public const int Ipv6TrafficClass = 67;
}
