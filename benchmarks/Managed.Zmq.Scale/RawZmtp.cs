using System.Buffers.Binary;
using System.Net;
using System.Net.Sockets;
using System.Text;

namespace Managed.Zmq.Scale;

/// <summary>
/// Raw ZMTP 3.x bytes (RFC 23, 37; PLAIN RFC 24) over plain .NET sockets: the hostile and the idle
/// peers, which no ZeroMQ library would let us script. Every wait takes a cancellation token.
/// </summary>
internal static class RawZmtp
{
    public const byte FlagMore = 0x01, FlagLong = 0x02, FlagCommand = 0x04;

    /// <summary>A 64-byte greeting: signature, version 3.1, mechanism, as-server, filler.</summary>
    public static byte[] Greeting(string mechanism, bool asServer = false, byte minor = 1)
    {
        var greeting = new byte[64];
        greeting[0] = 0xFF;
        greeting[9] = 0x7F;
        greeting[10] = 3;
        greeting[11] = minor;
        Encoding.ASCII.GetBytes(mechanism, greeting.AsSpan(12, 20));
        greeting[32] = asServer ? (byte)1 : (byte)0;
        return greeting;
    }

    /// <summary>A command frame: name length, name, body; short or long as the size needs.</summary>
    public static byte[] Command(string name, ReadOnlySpan<byte> body)
    {
        int size = 1 + name.Length + body.Length;
        var payload = new byte[size];
        payload[0] = (byte)name.Length;
        Encoding.ASCII.GetBytes(name, payload.AsSpan(1));
        body.CopyTo(payload.AsSpan(1 + name.Length));
        return Frame(FlagCommand, payload);
    }

    /// <summary>A frame with <paramref name="flags"/> (the long-size flag is added when needed).</summary>
    public static byte[] Frame(byte flags, ReadOnlySpan<byte> payload)
    {
        bool isLong = payload.Length > 255;
        var frame = new byte[(isLong ? 9 : 2) + payload.Length];
        frame[0] = (byte)(flags | (isLong ? FlagLong : 0));
        if (isLong)
        {
            BinaryPrimitives.WriteUInt64BigEndian(frame.AsSpan(1), (ulong)payload.Length);
        }
        else
        {
            frame[1] = (byte)payload.Length;
        }

        payload.CopyTo(frame.AsSpan(isLong ? 9 : 2));
        return frame;
    }

    /// <summary>A metadata property (RFC 23): name length, name, 4-byte value length, value.</summary>
    public static byte[] Property(string name, string value)
    {
        var property = new byte[1 + name.Length + 4 + value.Length];
        property[0] = (byte)name.Length;
        Encoding.ASCII.GetBytes(name, property.AsSpan(1));
        BinaryPrimitives.WriteInt32BigEndian(property.AsSpan(1 + name.Length), value.Length);
        Encoding.ASCII.GetBytes(value, property.AsSpan(5 + name.Length));
        return property;
    }

    public static byte[] Ready(string socketType) => Command("READY", Property("Socket-Type", socketType));

    /// <summary>A PING with <paramref name="ttl"/> (tenths of a second) and no context (RFC 37).</summary>
    public static byte[] Ping(ushort ttl)
    {
        Span<byte> body = stackalloc byte[2];
        BinaryPrimitives.WriteUInt16BigEndian(body, ttl);
        return Command("PING", body);
    }

    /// <summary>A PLAIN HELLO (RFC 24): username and password, each with a one-byte length.</summary>
    public static byte[] PlainHello(string user, string password)
    {
        var body = new byte[2 + user.Length + password.Length];
        body[0] = (byte)user.Length;
        Encoding.ASCII.GetBytes(user, body.AsSpan(1));
        body[1 + user.Length] = (byte)password.Length;
        Encoding.ASCII.GetBytes(password, body.AsSpan(2 + user.Length));
        return Command("HELLO", body);
    }

    public static byte[] PlainInitiate(string socketType) => Command("INITIATE", Property("Socket-Type", socketType));

    /// <summary>A subscription message to a PUB (RFC 29 on ZMTP 3.0: a data frame of 0x01 + topic).</summary>
    public static byte[] Subscription(ReadOnlySpan<byte> topic)
    {
        var payload = new byte[1 + topic.Length];
        payload[0] = 1;
        topic.CopyTo(payload.AsSpan(1));
        return Frame(0, payload);
    }

    public static System.Net.Sockets.Socket NewTcp()
    {
        var socket = new System.Net.Sockets.Socket(AddressFamily.InterNetwork, System.Net.Sockets.SocketType.Stream, ProtocolType.Tcp)
        {
            NoDelay = true,
        };
        return socket;
    }

    public static IPEndPoint Loopback(int port) => new(IPAddress.Loopback, port);

    /// <summary>Connects within <see cref="ScaleConstants.StepTimeout"/>; the socket is disposed on failure.</summary>
    public static async Task<System.Net.Sockets.Socket> ConnectAsync(int port, CancellationToken cancel)
    {
        var socket = NewTcp();
        try
        {
            using var step = CancellationTokenSource.CreateLinkedTokenSource(cancel);
            step.CancelAfter(ScaleConstants.StepTimeout);
            await socket.ConnectAsync(Loopback(port), step.Token).ConfigureAwait(false);
            return socket;
        }
        catch
        {
            socket.Dispose();
            throw;
        }
    }

    public static async Task SendAsync(System.Net.Sockets.Socket socket, ReadOnlyMemory<byte> data, CancellationToken cancel)
    {
        while (!data.IsEmpty)
        {
            int sent = await socket.SendAsync(data, SocketFlags.None, cancel).ConfigureAwait(false);
            data = data[sent..];
        }
    }

    public static async Task ReadExactAsync(System.Net.Sockets.Socket socket, Memory<byte> buffer, CancellationToken cancel)
    {
        while (!buffer.IsEmpty)
        {
            int read = await socket.ReceiveAsync(buffer, SocketFlags.None, cancel).ConfigureAwait(false);
            if (read == 0)
            {
                throw new EndOfStreamException("peer closed the connection");
            }

            buffer = buffer[read..];
        }
    }

    /// <summary>Reads one frame: its flags and payload.</summary>
    public static async Task<(byte Flags, byte[] Payload)> ReadFrameAsync(System.Net.Sockets.Socket socket, CancellationToken cancel)
    {
        var head = new byte[9];
        await ReadExactAsync(socket, head.AsMemory(0, 2), cancel).ConfigureAwait(false);
        long size = head[1];
        if ((head[0] & FlagLong) != 0)
        {
            await ReadExactAsync(socket, head.AsMemory(2, 7), cancel).ConfigureAwait(false);
            size = (long)BinaryPrimitives.ReadUInt64BigEndian(head.AsSpan(1));
            if (size > 1 << 20)
            {
                throw new InvalidDataException($"unexpected {size}-byte frame in a handshake");
            }
        }

        var payload = new byte[size];
        await ReadExactAsync(socket, payload, cancel).ConfigureAwait(false);
        return (head[0], payload);
    }

    /// <summary>True when <paramref name="payload"/> is the command <paramref name="name"/>.</summary>
    public static bool IsCommand(byte[] payload, string name) =>
        payload.Length > name.Length && payload[0] == name.Length && Encoding.ASCII.GetString(payload, 1, name.Length) == name;

    /// <summary>
    /// Connects and completes a NULL handshake as <paramref name="socketType"/> within one step
    /// timeout; the caller owns the returned socket.
    /// </summary>
    public static async Task<System.Net.Sockets.Socket> NullHandshakeAsync(int port, string socketType, CancellationToken cancel)
    {
        var socket = await ConnectAsync(port, cancel).ConfigureAwait(false);
        try
        {
            using var step = CancellationTokenSource.CreateLinkedTokenSource(cancel);
            step.CancelAfter(ScaleConstants.StepTimeout);
            byte[] hello = [.. Greeting("NULL"), .. Ready(socketType)];
            await SendAsync(socket, hello, step.Token).ConfigureAwait(false);
            var greeting = new byte[64];
            await ReadExactAsync(socket, greeting, step.Token).ConfigureAwait(false);
            var (_, ready) = await ReadFrameAsync(socket, step.Token).ConfigureAwait(false);
            if (!IsCommand(ready, "READY"))
            {
                throw new InvalidDataException("no READY from the server");
            }

            return socket;
        }
        catch
        {
            socket.Dispose();
            throw;
        }
    }

    /// <summary>Connects and completes a PLAIN handshake (HELLO, WELCOME, INITIATE, READY) as a client.</summary>
    public static async Task<System.Net.Sockets.Socket> PlainHandshakeAsync(int port, string socketType, string user, string password, CancellationToken cancel)
    {
        var socket = await ConnectAsync(port, cancel).ConfigureAwait(false);
        try
        {
            using var step = CancellationTokenSource.CreateLinkedTokenSource(cancel);
            step.CancelAfter(ScaleConstants.StepTimeout);
            byte[] hello = [.. Greeting("PLAIN"), .. PlainHello(user, password)];
            await SendAsync(socket, hello, step.Token).ConfigureAwait(false);
            var greeting = new byte[64];
            await ReadExactAsync(socket, greeting, step.Token).ConfigureAwait(false);
            var (_, welcome) = await ReadFrameAsync(socket, step.Token).ConfigureAwait(false);
            if (!IsCommand(welcome, "WELCOME"))
            {
                throw new InvalidDataException("no WELCOME from the PLAIN server");
            }

            await SendAsync(socket, PlainInitiate(socketType), step.Token).ConfigureAwait(false);
            var (_, ready) = await ReadFrameAsync(socket, step.Token).ConfigureAwait(false);
            if (!IsCommand(ready, "READY"))
            {
                throw new InvalidDataException("no READY from the PLAIN server");
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
