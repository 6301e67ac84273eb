using Managed.Zmq.Tests.Support;

namespace Managed.Zmq.Tests.Api.Sockets;

/// <summary>
/// What the thread-safe draft types (SERVER, CLIENT, PEER) answer differently from the classic ones, as libzmq's
/// draft build does: no Fd, <c>Has("draft")</c>, the routing id in the peer listing and in multipart receives.
/// </summary>
public sealed class ThreadSafeSocketTests : IDisposable
{
    private const int Timeout = 10_000;

    private readonly Context _context = new();
    private readonly List<Socket> _sockets = [];

    [Theory]
    [InlineData(SocketType.Server)]
    [InlineData(SocketType.Client)]
    [InlineData(SocketType.Peer)]
    public void GetOptionFd_ThreadSafeType_ThrowsEinval(SocketType type)
    {
        var socket = Create(type);

        // libzmq's getsockopt(ZMQ_FD) refuses a thread-safe socket: it has no descriptor to poll (zmq_poller polls it).
        var ex = Assert.Throws<ZmqException>(() => socket.GetOption<int>(SocketOption.Fd));
        Assert.Equal(ZmqConstants.EINVAL, ex.ErrorNumber);
        ex = Assert.Throws<ZmqException>(() => socket.GetOption(SocketOption.Fd, new byte[8]));
        Assert.Equal(ZmqConstants.EINVAL, ex.ErrorNumber);
    }

    [Theory]
    [InlineData(SocketType.Dealer)]
    [InlineData(SocketType.Router)]
    [InlineData(SocketType.Pair)]
    public void GetOptionFd_ClassicType_NonZero(SocketType type)
    {
        var socket = Create(type);

        Assert.NotEqual(0, socket.GetOption<int>(SocketOption.Fd));
    }

    [Theory]
    [InlineData(SocketType.Server)]
    [InlineData(SocketType.Peer)]
    public void Poller_ThreadSafeType_PolledBySocketNotFd(SocketType type)
    {
        // The way libzmq's zmq_poller polls a thread-safe socket: by the socket itself.
        var bound = Create(type);
        string endpoint = TestEndpoint.Bind(bound, Transport.Inproc, "ts-poll");
        var other = Create(type == SocketType.Server ? SocketType.Client : SocketType.Peer);
        if (type == SocketType.Peer)
        {
            using var hello = new Message("hello") { RoutingId = other.ConnectPeer(endpoint) };
            other.Send(hello);
        }
        else
        {
            other.Connect(endpoint);
            other.Send("hello");
        }

        using var poller = new Poller(1);
        int index = poller.Add(bound, PollEvents.In);

        Assert.Equal(1, poller.Poll(Timeout));
        Assert.True(poller.IsReadable(index));
    }

    [Fact]
    public void Has_Draft_TrueAsLibzmqBuiltWithDrafts()
    {
        Assert.True(Context.Has("draft"));
    }

    [Theory]
    [InlineData("ws", "ws://127.0.0.1:*/has")]
    [InlineData("wss", "wss://127.0.0.1:*/has")]
    public void Has_WebSocketTransports_AgreesWithBind(string capability, string endpoint)
    {
        var socket = Create(SocketType.Pair);
        int error = 0;
        try
        {
            socket.Bind(endpoint);
        }
        catch (ZmqException ex)
        {
            error = ex.ErrorNumber;
        }

        // Whatever else a bind may need (wss: a certificate), only a missing transport answers EPROTONOSUPPORT.
        Assert.Equal(error != ZmqConstants.EPROTONOSUPPORT, Context.Has(capability));
    }

    [Theory]
    [TransportCases]
    public void GetPeers_Server_MessageRoutingIdIsTheIdReceivedMessagesCarry(Transport transport)
    {
        var server = Create(SocketType.Server);
        string endpoint = TestEndpoint.Bind(server, transport, "ts-peers");
        var first = Create(SocketType.Client);
        var second = Create(SocketType.Client);
        first.Connect(endpoint);
        second.Connect(endpoint);
        first.Send("first");
        second.Send("second");

        var ids = new HashSet<uint>();
        using var message = new Message();
        for (int i = 0; i < 2; i++)
        {
            server.Recv(message);
            ids.Add(message.RoutingId);
        }

        var listed = server.GetPeers().Select(p => p.MessageRoutingId).ToHashSet();
        Assert.Equal(ids, listed);

        // The other socket types list 0.
        Assert.All(first.GetPeers(), p => Assert.Equal(0u, p.MessageRoutingId));
    }

    [Theory]
    [TransportCases]
    public void GetPeers_Peer_ListsConnectPeerIdAndAcceptedId(Transport transport)
    {
        var bound = Create(SocketType.Peer);
        string endpoint = TestEndpoint.Bind(bound, transport, "ts-peers-peer");
        var connecting = Create(SocketType.Peer);
        uint id = connecting.ConnectPeer(endpoint);
        using (var hello = new Message("hello") { RoutingId = id })
        {
            connecting.Send(hello);
        }

        using var received = new Message();
        bound.Recv(received);

        var connectingPeer = Assert.Single(connecting.GetPeers());
        Assert.Equal(id, connectingPeer.MessageRoutingId);
        Assert.Equal(SocketType.Peer, connectingPeer.PeerSocketType);
        var boundPeer = Assert.Single(bound.GetPeers());
        Assert.Equal(received.RoutingId, boundPeer.MessageRoutingId);
        Assert.True(boundPeer.RoutingId.IsEmpty);
    }

    [Theory]
    [TransportCases]
    public async Task RecvMultipartAsync_ServerAndPeer_OneFrameCarriesRoutingId(Transport transport)
    {
        var server = Create(SocketType.Server);
        var client = Create(SocketType.Client);
        client.Connect(TestEndpoint.Bind(server, transport, "ts-async"));
        client.Send("request");

        using (var request = await server.RecvMultipartAsync().AsTask().WaitAsync(TimeSpan.FromMilliseconds(Timeout)))
        {
            var frame = Assert.Single(request);
            Assert.Equal("request", frame.ToString());
            Assert.NotEqual(0u, frame.RoutingId);
            using var reply = new Message("reply") { RoutingId = frame.RoutingId };
            server.Send(reply);
        }

        // A CLIENT's messages carry no id (libzmq sets one only on what SERVER and PEER receive).
        using (var reply = await client.RecvMultipartAsync().AsTask().WaitAsync(TimeSpan.FromMilliseconds(Timeout)))
        {
            Assert.Equal("reply", Assert.Single(reply).ToString());
            Assert.Equal(0u, reply.First.RoutingId);
        }

        var bound = Create(SocketType.Peer);
        var connecting = Create(SocketType.Peer);
        uint id = connecting.ConnectPeer(TestEndpoint.Bind(bound, transport, "ts-async-peer"));
        using (var hello = new Message("hello") { RoutingId = id })
        {
            connecting.Send(hello);
        }

        using var received = await bound.RecvMultipartAsync().AsTask().WaitAsync(TimeSpan.FromMilliseconds(Timeout));
        using var answer = new Message("answer") { RoutingId = Assert.Single(received).RoutingId };
        Assert.NotEqual(0u, answer.RoutingId);
        bound.Send(answer);
        using var back = await connecting.RecvMultipartAsync().AsTask().WaitAsync(TimeSpan.FromMilliseconds(Timeout));
        Assert.Equal("answer", back.First.ToString());
        Assert.Equal(id, back.First.RoutingId);
    }

    [Theory]
    [TransportCases]
    public async Task SendMultipartAsync_PeerOneFrameWithRoutingId_ReachesThatPeer(Transport transport)
    {
        var bound = Create(SocketType.Peer);
        var connecting = Create(SocketType.Peer);
        uint id = connecting.ConnectPeer(TestEndpoint.Bind(bound, transport, "ts-async-send"));
        using (var hello = new MultipartMessage())
        {
            hello.Add(new Message("hello") { RoutingId = id });
            await connecting.SendMultipartAsync(hello).AsTask().WaitAsync(TimeSpan.FromMilliseconds(Timeout));

            // Sent as Send(Message) leaves a message: empty, its routing id 0.
            Assert.Equal(0u, hello.First.RoutingId);
        }

        using var received = new Message();
        bound.Recv(received);
        Assert.Equal("hello", received.ToString());
        using var answer = new MultipartMessage();
        answer.Add(new Message("answer") { RoutingId = received.RoutingId });
        await bound.SendMultipartAsync(answer).AsTask().WaitAsync(TimeSpan.FromMilliseconds(Timeout));
        connecting.Recv(received);
        Assert.Equal("answer", received.ToString());
        Assert.Equal(id, received.RoutingId);
    }

    [Fact]
    public void RecvMultipart_Peer_OneFrameCarriesRoutingId()
    {
        var bound = Create(SocketType.Peer);
        var connecting = Create(SocketType.Peer);
        uint id = connecting.ConnectPeer(TestEndpoint.Bind(bound, Transport.Inproc, "ts-multipart"));
        using (var hello = new Message("hello") { RoutingId = id })
        {
            connecting.Send(hello);
        }

        using var received = bound.RecvMultipart();
        using var answer = new Message("answer") { RoutingId = Assert.Single(received).RoutingId };
        bound.Send(answer);
        using var back = connecting.RecvMultipart();

        Assert.Equal(id, Assert.Single(back).RoutingId);
    }

    private Socket Create(SocketType type)
    {
        var socket = new Socket(_context, type);
        _sockets.Add(socket);
        socket.SetOption(SocketOption.Linger, 0);
        socket.SetOption(SocketOption.Rcvtimeo, Timeout);
        socket.SetOption(SocketOption.Sndtimeo, Timeout);
        return socket;
    }

    public void Dispose()
    {
        foreach (var socket in _sockets)
        {
            socket.Dispose();
        }

        _context.Dispose();
    }
}
