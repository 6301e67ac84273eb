using System.Net.Sockets;
using Managed.Zmq.Options;

namespace Managed.Zmq.Transports;

/// <summary>
/// Applies the socket options that shape an OS socket (as in Net.Zmq): buffer sizes, TOS, TCP keep-alive
/// through the portable <see cref="SocketOptionName"/> values only (NetMQ's IOControl
/// keep-alive crashed on Linux), and TCP_NODELAY, always on: batching is ours to do, not Nagle's.
/// </summary>
internal static class SocketTuning
{
    /// <summary>A socket about to connect: its buffers, then the rest.</summary>
    public static void Apply(System.Net.Sockets.Socket socket, SocketOptions options)
    {
        ApplyBuffers(socket, options);
        ApplyConnection(socket, options);
    }

    /// <summary>
    /// An accepted socket. A TCP one already has its listener's buffers (<see cref="ApplyBuffers"/>): the kernel
    /// copies them when it answers the handshake. A Unix-domain one starts with the system's, so they are set here.
    /// </summary>
    public static void ApplyAccepted(System.Net.Sockets.Socket socket, SocketOptions options)
    {
        if (socket.AddressFamily == AddressFamily.Unix)
        {
            ApplyBuffers(socket, options);
        }

        ApplyConnection(socket, options);
    }

    /// <summary>
    /// SO_SNDBUF and SO_RCVBUF, on a socket before it connects or listens, as libzmq sets them. The kernel
    /// chooses the window scale and the window clamp it announces in the TCP handshake from the receive buffer
    /// it has then. A buffer made smaller after the handshake leaves the peer sending segments the buffer cannot
    /// hold: they are dropped and sent again only after a retransmission timeout, for every segment.
    /// </summary>
    public static void ApplyBuffers(System.Net.Sockets.Socket socket, SocketOptions options)
    {
        if (options.SendBufferSize >= 0)
        {
            socket.SendBufferSize = Math.Max(1, options.SendBufferSize);
        }

        if (options.ReceiveBufferSize >= 0)
        {
            socket.ReceiveBufferSize = Math.Max(1, options.ReceiveBufferSize);
        }
    }

    /// <summary>
    /// A tcp or ipc listening socket, before it binds: what the connections it accepts take from it in the handshake.
    /// libzmq sets the buffers (<see cref="ApplyBuffers"/>) and the type of service here, so the handshake's answer
    /// carries the TOS too.
    /// </summary>
    public static void ApplyListening(System.Net.Sockets.Socket socket, SocketOptions options)
    {
        ApplyBuffers(socket, options);
        ApplyTypeOfService(socket, options);
    }

    /// <summary>
    /// SO_REUSEADDR, as libzmq sets it on a listener (a restarted process rebinds at once) and on a connect's bound
    /// source (one source port may reach several servers). Set raw: .NET's ReuseAddress also sets SO_REUSEPORT on
    /// Linux, which would let a second socket listen on the same port instead of failing with EADDRINUSE. Linux only.
    /// </summary>
    public static void SetReuseAddress(System.Net.Sockets.Socket socket)
    {
        if (OperatingSystem.IsLinux())
        {
            socket.SetRawSocketOption(LinuxSocketOptions.SolSocket, LinuxSocketOptions.SoReuseAddr, BitConverter.GetBytes(1));
        }
    }

    /// <summary>
    /// Tos: IP_TOS, and on an IPv6 socket the traffic class (IPV6_TCLASS) as well, as libzmq sets both there: a
    /// dual-stack socket's IPv4 peers take the first. Nothing on other families (ipc).
    /// </summary>
    private static void ApplyTypeOfService(System.Net.Sockets.Socket socket, SocketOptions options)
    {
        if (options.TypeOfService <= 0)
        {
            return;
        }

        int tos = options.TypeOfService;
        if (socket.AddressFamily == AddressFamily.InterNetwork)
        {
            TrySet(() => socket.SetSocketOption(SocketOptionLevel.IP, SocketOptionName.TypeOfService, tos));
        }
        else if (socket.AddressFamily == AddressFamily.InterNetworkV6 && OperatingSystem.IsLinux())
        {
            TrySet(() => socket.SetRawSocketOption(LinuxSocketOptions.IpProtoIp, LinuxSocketOptions.IpTos, BitConverter.GetBytes(tos)));
            TrySet(() => socket.SetRawSocketOption(LinuxSocketOptions.IpProtoIpv6, LinuxSocketOptions.Ipv6TrafficClass, BitConverter.GetBytes(tos)));
        }
    }

    /// <summary>
    /// The options of a connection itself: TCP_NODELAY, keep-alive, TOS, TCP_USER_TIMEOUT. Not the device, which is
    /// no best-effort option (<see cref="BindToDevice"/>); an accepted socket has its listener's.
    /// </summary>
    private static void ApplyConnection(System.Net.Sockets.Socket socket, SocketOptions options)
    {
        if (socket.AddressFamily == AddressFamily.Unix)
        {
            return;
        }

        TrySet(() => socket.NoDelay = true);

        if (OperatingSystem.IsLinux())
        {
            if (options.TcpMaxRetransmitTimeout > 0)
            {
                // Tcp_Maxrt is Linux's TCP_USER_TIMEOUT, set through the managed raw-option API.
                int timeout = options.TcpMaxRetransmitTimeout;
                TrySet(() => socket.SetRawSocketOption(LinuxSocketOptions.IpProtoTcp, LinuxSocketOptions.TcpUserTimeout, BitConverter.GetBytes(timeout)));
            }
        }

        ApplyTypeOfService(socket, options);

        if (options.TcpKeepalive >= 0)
        {
            TrySet(() => socket.SetSocketOption(SocketOptionLevel.Socket, SocketOptionName.KeepAlive, options.TcpKeepalive == 1));
        }

        if (options.TcpKeepalive == 1)
        {
            if (options.TcpKeepaliveIdle > 0)
            {
                TrySet(() => socket.SetSocketOption(SocketOptionLevel.Tcp, SocketOptionName.TcpKeepAliveTime, options.TcpKeepaliveIdle));
            }

            if (options.TcpKeepaliveInterval > 0)
            {
                TrySet(() => socket.SetSocketOption(SocketOptionLevel.Tcp, SocketOptionName.TcpKeepAliveInterval, options.TcpKeepaliveInterval));
            }

            if (options.TcpKeepaliveCount > 0)
            {
                TrySet(() => socket.SetSocketOption(SocketOptionLevel.Tcp, SocketOptionName.TcpKeepAliveRetryCount, options.TcpKeepaliveCount));
            }
        }
    }

    /// <summary>
    /// Bindtodevice: SO_BINDTODEVICE on a tcp socket about to bind or connect, as libzmq sets it when it opens one.
    /// Returns 0 (also when none is set), ENOTSUP where the system has no such option (not Linux), or ENODEV when the
    /// kernel refuses it (an unknown device, or no privilege). libzmq then fails the bind, or closes the socket and
    /// retries the connect after the reconnect interval: a socket never goes out through another interface.
    /// </summary>
    public static int BindToDevice(System.Net.Sockets.Socket socket, SocketOptions options)
    {
        if (options.BindToDevice.Length == 0)
        {
            return 0;
        }

        if (!OperatingSystem.IsLinux())
        {
            return ZmqConstants.ENOTSUP;
        }

        try
        {
            byte[] device = System.Text.Encoding.ASCII.GetBytes(options.BindToDevice + "\0");
            socket.SetRawSocketOption(LinuxSocketOptions.SolSocket, LinuxSocketOptions.SoBindToDevice, device);
            return 0;
        }
        catch (SocketException)
        {
            return ZmqConstants.ENODEV;
        }
    }

    private static void TrySet(Action apply)
    {
        try
        {
            apply();
        }
        catch (SocketException)
        {
            // Best effort: an OS that refuses an option does not fail the connection. libzmq takes TOS and the
            // buffers so, but fails an accept or a connect attempt that cannot set TCP_NODELAY, keep-alive or
            // TCP_MAXRT (docs/limitations.md).
        }
        catch (PlatformNotSupportedException)
        {
        }
    }
}
