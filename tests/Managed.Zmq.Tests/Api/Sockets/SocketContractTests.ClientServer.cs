namespace Managed.Zmq.Tests.Api.Sockets;

/// <summary>CLIENT and SERVER (RFC 41, libzmq's draft types): single-part messages, routing ids, libzmq's errors.</summary>
public abstract partial class SocketContractTests
{
    [Theory]
    [InlineData(true)]
    [InlineData(false)]
    public void ClientServer_Echo_ReplyReachesClientByRoutingId(bool serverBinds)
    {
        var (server, client) = serverBinds ? Pair(SocketType.Server, SocketType.Client) : Swap(Pair(SocketType.Client, SocketType.Server));
        using var message = new Message();

        for (int i = 0; i < 3; i++)
        {
            client.Send($"request {i}");
            server.Recv(message);
            Assert.Equal($"request {i}", message.ToString());
            Assert.False(message.More);
            uint routingId = message.RoutingId;
            Assert.NotEqual(0u, routingId);

            using var reply = new Message($"reply {i}");
            reply.RoutingId = routingId;
            server.Send(reply);
            Assert.Equal(0u, reply.RoutingId);
            Assert.Equal($"reply {i}", client.RecvString());
            Assert.False(client.HasMore);
        }
    }

    [Fact]
    public void Server_TwoClients_EachGetsItsOwnIdAndReplies()
    {
        var server = Create(SocketType.Server);
        string endpoint = Bind(server);
        var first = Create(SocketType.Client);
        var second = Create(SocketType.Client);
        first.Connect(endpoint);
        second.Connect(endpoint);

        first.Send("first");
        second.Send("second");
        var ids = new Dictionary<string, uint>();
        using var message = new Message();
        for (int i = 0; i < 2; i++)
        {
            server.Recv(message);
            ids[message.ToString()] = message.RoutingId;
        }

        Assert.NotEqual(ids["first"], ids["second"]);
        foreach (var (name, id) in ids)
        {
            using var reply = new Message("to " + name);
            reply.RoutingId = id;
            server.Send(reply);
        }

        Assert.Equal("to first", first.RecvString());
        Assert.Equal("to second", second.RecvString());
    }

    [Fact]
    public void Server_SendUnknownRoutingId_ThrowsEhostunreach()
    {
        var (server, client) = Pair(SocketType.Server, SocketType.Client);
        client.Send("hello");
        using var message = new Message();
        server.Recv(message);

        using var reply = new Message("lost");
        reply.RoutingId = message.RoutingId + 1;

        AssertZmqError(ZmqConstants.EHOSTUNREACH, () => server.Send(reply));
    }

    [Fact]
    public void Server_SendWithoutRoutingId_ThrowsEhostunreach()
    {
        var (server, _) = Pair(SocketType.Server, SocketType.Client);

        // A span carries no routing id: libzmq fails a SERVER send of a message whose routing id is 0 so.
        AssertZmqError(ZmqConstants.EHOSTUNREACH, () => server.Send("nobody"u8));
    }

    [Theory]
    [InlineData(SocketType.Server)]
    [InlineData(SocketType.Client)]
    public void ClientServer_SendMore_ThrowsEinval(SocketType type)
    {
        var (server, client) = Pair(SocketType.Server, SocketType.Client);
        var socket = type == SocketType.Server ? server : client;

        AssertZmqError(ZmqConstants.EINVAL, () => socket.Send("part"u8, SendFlags.SendMore));
    }

    [Fact]
    public void Client_SendMoreRefused_NextSingleStillDelivered()
    {
        var (server, client) = Pair(SocketType.Server, SocketType.Client);

        AssertZmqError(ZmqConstants.EINVAL, () => client.Send("part"u8, SendFlags.SendMore));
        client.Send("whole");

        Assert.Equal("whole", server.RecvString());
    }
}
