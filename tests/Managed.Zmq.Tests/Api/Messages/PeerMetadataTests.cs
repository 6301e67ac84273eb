using System.Text;
using Managed.Zmq.Wire;

namespace Managed.Zmq.Tests.Api.Messages;

/// <summary>
/// <see cref="Message.GetMetadata"/> on received frames, per transport, as libzmq 4.3's zmq_msg_gets answers
/// (checked against libzmq 4.3.4 through pyzmq): tcp gives the numeric peer IP, ipc gives
/// <c>localhost:uid:gid:pid</c>, inproc gives no metadata at all; ZAP's user id and metadata beat the peer's.
/// </summary>
public sealed class PeerMetadataTests : TransportSockets
{
    [Fact]
    public void GetMetadata_TcpRouterFromDealer_SocketTypeIdentityAndPeerAddress()
    {
        var (router, dealer) = RouterAndDealer("tcp://127.0.0.1:*");

        dealer.Send("hello");
        using var frames = router.RecvMultipart();

        foreach (Message frame in frames)
        {
            Assert.Equal("DEALER", frame.GetMetadata("Socket-Type"));
            Assert.Equal("DEALER", frame.GetMetadata("socket-type"));
            Assert.Equal("cid", frame.GetMetadata("Identity"));
            Assert.Equal("cid", frame.GetMetadata("Routing-Id"));
            Assert.Equal("127.0.0.1", frame.GetMetadata("Peer-Address"));
            Assert.Null(frame.GetMetadata("User-Id"));
            Assert.Null(frame.GetMetadata("X-Absent"));
        }
    }

    [Fact]
    public void GetMetadata_TcpDealerFromRouter_RouterSocketTypeAndAddress()
    {
        var (router, dealer) = RouterAndDealer("tcp://127.0.0.1:*");
        dealer.Send("hello");
        using (router.RecvMultipart())
        {
        }

        router.Send("cid", SendFlags.SendMore);
        router.Send("back");
        using var reply = new Message();
        dealer.Recv(reply);

        Assert.Equal("ROUTER", reply.GetMetadata("Socket-Type"));
        Assert.Equal("127.0.0.1", reply.GetMetadata("Peer-Address"));
    }

    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    public void GetMetadata_MetadataOptionOverTcp_PeerSeesApplicationPropertiesBothWays(bool plain)
    {
        // PLAIN needs a ZAP handler on the server's side, as in libzmq 4.3.
        using var auth = plain ? new ZapAuthenticator(Context) : null;
        auth?.ConfigurePlain("*", new Dictionary<string, string> { ["user"] = "password" });
        var router = Create(SocketType.Router);
        var dealer = Create(SocketType.Dealer);
        router.SetOption(SocketOption.Metadata, "X-Side:router");
        dealer.SetOption(SocketOption.Metadata, "X-Side:dealer");
        dealer.SetOption(SocketOption.Metadata, "X-Side:ignored"); // a name keeps its first value, as in libzmq
        dealer.SetOption(SocketOption.Metadata, "X-Colon:a:b");
        dealer.SetOption(SocketOption.Routing_Id, "cid");
        if (plain)
        {
            router.SetOption(SocketOption.Plain_Server, 1);
            dealer.SetOption(SocketOption.Plain_Username, "user");
            dealer.SetOption(SocketOption.Plain_Password, "password");
        }

        router.Bind("tcp://127.0.0.1:*");
        dealer.Connect(router.GetOptionString(SocketOption.Last_Endpoint));

        dealer.Send("hello");
        using var frames = router.RecvMultipart();
        router.Send("cid", SendFlags.SendMore);
        router.Send("back");
        using var reply = new Message();
        dealer.Recv(reply);

        Assert.Equal("dealer", frames[1].GetMetadata("X-Side"));
        Assert.Equal("dealer", frames[1].GetMetadata("x-side"));
        Assert.Equal("a:b", frames[1].GetMetadata("X-Colon"));
        Assert.Equal("DEALER", frames[1].GetMetadata("Socket-Type"));
        Assert.Equal("router", reply.GetMetadata("X-Side"));
        Assert.Null(reply.GetMetadata("X-Colon"));
    }

    [Fact]
    public void GetMetadata_Ipc_PeerAddressIsLocalhostAndCredentials()
    {
        var (router, dealer) = RouterAndDealer("ipc://" + TestEndpoint.IpcPath("meta"));

        dealer.Send("hello");
        using var frames = router.RecvMultipart();

        // libzmq on Linux: getnameinfo's "localhost" for AF_UNIX, then SO_PEERCRED's ":uid:gid:pid".
        string? address = frames[1].GetMetadata("Peer-Address");
        Assert.NotNull(address);
        string[] parts = address.Split(':');
        Assert.Equal(4, parts.Length);
        Assert.Equal("localhost", parts[0]);
        Assert.True(uint.TryParse(parts[1], out _), address);
        Assert.True(uint.TryParse(parts[2], out _), address);
        Assert.Equal(Environment.ProcessId.ToString(System.Globalization.CultureInfo.InvariantCulture), parts[3]);
        Assert.Equal("DEALER", frames[1].GetMetadata("Socket-Type"));
    }

    [Fact]
    public void GetMetadata_Inproc_NoMetadata()
    {
        var (router, dealer) = RouterAndDealer(TestEndpoint.Inproc("meta"));

        dealer.Send("hello");
        using var frames = router.RecvMultipart();

        foreach (Message frame in frames)
        {
            Assert.Null(frame.GetMetadata("Socket-Type"));
            Assert.Null(frame.GetMetadata("Peer-Address"));
            Assert.Null(frame.GetMetadata("Identity"));
        }
    }

    [Fact]
    public void GetMetadata_ZapHandlerRepliesUserIdAndMetadata_UserIdAndZapMetadataOnEveryFrame()
    {
        using var zap = new ScriptedZapHandler(Context, "alice", ("X-Role", "admin"), ("User-Id", "ignored"));
        var pull = Create(SocketType.Pull);
        pull.SetOption(SocketOption.Zap_Domain, "test");
        pull.Bind("tcp://127.0.0.1:*");
        var push = Create(SocketType.Push);
        push.Connect(pull.GetOptionString(SocketOption.Last_Endpoint));

        push.Send("a", SendFlags.SendMore);
        push.Send("b");
        using var frames = pull.RecvMultipart();

        Assert.Equal(2, frames.Count);
        foreach (Message frame in frames)
        {
            // libzmq: the reply's user id frame comes before its metadata frame, so "User-Id" there is ignored.
            Assert.Equal("alice", frame.GetMetadata("User-Id"));
            Assert.Equal("admin", frame.GetMetadata("X-Role"));
            Assert.Equal("PUSH", frame.GetMetadata("Socket-Type"));
            Assert.Equal("127.0.0.1", frame.GetMetadata("Peer-Address"));
        }

        Assert.Equal("127.0.0.1", zap.LastAddress);
    }

    [Fact]
    public async Task GetMetadata_RecvMultipartAsync_FramesCarryMetadata()
    {
        var (router, dealer) = RouterAndDealer("tcp://127.0.0.1:*");

        dealer.Send("hello");
        using var cancel = new CancellationTokenSource(TimeSpan.FromSeconds(Timeout / 1000));
        using var frames = await router.RecvMultipartAsync(cancel.Token);

        Assert.Equal("DEALER", frames[0].GetMetadata("Socket-Type"));
        Assert.Equal("DEALER", frames[1].GetMetadata("Socket-Type"));
    }

    [Fact]
    public void GetMetadata_AfterCopyMoveAndRebuild_FollowsLibzmqMessageRules()
    {
        var (router, dealer) = RouterAndDealer("tcp://127.0.0.1:*");
        dealer.Send("hello");
        using var frames = router.RecvMultipart();
        using var copy = new Message();
        using var moved = new Message();

        copy.Copy(frames[1]);
        moved.Move(frames[1]);

        // zmq_msg_copy shares the metadata; zmq_msg_move takes it; zmq_msg_init leaves none.
        Assert.Equal("DEALER", copy.GetMetadata("Socket-Type"));
        Assert.Equal("DEALER", moved.GetMetadata("Socket-Type"));
        Assert.Null(frames[1].GetMetadata("Socket-Type"));
        moved.Rebuild();
        Assert.Null(moved.GetMetadata("Socket-Type"));
    }

    [Fact]
    public void GetMetadata_SentThenReused_MetadataCleared()
    {
        var (router, dealer) = RouterAndDealer("tcp://127.0.0.1:*");
        dealer.Send("hello");
        using var frames = router.RecvMultipart();
        Message body = frames[1];

        router.Send("cid", SendFlags.SendMore);
        router.Send(body);

        Assert.Null(body.GetMetadata("Socket-Type"));
    }

    private (Socket Router, Socket Dealer) RouterAndDealer(string endpoint)
    {
        var router = Create(SocketType.Router);
        router.Bind(endpoint);
        var dealer = Create(SocketType.Dealer);
        dealer.SetOption(SocketOption.Routing_Id, "cid"u8.ToArray());
        dealer.Connect(router.GetOptionString(SocketOption.Last_Endpoint));
        return (router, dealer);
    }

    /// <summary>A ZAP handler (RFC 27) at inproc://zeromq.zap.01 that accepts everyone with fixed answers.</summary>
    private sealed class ScriptedZapHandler : IDisposable
    {
        private const int StopCheckMilliseconds = 50;

        private readonly Socket _socket;
        private readonly Thread _thread;
        private readonly string _userId;
        private readonly byte[] _metadata;
        private volatile string? _lastAddress;
        private volatile bool _stop;

        public ScriptedZapHandler(Context context, string userId, params (string Name, string Value)[] metadata)
        {
            _userId = userId;
            _metadata = Encode(metadata);
            _socket = new Socket(context, SocketType.Rep);
            _socket.SetOption(SocketOption.Linger, 0);

            // A short receive timeout only so that the handler notices Dispose; requests are answered at once.
            _socket.SetOption(SocketOption.Rcvtimeo, StopCheckMilliseconds);
            _socket.Bind("inproc://zeromq.zap.01");
            _thread = new Thread(Serve) { IsBackground = true, Name = "test ZAP handler" };
            _thread.Start();
        }

        public string? LastAddress => _lastAddress;

        public void Dispose()
        {
            _stop = true;
            Assert.True(_thread.Join(TimeSpan.FromSeconds(Timeout / 1000)), "the ZAP handler thread did not end");
            _socket.Dispose();
        }

        private static byte[] Encode((string Name, string Value)[] properties)
        {
            var buffer = new List<byte>();
            foreach (var (name, value) in properties)
            {
                byte[] nameBytes = Encoding.ASCII.GetBytes(name);
                byte[] valueBytes = Encoding.UTF8.GetBytes(value);
                byte[] property = new byte[ZmtpMetadata.GetPropertyLength(nameBytes.Length, valueBytes.Length)];
                ZmtpMetadata.WriteProperty(property, nameBytes, valueBytes);
                buffer.AddRange(property);
            }

            return [.. buffer];
        }

        private void Serve()
        {
            while (!_stop)
            {
                var request = new List<byte[]>();
                using (var first = new Message())
                {
                    try
                    {
                        _socket.Recv(first);
                    }
                    catch (ZmqException ex) when (ex.ErrorNumber == ZmqConstants.EAGAIN)
                    {
                        continue;
                    }

                    request.Add(first.ToArray());
                }

                while (_socket.HasMore)
                {
                    request.Add(_socket.RecvBytes());
                }

                _lastAddress = Encoding.UTF8.GetString(request[3]);
                _socket.Send(request[0], SendFlags.SendMore);
                _socket.Send(request[1], SendFlags.SendMore);
                _socket.Send("200", SendFlags.SendMore);
                _socket.Send("OK", SendFlags.SendMore);
                _socket.Send(_userId, SendFlags.SendMore);
                _socket.Send(_metadata);
            }
        }
    }
}
