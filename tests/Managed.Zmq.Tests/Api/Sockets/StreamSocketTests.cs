using System.Net;
using System.Net.Sockets;
using System.Text;

namespace Managed.Zmq.Tests.Api.Sockets;

/// <summary>STREAM talks to raw TCP peers: [id][bytes] both ways, [id][empty] for connect, disconnect and close.</summary>
public sealed class StreamSocketTests
{
    [Fact]
    public void Stream_RawTcpClient_NotifiesExchangesAndCloses()
    {
        using var context = new Context();
        using var stream = new Managed.Zmq.Socket(context, Managed.Zmq.SocketType.Stream);
        stream.SetOption(SocketOption.Rcvtimeo, 5_000);
        stream.SetOption(SocketOption.Linger, 0);
        stream.Bind("tcp://127.0.0.1:*");
        int port = int.Parse(stream.GetOptionString(SocketOption.Last_Endpoint).Split(':')[2]);

        using var client = new System.Net.Sockets.Socket(AddressFamily.InterNetwork, System.Net.Sockets.SocketType.Stream, ProtocolType.Tcp);
        client.ReceiveTimeout = 5_000;
        client.Connect(new IPEndPoint(IPAddress.Loopback, port));

        // Connect notification: [id][empty].
        byte[] id = stream.RecvBytes();
        Assert.True(stream.HasMore);
        Assert.Empty(stream.RecvBytes());

        client.Send("hello"u8);
        Assert.Equal(id, stream.RecvBytes());
        Assert.Equal("hello", stream.RecvString());

        stream.Send(id, SendFlags.SendMore);
        stream.Send("world");
        var buffer = new byte[16];
        int read = client.Receive(buffer);
        Assert.Equal("world", Encoding.ASCII.GetString(buffer, 0, read));

        // An empty frame closes that connection: the client reads end of stream.
        stream.Send(id, SendFlags.SendMore);
        stream.Send(Array.Empty<byte>());
        Assert.Equal(0, client.Receive(buffer));
    }

    [Fact]
    public void Stream_UnknownId_HostUnreachable()
    {
        using var context = new Context();
        using var stream = new Managed.Zmq.Socket(context, Managed.Zmq.SocketType.Stream);
        stream.SetOption(SocketOption.Linger, 0);

        var error = Assert.Throws<ZmqException>(() => stream.Send(new byte[] { 0, 1, 2, 3, 4 }, SendFlags.SendMore));

        Assert.Equal(ZmqConstants.EHOSTUNREACH, error.ErrorNumber);
    }

    [Fact]
    public void Stream_PeerDisconnects_EmptyNotificationFollows()
    {
        using var context = new Context();
        using var stream = new Managed.Zmq.Socket(context, Managed.Zmq.SocketType.Stream);
        stream.SetOption(SocketOption.Rcvtimeo, 5_000);
        stream.SetOption(SocketOption.Linger, 0);
        stream.Bind("tcp://127.0.0.1:*");
        int port = int.Parse(stream.GetOptionString(SocketOption.Last_Endpoint).Split(':')[2]);

        var client = new System.Net.Sockets.Socket(AddressFamily.InterNetwork, System.Net.Sockets.SocketType.Stream, ProtocolType.Tcp);
        client.Connect(new IPEndPoint(IPAddress.Loopback, port));
        byte[] id = stream.RecvBytes();
        stream.RecvBytes();
        client.Dispose();

        Assert.Equal(id, stream.RecvBytes());
        Assert.Empty(stream.RecvBytes());
        Assert.False(stream.HasMore);
    }
}
