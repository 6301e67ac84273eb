using NetSocket = System.Net.Sockets.Socket;
using System.Net;
using System.Net.Sockets;

namespace Managed.Zmq.Transports.Udp;

/// <summary>Opens and sets up the OS socket of a udp endpoint the way libzmq 4.3.4's udp engine does.</summary>
internal static class UdpSockets
{
    /// <summary>SOL_SOCKET and SO_REUSEPORT (Linux): several multicast receivers may bind one port, as libzmq lets them.</summary>
    private const int SolSocket = 1;
    private const int SoReusePort = 15;

    /// <summary>
    /// A sending socket (RADIO): not bound; for a multicast target, loopback as Multicast_Loop says (on by default,
    /// as libzmq's ZMQ_MULTICAST_LOOP, so receivers on this host get the datagrams), the TTL from Multicast_Hops,
    /// and the interface given.
    /// </summary>
    public static NetSocket OpenSender(UdpAddress address, int multicastHops, bool multicastLoop)
    {
        var socket = new NetSocket(address.AddressFamily, System.Net.Sockets.SocketType.Dgram, ProtocolType.Udp);
        try
        {
            if (address.IsMulticast)
            {
                var level = address.AddressFamily == AddressFamily.InterNetworkV6 ? SocketOptionLevel.IPv6 : SocketOptionLevel.IP;
                socket.SetSocketOption(level, SocketOptionName.MulticastLoopback, multicastLoop);
                if (multicastHops > 0)
                {
                    socket.SetSocketOption(level, SocketOptionName.MulticastTimeToLive, multicastHops);
                }

                if (address.AddressFamily == AddressFamily.InterNetworkV6)
                {
                    if (address.InterfaceIndex > 0)
                    {
                        socket.SetSocketOption(SocketOptionLevel.IPv6, SocketOptionName.MulticastInterface, address.InterfaceIndex);
                    }
                }
                else if (!address.Bind.Address.Equals(IPAddress.Any))
                {
                    socket.SetSocketOption(SocketOptionLevel.IP, SocketOptionName.MulticastInterface, address.Bind.Address.GetAddressBytes());
                }
            }

            return socket;
        }
        catch
        {
            socket.Dispose();
            throw;
        }
    }

    /// <summary>
    /// A receiving socket (DISH): address reuse on, bound to the bind address (any address on the port for a
    /// multicast group, port reuse on too), and the group joined on the interface given.
    /// </summary>
    public static NetSocket OpenReceiver(UdpAddress address)
    {
        var socket = new NetSocket(address.AddressFamily, System.Net.Sockets.SocketType.Dgram, ProtocolType.Udp);
        try
        {
            socket.SetSocketOption(SocketOptionLevel.Socket, SocketOptionName.ReuseAddress, true);
            var bind = address.Bind;
            if (address.IsMulticast)
            {
                if (OperatingSystem.IsLinux())
                {
                    socket.SetRawSocketOption(SolSocket, SoReusePort, BitConverter.GetBytes(1));
                }

                bind = new IPEndPoint(address.AddressFamily == AddressFamily.InterNetworkV6 ? IPAddress.IPv6Any : IPAddress.Any, bind.Port);
            }

            socket.Bind(bind);
            if (address.IsMulticast)
            {
                if (address.AddressFamily == AddressFamily.InterNetworkV6)
                {
                    socket.SetSocketOption(SocketOptionLevel.IPv6, SocketOptionName.AddMembership, new IPv6MulticastOption(address.Target.Address, Math.Max(0, address.InterfaceIndex)));
                }
                else
                {
                    socket.SetSocketOption(SocketOptionLevel.IP, SocketOptionName.AddMembership, new MulticastOption(address.Target.Address, address.Bind.Address));
                }
            }

            return socket;
        }
        catch
        {
            socket.Dispose();
            throw;
        }
    }
}
