using System.Buffers.Binary;
using System.Net;
using System.Net.Sockets;
using System.Text;

namespace Managed.Zmq.Transports;

/// <summary>
/// The client side of a SOCKS5 CONNECT (RFC 1928), run over a freshly connected proxy socket before ZMTP
/// starts, as libzmq's SOCKS connecter does for Socks_Proxy: offer one method, "no authentication", or
/// "username/password" (RFC 1929) when Socks_Username is set, ask for the
/// target as an IPv4 or IPv6 address when it is a literal and as a domain name otherwise (the proxy
/// resolves it), and accept only a success reply. Any other answer ends this attempt; the connecter
/// then retries after its reconnect interval, as libzmq does.
/// </summary>
internal static class Socks5Client
{
    private const byte Version = 5;
    private const byte MethodNoAuthentication = 0;
    private const byte MethodUsernamePassword = 2;

    /// <summary>RFC 1929 §2: the version of the username/password subnegotiation.</summary>
    private const byte AuthenticationVersion = 1;

    /// <summary>RFC 1929 §2: STATUS 0 is success; anything else means the connection must be closed.</summary>
    private const byte AuthenticationSucceeded = 0;
    private const byte CommandConnect = 1;
    private const byte Reserved = 0;
    private const byte AddressIPv4 = 1;
    private const byte AddressDomainName = 3;
    private const byte AddressIPv6 = 4;
    private const byte ReplySucceeded = 0;

    /// <summary>The longest reply: version, reply, reserved, type, a 255-octet name with its length, and the port.</summary>
    private const int MaxReplyLength = 4 + 1 + 255 + 2;

    /// <summary>Runs the greeting and CONNECT request; true when the proxy reports the tunnel is open.</summary>
    /// <param name="transport">The connected proxy socket.</param>
    /// <param name="host">The endpoint's host: an IP literal or a name the proxy resolves.</param>
    /// <param name="port">The endpoint's port.</param>
    /// <param name="username">Socks_Username; empty for no authentication.</param>
    /// <param name="password">Socks_Password, sent only with a username.</param>
    public static async ValueTask<bool> TryConnectAsync(IByteTransport transport, string host, int port, string username, string password)
    {
        byte[]? request = BuildConnectRequest(host, port);
        if (request is null)
        {
            return false;
        }

        byte method = username.Length == 0 ? MethodNoAuthentication : MethodUsernamePassword;
        try
        {
            // RFC 1928 §3: version and the one method we offer; the proxy must pick it.
            await transport.SendAsync(new byte[] { Version, 1, method }).ConfigureAwait(true);
            var reply = new byte[MaxReplyLength];
            if (!await ReadExactlyAsync(transport, reply.AsMemory(0, 2)).ConfigureAwait(true)
                || reply[0] != Version || reply[1] != method)
            {
                return false;
            }

            // RFC 1929 §2: VER ULEN UNAME PLEN PASSWD, answered by VER STATUS.
            if (method == MethodUsernamePassword)
            {
                await transport.SendAsync(BuildAuthenticationRequest(username, password)).ConfigureAwait(true);
                if (!await ReadExactlyAsync(transport, reply.AsMemory(0, 2)).ConfigureAwait(true)
                    || reply[0] != AuthenticationVersion || reply[1] != AuthenticationSucceeded)
                {
                    return false;
                }
            }

            // RFC 1928 §4 and §6: the request, then a reply whose length depends on its address type.
            await transport.SendAsync(request).ConfigureAwait(true);
            if (!await ReadExactlyAsync(transport, reply.AsMemory(0, 5)).ConfigureAwait(true)
                || reply[0] != Version || reply[1] != ReplySucceeded)
            {
                return false;
            }

            int rest = reply[3] switch
            {
                AddressIPv4 => 4 - 1 + 2,
                AddressIPv6 => 16 - 1 + 2,
                AddressDomainName => reply[4] + 2,
                _ => -1,
            };

            return rest >= 0 && await ReadExactlyAsync(transport, reply.AsMemory(5, rest)).ConfigureAwait(true);
        }
        catch (Exception ex) when (ex is SocketException or ObjectDisposedException or IOException or InvalidOperationException)
        {
            return false;
        }
    }

    /// <summary>RFC 1929 §2; the option table keeps both at most 255 bytes, as their one-octet lengths need.</summary>
    private static byte[] BuildAuthenticationRequest(string username, string password)
    {
        byte[] name = Encoding.UTF8.GetBytes(username);
        byte[] secret = Encoding.UTF8.GetBytes(password);
        var request = new byte[3 + name.Length + secret.Length];
        request[0] = AuthenticationVersion;
        request[1] = (byte)name.Length;
        name.CopyTo(request, 2);
        request[2 + name.Length] = (byte)secret.Length;
        secret.CopyTo(request, 3 + name.Length);
        return request;
    }

    /// <summary>RFC 1928 §4: VER CMD RSV ATYP DST.ADDR DST.PORT; null when the host name is too long to send.</summary>
    private static byte[]? BuildConnectRequest(string host, int port)
    {
        byte[] address;
        byte type;
        if (IPAddress.TryParse(host, out var literal))
        {
            address = literal.GetAddressBytes();
            type = literal.AddressFamily == AddressFamily.InterNetworkV6 ? AddressIPv6 : AddressIPv4;
        }
        else
        {
            byte[] name = Encoding.ASCII.GetBytes(host);
            if (name.Length > byte.MaxValue)
            {
                return null;
            }

            address = [(byte)name.Length, .. name];
            type = AddressDomainName;
        }

        var request = new byte[4 + address.Length + 2];
        request[0] = Version;
        request[1] = CommandConnect;
        request[2] = Reserved;
        request[3] = type;
        address.CopyTo(request, 4);
        BinaryPrimitives.WriteUInt16BigEndian(request.AsSpan(4 + address.Length), (ushort)port);
        return request;
    }

    private static async ValueTask<bool> ReadExactlyAsync(IByteTransport transport, Memory<byte> buffer)
    {
        while (!buffer.IsEmpty)
        {
            int read = await transport.ReceiveAsync(buffer).ConfigureAwait(true);
            if (read <= 0)
            {
                return false;
            }

            buffer = buffer[read..];
        }

        return true;
    }
}
