using System.Net;
using System.Net.Sockets;

namespace Managed.Zmq.InteropTests.Infrastructure;

/// <summary>A plain TCP socket that plays a ZMTP peer, byte by byte, against an end of either library.</summary>
internal static class RawTcpPeer
{
    /// <summary>A ZMTP 3.0 greeting offering NULL as server 0 (RFC 23).</summary>
    public static readonly byte[] NullGreeting =
        [0xFF, 0, 0, 0, 0, 0, 0, 0, 0, 0x7F, 3, 0, .. "NULL"u8, .. new byte[16], 0, .. new byte[31]];

    /// <summary>
    /// A raw socket joined to <paramref name="socket"/>: connected to the ephemeral tcp endpoint it binds, or accepted
    /// from its connect when it does not bind.
    /// </summary>
    public static System.Net.Sockets.Socket Attach(IEnd socket, bool socketBinds)
    {
        if (socketBinds)
        {
            string endpoint = socket.BindEphemeral();
            var raw = new System.Net.Sockets.Socket(AddressFamily.InterNetwork, System.Net.Sockets.SocketType.Stream, ProtocolType.Tcp);
            raw.Connect(IPEndPoint.Parse(endpoint["tcp://".Length..]));
            return raw;
        }

        using var listener = new TcpListener(IPAddress.Loopback, 0);
        listener.Start();
        socket.Connect($"tcp://127.0.0.1:{((IPEndPoint)listener.LocalEndpoint).Port}");
        var accepted = listener.AcceptSocketAsync();
        Assert.True(accepted.Wait(Timeouts.Settle), "the socket did not connect");
        return accepted.Result;
    }

    /// <summary>Reads exactly <paramref name="count"/> octets within <see cref="Timeouts.Io"/>; fails with <paramref name="closedEarly"/> if the end closes first.</summary>
    public static byte[] ReadExactly(System.Net.Sockets.Socket raw, int count, string closedEarly)
    {
        raw.ReceiveTimeout = (int)Timeouts.Io.TotalMilliseconds;
        var buffer = new byte[count];
        for (int read = 0; read < count;)
        {
            int n = raw.Receive(buffer, read, count - read, SocketFlags.None);
            Assert.True(n > 0, closedEarly);
            read += n;
        }

        return buffer;
    }
}
