using System.Buffers.Binary;
using System.Globalization;
using System.Net;
using System.Net.Sockets;

namespace Managed.Zmq.Transports;

/// <summary>
/// The peer address a connection reports to ZAP and as the <c>Peer-Address</c> message property, in
/// libzmq 4.3's spelling: the numeric IP for tcp (no port); for ipc on Linux, the host part glibc's
/// numeric name lookup gives a Unix-domain socket ("localhost") followed by the peer process's
/// credentials, <c>:uid:gid:pid</c> (SO_PEERCRED).
/// </summary>
internal static class PeerAddressText
{
    /// <summary>The host part libzmq gets for a Unix-domain peer on Linux.</summary>
    private const string UnixHost = "localhost";

    private const int UcredLength = 12;

    public static string Describe(System.Net.Sockets.Socket socket)
    {
        try
        {
            if (socket.AddressFamily == AddressFamily.Unix)
            {
                return DescribeUnixPeer(socket);
            }

            return socket.RemoteEndPoint is IPEndPoint ip ? ip.Address.ToString() : string.Empty;
        }
        catch (SocketException)
        {
            // The peer left before we asked: libzmq then has no address either.
            return string.Empty;
        }
        catch (ObjectDisposedException)
        {
            return string.Empty;
        }
    }

    private static string DescribeUnixPeer(System.Net.Sockets.Socket socket)
    {
        if (!OperatingSystem.IsLinux())
        {
            return string.Empty;
        }

        Span<byte> credentials = stackalloc byte[UcredLength];
        int length = socket.GetRawSocketOption(LinuxSocketOptions.SolSocket, LinuxSocketOptions.SoPeerCred, credentials);
        if (length < UcredLength)
        {
            return UnixHost;
        }

        int pid = BinaryPrimitives.ReadInt32LittleEndian(credentials);
        uint uid = BinaryPrimitives.ReadUInt32LittleEndian(credentials[4..]);
        uint gid = BinaryPrimitives.ReadUInt32LittleEndian(credentials[8..]);
        return string.Create(CultureInfo.InvariantCulture, $"{UnixHost}:{uid}:{gid}:{pid}");
    }
}
