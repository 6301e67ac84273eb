using System.Buffers.Binary;
using System.Diagnostics;
using System.Net;
using System.Net.Sockets;

namespace Managed.Zmq.Tests.Support;

/// <summary>
/// A scripted peer on a real TCP connection (System.Net.Sockets, not this library): it writes
/// exactly the octets a test gives it and reads with a timeout on every call, so a hostile or
/// broken ZMTP peer can be played against a live socket.
/// </summary>
internal sealed class RawPeer : IDisposable
{
    public const int DefaultTimeout = 30_000;

    private readonly System.Net.Sockets.Socket _socket;

    private RawPeer(System.Net.Sockets.Socket socket)
    {
        _socket = socket;
        _socket.NoDelay = true;
    }

    public static RawPeer Connect(int port)
    {
        var socket = new System.Net.Sockets.Socket(AddressFamily.InterNetwork, System.Net.Sockets.SocketType.Stream, ProtocolType.Tcp);
        try
        {
            socket.Connect(new IPEndPoint(IPAddress.Loopback, port));
        }
        catch
        {
            socket.Dispose();
            throw;
        }

        return new RawPeer(socket);
    }

    public static RawPeer Wrap(System.Net.Sockets.Socket accepted) => new(accepted);

    /// <summary>The port of a <c>tcp://host:port</c> endpoint.</summary>
    public static int PortOf(string endpoint) => int.Parse(endpoint[(endpoint.LastIndexOf(':') + 1)..], System.Globalization.CultureInfo.InvariantCulture);

    public void Send(byte[] bytes) => _socket.Send(bytes);

    /// <summary>Sends, reporting false instead of throwing when the other side has already closed.</summary>
    public bool TrySend(byte[] bytes)
    {
        try
        {
            _socket.Send(bytes);
            return true;
        }
        catch (SocketException)
        {
            return false;
        }
    }

    public byte[] ReadExactly(int count, int timeoutMilliseconds = DefaultTimeout)
    {
        var buffer = new byte[count];
        var clock = Stopwatch.StartNew();
        int read = 0;
        while (read < count)
        {
            int remaining = timeoutMilliseconds - (int)clock.ElapsedMilliseconds;
            if (remaining <= 0)
            {
                throw new TimeoutException($"Read {read} of {count} octets in {timeoutMilliseconds} ms.");
            }

            _socket.ReceiveTimeout = remaining;
            int n = _socket.Receive(buffer, read, count - read, SocketFlags.None);
            if (n == 0)
            {
                throw new EndOfStreamException($"Peer closed after {read} of {count} octets.");
            }

            read += n;
        }

        return buffer;
    }

    /// <summary>Reads one whole frame: (flags, body).</summary>
    public (byte Flags, byte[] Body) ReadFrame(int timeoutMilliseconds = DefaultTimeout)
    {
        var first = ReadExactly(2, timeoutMilliseconds);
        long size = first[1];
        if ((first[0] & ZmtpBytes.FlagLong) != 0)
        {
            var rest = ReadExactly(7, timeoutMilliseconds);
            Span<byte> eight = stackalloc byte[8];
            eight[0] = first[1];
            rest.CopyTo(eight[1..]);
            size = (long)BinaryPrimitives.ReadUInt64BigEndian(eight);
        }

        return (first[0], ReadExactly((int)size, timeoutMilliseconds));
    }

    /// <summary>Plays the NULL handshake as <paramref name="socketType"/>: greeting and READY both ways.</summary>
    public void CompleteNullHandshake(string socketType, byte minor = 1)
    {
        Send(ZmtpBytes.Concat(ZmtpBytes.Greeting(minor: minor), ZmtpBytes.Ready(socketType)));
        var greeting = ReadExactly(64);
        Assert.Equal(0xFF, greeting[0]);
        Assert.Equal(3, greeting[10]);
        var (flags, body) = ReadFrame();
        Assert.True((flags & ZmtpBytes.FlagCommand) != 0, "the peer's first frame after the greeting is a command");
        Assert.Equal("READY", System.Text.Encoding.ASCII.GetString(body, 1, body[0]));
    }

    /// <summary>
    /// Waits until the other side closes the connection (end of stream or reset), discarding
    /// whatever it sends meanwhile; false if it is still open at the deadline.
    /// </summary>
    public bool WaitUntilClosed(int timeoutMilliseconds = DefaultTimeout)
    {
        var buffer = new byte[4096];
        var clock = Stopwatch.StartNew();
        while (true)
        {
            int remaining = timeoutMilliseconds - (int)clock.ElapsedMilliseconds;
            if (remaining <= 0)
            {
                return false;
            }

            try
            {
                _socket.ReceiveTimeout = remaining;
                if (_socket.Receive(buffer) == 0)
                {
                    return true;
                }
            }
            catch (SocketException ex) when (ex.SocketErrorCode == SocketError.TimedOut || ex.SocketErrorCode == SocketError.WouldBlock)
            {
                return false;
            }
            catch (SocketException)
            {
                return true;
            }
        }
    }

    /// <summary>Closes with RST (linger 0), as a killed process would.</summary>
    public void Abort()
    {
        _socket.LingerState = new LingerOption(true, 0);
        _socket.Dispose();
    }

    public void Dispose() => _socket.Dispose();
}

/// <summary>A raw TCP listener on an ephemeral loopback port that plays the server side of ZMTP.</summary>
internal sealed class RawListener : IDisposable
{
    private readonly System.Net.Sockets.Socket _listener;

    public RawListener(int backlog = 16)
    {
        _listener = new System.Net.Sockets.Socket(AddressFamily.InterNetwork, System.Net.Sockets.SocketType.Stream, ProtocolType.Tcp);
        _listener.Bind(new IPEndPoint(IPAddress.Loopback, 0));
        _listener.Listen(backlog);
    }

    public int Port => ((IPEndPoint)_listener.LocalEndPoint!).Port;

    public string Endpoint => $"tcp://127.0.0.1:{Port}";

    /// <summary>The next connection, or a failed assertion if none arrives in time.</summary>
    public RawPeer Accept(int timeoutMilliseconds = RawPeer.DefaultTimeout)
    {
        Assert.True(_listener.Poll(timeoutMilliseconds * 1000, SelectMode.SelectRead), $"no connection within {timeoutMilliseconds} ms");
        return RawPeer.Wrap(_listener.Accept());
    }

    public void Dispose() => _listener.Dispose();
}
