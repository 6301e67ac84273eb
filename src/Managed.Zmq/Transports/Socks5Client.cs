using System.Buffers;
using System.Buffers.Binary;
using System.IO.Pipelines;
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
/// <remarks>
/// Requests are composed in a <see cref="PipeWriter"/> and replies parsed from a <see cref="PipeReader"/>'s
/// sequence (System.IO.Pipelines, as for every handshake off the hot path). The reading side is filled
/// from the transport with exactly the octets the reply still lacks, never more: the target's ZMTP
/// greeting may follow the proxy's reply at once, and it belongs to the ZMTP handshake, which reads the
/// same transport next (libzmq's SOCKS connecter reads the reply to its end and no further too). So
/// the reader is not <c>PipeReader.Create</c> over a stream, which reads ahead.
/// </remarks>
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

    /// <summary>RFC 1928 §6: a reply's octets up to and including the first of its bound address (a name's length).</summary>
    private const int ReplyHeadLength = 5;

    /// <summary>RFC 1928 §4 and §6: the port that ends a request and a reply.</summary>
    private const int PortLength = 2;

    /// <summary>Handshake traffic is a few hundred octets each way, all on the connecter's I/O thread.</summary>
    private static readonly PipeOptions s_pipeOptions = new(
        readerScheduler: PipeScheduler.Inline, writerScheduler: PipeScheduler.Inline, useSynchronizationContext: false);

    /// <summary>Runs the greeting and CONNECT request; true when the proxy reports the tunnel is open.</summary>
    /// <param name="transport">The connected proxy socket.</param>
    /// <param name="host">The endpoint's host: an IP literal or a name the proxy resolves.</param>
    /// <param name="port">The endpoint's port.</param>
    /// <param name="username">Socks_Username; empty for no authentication.</param>
    /// <param name="password">Socks_Password, sent only with a username.</param>
    public static async ValueTask<bool> TryConnectAsync(IByteTransport transport, string host, int port, byte[] username, byte[] password)
    {
        byte[]? hostName = null;
        if (!IPAddress.TryParse(host, out var literal))
        {
            hostName = Encoding.ASCII.GetBytes(host);
            if (hostName.Length > byte.MaxValue)
            {
                // RFC 1928 §5: a domain name is sent with a one-octet length.
                return false;
            }
        }

        byte method = username.Length == 0 ? MethodNoAuthentication : MethodUsernamePassword;
        var outgoing = new System.IO.Pipelines.Pipe(s_pipeOptions);
        var incoming = new System.IO.Pipelines.Pipe(s_pipeOptions);
        try
        {
            // RFC 1928 §3: version and the one method we offer; the proxy must pick it.
            WriteGreeting(outgoing.Writer, method);
            await SendAsync(outgoing, transport).ConfigureAwait(true);
            if (!await ReceiveAsync(incoming, transport, 2).ConfigureAwait(true)
                || !TakeTwoOctets(incoming.Reader, Version, method))
            {
                return false;
            }

            // RFC 1929 §2: VER ULEN UNAME PLEN PASSWD, answered by VER STATUS.
            if (method == MethodUsernamePassword)
            {
                WriteAuthenticationRequest(outgoing.Writer, username, password);
                await SendAsync(outgoing, transport).ConfigureAwait(true);
                if (!await ReceiveAsync(incoming, transport, 2).ConfigureAwait(true)
                    || !TakeTwoOctets(incoming.Reader, AuthenticationVersion, AuthenticationSucceeded))
                {
                    return false;
                }
            }

            // RFC 1928 §4 and §6: the request, then a reply whose length depends on its address type.
            WriteConnectRequest(outgoing.Writer, literal, hostName, port);
            await SendAsync(outgoing, transport).ConfigureAwait(true);
            if (!await ReceiveAsync(incoming, transport, ReplyHeadLength).ConfigureAwait(true))
            {
                return false;
            }

            int length = ReplyLength(incoming.Reader);
            return length > 0 && await ReceiveAsync(incoming, transport, length).ConfigureAwait(true);
        }
        catch (Exception ex) when (ex is SocketException or ObjectDisposedException or IOException or InvalidOperationException)
        {
            return false;
        }
        finally
        {
            // Returns the pipes' buffers to their pool; what the proxy sent after its reply is still in the transport.
            outgoing.Reader.Complete();
            outgoing.Writer.Complete();
            incoming.Reader.Complete();
            incoming.Writer.Complete();
        }
    }

    private static void WriteGreeting(PipeWriter writer, byte method)
    {
        var span = writer.GetSpan(3);
        span[0] = Version;
        span[1] = 1;
        span[2] = method;
        writer.Advance(3);
    }

    /// <summary>RFC 1929 §2; the option table keeps both at most 255 bytes, as their one-octet lengths need.</summary>
    private static void WriteAuthenticationRequest(PipeWriter writer, byte[] username, byte[] password)
    {
        writer.GetSpan(1)[0] = AuthenticationVersion;
        writer.Advance(1);
        WriteWithLength(writer, username);
        WriteWithLength(writer, password);
    }

    /// <summary>One octet of length, then the octets as the option holds them.</summary>
    private static void WriteWithLength(PipeWriter writer, byte[] value)
    {
        writer.GetSpan(1)[0] = (byte)value.Length;
        writer.Advance(1);
        writer.Write(value);
    }

    /// <summary>RFC 1928 §4: VER CMD RSV ATYP DST.ADDR DST.PORT, the address a literal or a name the proxy resolves.</summary>
    private static void WriteConnectRequest(PipeWriter writer, IPAddress? literal, byte[]? hostName, int port)
    {
        var head = writer.GetSpan(4);
        head[0] = Version;
        head[1] = CommandConnect;
        head[2] = Reserved;
        if (literal is not null)
        {
            head[3] = literal.AddressFamily == AddressFamily.InterNetworkV6 ? AddressIPv6 : AddressIPv4;
            writer.Advance(4);
            var address = writer.GetSpan(16);
            literal.TryWriteBytes(address, out int written);
            writer.Advance(written);
        }
        else
        {
            head[3] = AddressDomainName;
            writer.Advance(4);
            writer.GetSpan(1)[0] = (byte)hostName!.Length;
            writer.Advance(1);
            writer.Write(hostName);
        }

        BinaryPrimitives.WriteUInt16BigEndian(writer.GetSpan(PortLength), (ushort)port);
        writer.Advance(PortLength);
    }

    /// <summary>Hands what the writer holds to the transport, all of it.</summary>
    private static async ValueTask SendAsync(System.IO.Pipelines.Pipe pipe, IByteTransport transport)
    {
        await pipe.Writer.FlushAsync().ConfigureAwait(true);
        if (!pipe.Reader.TryRead(out var result))
        {
            return;
        }

        var request = result.Buffer;
        foreach (var segment in request)
        {
            await transport.SendAsync(segment).ConfigureAwait(true);
        }

        pipe.Reader.AdvanceTo(request.End);
    }

    /// <summary>
    /// Receives until the reader holds <paramref name="length"/> unconsumed octets, asking the transport
    /// for no more than are missing (see the class remarks); false when the proxy closed first.
    /// </summary>
    private static async ValueTask<bool> ReceiveAsync(System.IO.Pipelines.Pipe pipe, IByteTransport transport, int length)
    {
        long held = pipe.Reader.TryRead(out var result) ? result.Buffer.Length : 0;
        if (held != 0)
        {
            pipe.Reader.AdvanceTo(result.Buffer.Start);
        }

        while (held < length)
        {
            int missing = (int)(length - held);
            int read = await transport.ReceiveAsync(pipe.Writer.GetMemory(missing)[..missing]).ConfigureAwait(true);
            if (read <= 0)
            {
                return false;
            }

            pipe.Writer.Advance(read);
            await pipe.Writer.FlushAsync().ConfigureAwait(true);
            held += read;
        }

        return true;
    }

    /// <summary>Consumes a two-octet reply; true when it is <paramref name="first"/> and <paramref name="second"/>.</summary>
    private static bool TakeTwoOctets(PipeReader reader, byte first, byte second)
    {
        reader.TryRead(out var result);
        var reply = new SequenceReader<byte>(result.Buffer);
        bool expected = reply.TryRead(out byte a) && reply.TryRead(out byte b) && a == first && b == second;
        reader.AdvanceTo(result.Buffer.GetPosition(2));
        return expected;
    }

    /// <summary>
    /// RFC 1928 §6, from the reply's first five octets (left unconsumed): the reply's whole length, or 0 when
    /// it is no success or names an unknown address type.
    /// </summary>
    private static int ReplyLength(PipeReader reader)
    {
        reader.TryRead(out var result);
        var reply = new SequenceReader<byte>(result.Buffer);
        reply.TryRead(out byte version);
        reply.TryRead(out byte status);
        reply.Advance(1);
        reply.TryRead(out byte type);
        reply.TryRead(out byte first);
        reader.AdvanceTo(result.Buffer.Start);
        if (version != Version || status != ReplySucceeded)
        {
            return 0;
        }

        return type switch
        {
            AddressIPv4 => ReplyHeadLength - 1 + 4 + PortLength,
            AddressIPv6 => ReplyHeadLength - 1 + 16 + PortLength,
            AddressDomainName => ReplyHeadLength + first + PortLength,
            _ => 0,
        };
    }
}
