namespace Managed.Zmq.Tests.Api.Security;

/// <summary>
/// The ready-made ZAP handler with real servers and clients over tcp: who gets through, who is
/// refused (seen as libzmq's HANDSHAKE_FAILED_AUTH event with the ZAP status), and its lifecycle.
/// </summary>
public sealed class ZapAuthenticatorTests
{
    private const int HandshakeFailedAuth = 0x4000;
    private static readonly TimeSpan Deadline = TimeSpan.FromSeconds(10);

    [Fact]
    public void Plain_RightPasswordDelivers_WrongPasswordIsRefusedWith400()
    {
        using var context = new Context();
        using var auth = new ZapAuthenticator(context);
        auth.ConfigurePlain("*", new Dictionary<string, string> { ["admin"] = "secret" });
        using var server = new GuardedServer(context, s => s.SetOption(SocketOption.Plain_Server, 1));

        using (var good = server.Connect(c => Plain(c, "admin", "secret")))
        {
            Assert.Equal("hello", server.Deliver(good));
        }

        using var bad = server.Connect(c => Plain(c, "admin", "guess"));
        Assert.Equal(400, server.WaitForEvent(HandshakeFailedAuth));
    }

    [Fact]
    public void Curve_AllowedKeyDelivers_UnknownKeyIsRefused()
    {
        using var context = new Context();
        using var auth = new ZapAuthenticator(context);
        var (serverPublic, serverSecret) = Curve.GenerateKeypair();
        var (allowedPublic, allowedSecret) = Curve.GenerateKeypair();
        var (otherPublic, otherSecret) = Curve.GenerateKeypair();
        auth.ConfigureCurve("*", allowedPublic);
        using var server = new GuardedServer(context, s => CurveServer(s, serverPublic, serverSecret));

        using (var allowed = server.Connect(c => CurveClient(c, serverPublic, allowedPublic, allowedSecret)))
        {
            Assert.Equal("hello", server.Deliver(allowed));
        }

        using var other = server.Connect(c => CurveClient(c, serverPublic, otherPublic, otherSecret));
        Assert.Equal(400, server.WaitForEvent(HandshakeFailedAuth));
    }

    [Fact]
    public void Curve_AllowAny_DeliversFromAnyKey()
    {
        using var context = new Context();
        using var auth = new ZapAuthenticator(context);
        var (serverPublic, serverSecret) = Curve.GenerateKeypair();
        var (clientPublic, clientSecret) = Curve.GenerateKeypair();
        auth.ConfigureCurveAllowAny();
        using var server = new GuardedServer(context, s => CurveServer(s, serverPublic, serverSecret));

        using var client = server.Connect(c => CurveClient(c, serverPublic, clientPublic, clientSecret));

        Assert.Equal("hello", server.Deliver(client));
    }

    [Fact]
    public void Null_WithZapDomain_DeniedAddressIsRefusedAndAllowListAdmits()
    {
        using var context = new Context();
        using var auth = new ZapAuthenticator(context);
        auth.Deny("127.0.0.1");
        using var server = new GuardedServer(context, s => s.SetOption(SocketOption.Zap_Domain, "global"));

        using (var refused = server.Connect(_ => { }))
        {
            Assert.Equal(400, server.WaitForEvent(HandshakeFailedAuth));
        }

        auth.Allow("127.0.0.1");
        using var admitted = server.Connect(_ => { });
        Assert.Equal("hello", server.Deliver(admitted));
    }

    [Fact]
    public void Constructor_SecondAuthenticatorOnOneContext_ThrowsEaddrinuseUntilTheFirstIsDisposed()
    {
        using var context = new Context();
        var first = new ZapAuthenticator(context);

        var error = Assert.Throws<ZmqException>(() => new ZapAuthenticator(context));
        Assert.Equal(ZmqConstants.EADDRINUSE, error.ErrorNumber);

        first.Dispose();
        first.Dispose();
        using var second = new ZapAuthenticator(context);
    }

    [Fact]
    public async Task Dispose_ContextDisposedFirst_NeitherHangs()
    {
        var context = new Context();
        var auth = new ZapAuthenticator(context);

        var both = Task.Run(() =>
        {
            context.Dispose();
            auth.Dispose();
        });

        // A TimeoutException here means one of the two disposals hung.
        await both.WaitAsync(Deadline);
    }

    [Fact]
    public async Task Dispose_ContextAtItsSocketLimit_Returns()
    {
        // The application filled the context after the authenticator started: stopping it must need no new socket.
        // Not disposed by a using: if Dispose hung, the authenticator's sockets stay open and so would the context's Dispose.
        var context = new Context(ioThreads: 1, maxSockets: 16);
        var auth = new ZapAuthenticator(context);
        var filling = new List<Socket>();
        try
        {
            while (true)
            {
                filling.Add(new Socket(context, SocketType.Pair));
            }
        }
        catch (ZmqException full) when (full.ErrorNumber == ZmqConstants.EMFILE)
        {
            // The context is at its limit.
        }

        // A TimeoutException here means Dispose hung.
        await Task.Run(auth.Dispose).WaitAsync(Deadline);
        filling.ForEach(socket => socket.Dispose());
        await Task.Run(context.Dispose).WaitAsync(Deadline);
    }

    [Fact]
    public async Task Constructor_ContextWithoutRoomForItsSockets_ThrowsEmfileAndKeepsNone()
    {
        var context = new Context(ioThreads: 1, maxSockets: 2);

        var error = Assert.Throws<ZmqException>(() => new ZapAuthenticator(context));

        Assert.Equal(ZmqConstants.EMFILE, error.ErrorNumber);
        await Task.Run(context.Dispose).WaitAsync(Deadline);
    }

    [Fact]
    public void Dispose_RequestAlreadySent_IsAnsweredNotDropped()
    {
        using var context = new Context();
        var auth = new ZapAuthenticator(context);
        using var requester = new Socket(context, SocketType.Req);
        requester.SetOption(SocketOption.Linger, 0);
        requester.SetOption(SocketOption.Rcvtimeo, (int)Deadline.TotalMilliseconds);
        requester.Connect(ZapAuthenticator.Endpoint);

        requester.SendMultipart("1.0", "7", "", "127.0.0.1", "", "NULL");
        auth.Dispose();

        // Answered by the policy (200) or, if the stop came first, refused with 500: never left waiting.
        using var reply = requester.RecvMultipart();
        Assert.Equal(6, reply.Count);
        Assert.Equal("7", reply[1].ToString());
        Assert.Contains(reply[2].ToString(), new[] { "200", "500" });
    }

    [Fact]
    public void Configure_BadArguments_Throw()
    {
        using var context = new Context();
        using var auth = new ZapAuthenticator(context);

        Assert.Throws<ArgumentNullException>(() => new ZapAuthenticator(null!));
        Assert.Throws<ArgumentNullException>(() => auth.ConfigurePlain(null!, new Dictionary<string, string>()));
        Assert.Throws<ArgumentNullException>(() => auth.ConfigurePlain("*", null!));
        Assert.Throws<ArgumentException>(() => auth.ConfigurePlain("*", new Dictionary<string, string> { ["admin"] = null! }));
        Assert.Throws<ArgumentException>(() => auth.ConfigureCurve("*", "too-short"));
        Assert.Throws<ArgumentNullException>(() => auth.Allow(null!));
        Assert.Throws<ArgumentNullException>(() => auth.Deny("127.0.0.1", null!));
    }

    private static void Plain(Socket client, string user, string password)
    {
        client.SetOption(SocketOption.Plain_Username, user);
        client.SetOption(SocketOption.Plain_Password, password);
    }

    private static void CurveServer(Socket server, string publicKey, string secretKey)
    {
        server.SetOption(SocketOption.Curve_Server, 1);
        server.SetOption(SocketOption.Curve_Publickey, publicKey);
        server.SetOption(SocketOption.Curve_Secretkey, secretKey);
    }

    private static void CurveClient(Socket client, string serverKey, string publicKey, string secretKey)
    {
        client.SetOption(SocketOption.Curve_Serverkey, serverKey);
        client.SetOption(SocketOption.Curve_Publickey, publicKey);
        client.SetOption(SocketOption.Curve_Secretkey, secretKey);
    }

    /// <summary>A PULL server on an ephemeral tcp port with its monitor, in the authenticator's context.</summary>
    private sealed class GuardedServer : IDisposable
    {
        private readonly Context _context;
        private readonly Socket _server;
        private readonly Socket _monitor;
        private readonly string _endpoint;

        public GuardedServer(Context context, Action<Socket> configure)
        {
            _context = context;
            _server = new Socket(context, SocketType.Pull);
            _server.SetOption(SocketOption.Linger, 0);
            _server.SetOption(SocketOption.Rcvtimeo, (int)Deadline.TotalMilliseconds);
            configure(_server);
            string monitorEndpoint = TestEndpoint.Inproc("zap-auth-monitor");
            _server.Monitor(monitorEndpoint, SocketMonitorEvent.All);
            _monitor = new Socket(context, SocketType.Pair);
            _monitor.SetOption(SocketOption.Linger, 0);
            _monitor.SetOption(SocketOption.Rcvtimeo, (int)Deadline.TotalMilliseconds);
            _monitor.Connect(monitorEndpoint);
            _server.Bind("tcp://127.0.0.1:*");
            _endpoint = _server.GetOptionString(SocketOption.Last_Endpoint);
        }

        public Socket Connect(Action<Socket> configure)
        {
            var client = new Socket(_context, SocketType.Push);
            client.SetOption(SocketOption.Linger, 0);
            configure(client);
            client.Connect(_endpoint);
            return client;
        }

        /// <summary>Sends "hello" from <paramref name="client"/> and returns what the server received.</summary>
        public string Deliver(Socket client)
        {
            client.Send("hello");
            return _server.RecvString();
        }

        /// <summary>
        /// The value of the next monitor event <paramref name="wanted"/>, passing over the others (an
        /// earlier client's handshake, connects, accepts); fails after the deadline.
        /// </summary>
        public int WaitForEvent(int wanted)
        {
            var frame = new byte[6];
            var address = new byte[256];
            while (true)
            {
                _monitor.Recv(frame);
                _monitor.Recv(address);
                if (BitConverter.ToUInt16(frame, 0) == wanted)
                {
                    return BitConverter.ToInt32(frame, 2);
                }
            }
        }

        public void Dispose()
        {
            _monitor.Dispose();
            _server.Dispose();
        }
    }
}
