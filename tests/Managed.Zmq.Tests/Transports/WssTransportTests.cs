using Managed.Zmq.Tests.Support;

namespace Managed.Zmq.Tests.Transports;

/// <summary>
/// wss:// between our own sockets: ZWS 2.0 over TLS with certificates made at test time, each
/// mechanism over it, and what libzmq does when the options are missing or the server's certificate
/// is not to be trusted (the connection ends with HANDSHAKE_FAILED_NO_DETAIL, nothing is thrown on
/// the user's thread, nothing is reported as an internal error).
/// </summary>
public sealed partial class WssTransportTests : IDisposable
{
    private const int Timeout = 20_000;
    private const string ServerName = "server.zmq.test";

    private readonly Context _context = new();
    private readonly TestCertificates _authority = TestCertificates.CreateAuthority();
    private readonly List<Socket> _sockets = [];

    public void Dispose()
    {
        foreach (var socket in _sockets)
        {
            socket.Dispose();
        }

        _authority.Dispose();
        _context.Dispose();
    }

    private Socket Open(SocketType type)
    {
        var socket = new Socket(_context, type);
        socket.SetOption(SocketOption.Linger, 0);
        socket.SetOption(SocketOption.Rcvtimeo, Timeout);
        socket.SetOption(SocketOption.Sndtimeo, Timeout);
        _sockets.Add(socket);
        return socket;
    }

    /// <summary>A server socket bound on wss:// with a leaf of <paramref name="issuer"/>; returns its endpoint.</summary>
    private string BindServer(Socket server, TestCertificates? issuer = null, string name = ServerName, bool expired = false)
    {
        var leaf = (issuer ?? _authority).IssueServer(name, expired);
        server.SetOption(SocketOption.Wss_Cert_Pem, leaf.CertificatePem);
        server.SetOption(SocketOption.Wss_Key_Pem, leaf.KeyPem);
        server.Bind("wss://127.0.0.1:*/zmq");
        return server.GetOptionString(SocketOption.Last_Endpoint);
    }

    private void TrustAuthority(Socket client, string? hostname = ServerName)
    {
        client.SetOption(SocketOption.Wss_Trust_Pem, _authority.CaPem);
        if (hostname is not null)
        {
            client.SetOption(SocketOption.Wss_Hostname, hostname);
        }
    }

    private static void AssertRoundTrip(Socket client, Socket server)
    {
        client.Send("over wss");
        Assert.Equal("over wss", server.RecvString());
        server.Send("and back");
        Assert.Equal("and back", client.RecvString());
    }

    [Fact]
    public void Connect_TrustedCertificateAndHostname_CarriesRequestsAndReplies()
    {
        var rep = Open(SocketType.Rep);
        var req = Open(SocketType.Req);
        string endpoint = BindServer(rep);
        TrustAuthority(req);

        req.Connect(endpoint);

        AssertRoundTrip(req, rep);
    }

    [Fact]
    public void LastEndpoint_WssBind_NamesSchemeAndPath()
    {
        var rep = Open(SocketType.Rep);

        string endpoint = BindServer(rep);

        Assert.Matches(@"^wss://127\.0\.0\.1:[1-9][0-9]*/zmq$", endpoint);
    }

    [Fact]
    public void Connect_PlainOverWss_Authenticates()
    {
        // A PLAIN server asks ZAP, as libzmq's does.
        using var zap = new ZapAuthenticator(_context);
        zap.ConfigurePlain("*", new Dictionary<string, string> { ["user"] = "secret" });
        var rep = Open(SocketType.Rep);
        var req = Open(SocketType.Req);
        rep.SetOption(SocketOption.Plain_Server, 1);
        string endpoint = BindServer(rep);
        req.SetOption(SocketOption.Plain_Username, "user");
        req.SetOption(SocketOption.Plain_Password, "secret");
        TrustAuthority(req);

        req.Connect(endpoint);

        AssertRoundTrip(req, rep);
    }

    [Fact]
    public void Connect_CurveOverWss_Encrypts()
    {
        var (serverPublic, serverSecret) = Curve.GenerateKeypair();
        var (clientPublic, clientSecret) = Curve.GenerateKeypair();
        var rep = Open(SocketType.Rep);
        var req = Open(SocketType.Req);
        rep.SetOption(SocketOption.Curve_Server, 1);
        rep.SetOption(SocketOption.Curve_Secretkey, serverSecret);
        string endpoint = BindServer(rep);
        req.SetOption(SocketOption.Curve_Serverkey, serverPublic);
        req.SetOption(SocketOption.Curve_Publickey, clientPublic);
        req.SetOption(SocketOption.Curve_Secretkey, clientSecret);
        TrustAuthority(req);

        req.Connect(endpoint);

        AssertRoundTrip(req, rep);
    }

    [Fact]
    public void Connect_LargeMessagesBothWays_ArriveWhole()
    {
        var dealer = Open(SocketType.Dealer);
        var router = Open(SocketType.Router);
        string endpoint = BindServer(router);
        TrustAuthority(dealer);
        dealer.Connect(endpoint);
        byte[] big = new byte[300_000];
        new Random(7).NextBytes(big);

        dealer.Send(big);
        byte[] routingId = router.RecvBytes();
        Assert.Equal(big, router.RecvBytes());
        router.Send(routingId, SendFlags.SendMore);
        router.Send(big);

        Assert.Equal(big, dealer.RecvBytes());
    }

    [Fact]
    public void Connect_ServerSendsIntermediate_ChainsToTrustedRoot()
    {
        // Wss_Cert_Pem holds the leaf, then the intermediate that signed it; the client trusts only the root.
        using var intermediate = _authority.IssueIntermediate();
        var leaf = intermediate.IssueServer(ServerName);
        var rep = Open(SocketType.Rep);
        var req = Open(SocketType.Req);
        rep.SetOption(SocketOption.Wss_Cert_Pem, leaf.CertificatePem + "\n" + intermediate.CaPem);
        rep.SetOption(SocketOption.Wss_Key_Pem, leaf.KeyPem);
        rep.Bind("wss://127.0.0.1:*/zmq");
        TrustAuthority(req);

        req.Connect(rep.GetOptionString(SocketOption.Last_Endpoint));

        AssertRoundTrip(req, rep);
    }

    [Fact]
    public void SetOption_PemWithTrailingNul_ReadAsCString()
    {
        // C callers often count the NUL; libzmq hands the value on as a C string.
        var rep = Open(SocketType.Rep);
        var req = Open(SocketType.Req);
        var leaf = _authority.IssueServer(ServerName);
        rep.SetOption(SocketOption.Wss_Cert_Pem, [.. System.Text.Encoding.ASCII.GetBytes(leaf.CertificatePem), 0]);
        rep.SetOption(SocketOption.Wss_Key_Pem, [.. System.Text.Encoding.ASCII.GetBytes(leaf.KeyPem), 0]);
        rep.Bind("wss://127.0.0.1:*/zmq");
        req.SetOption(SocketOption.Wss_Trust_Pem, [.. System.Text.Encoding.ASCII.GetBytes(_authority.CaPem), 0]);
        req.SetOption(SocketOption.Wss_Hostname, [.. System.Text.Encoding.ASCII.GetBytes(ServerName), 0]);

        req.Connect(rep.GetOptionString(SocketOption.Last_Endpoint));

        AssertRoundTrip(req, rep);
    }

    [Fact]
    public void Connect_NoHostnameSet_ChecksOnlyTheChainAsLibzmq()
    {
        // libzmq compares names only when Wss_Hostname is set: the endpoint's 127.0.0.1 is not looked at.
        var rep = Open(SocketType.Rep);
        var req = Open(SocketType.Req);
        string endpoint = BindServer(rep, name: "elsewhere.zmq.test");
        TrustAuthority(req, hostname: null);

        req.Connect(endpoint);

        AssertRoundTrip(req, rep);
    }

    [Fact]
    public void Connect_HostnameMismatch_EndsHandshakeWithNoDetailEvent()
    {
        var rep = Open(SocketType.Rep);
        var req = Open(SocketType.Req);
        string endpoint = BindServer(rep, name: "elsewhere.zmq.test");
        TrustAuthority(req, hostname: ServerName);

        AssertHandshakeFails(req, rep, endpoint);
    }

    [Fact]
    public void Connect_CertificateFromUntrustedAuthority_EndsHandshakeWithNoDetailEvent()
    {
        using var stranger = TestCertificates.CreateAuthority("someone else");
        var rep = Open(SocketType.Rep);
        var req = Open(SocketType.Req);
        string endpoint = BindServer(rep, issuer: stranger);
        TrustAuthority(req);

        AssertHandshakeFails(req, rep, endpoint);
    }

    [Fact]
    public void Connect_ExpiredCertificate_EndsHandshakeWithNoDetailEvent()
    {
        var rep = Open(SocketType.Rep);
        var req = Open(SocketType.Req);
        string endpoint = BindServer(rep, expired: true);
        TrustAuthority(req);

        AssertHandshakeFails(req, rep, endpoint);
    }

    [Fact]
    public void Connect_NoTrustAtAll_EndsHandshakeWithNoDetailEvent()
    {
        // Wss_Trust_System defaults to 0, as in libzmq: with no Wss_Trust_Pem nothing is trusted.
        var rep = Open(SocketType.Rep);
        var req = Open(SocketType.Req);
        string endpoint = BindServer(rep);
        req.SetOption(SocketOption.Wss_Hostname, ServerName);

        AssertHandshakeFails(req, rep, endpoint);
    }

    [Fact]
    public void Connect_TrustSystemOnlyWithTestAuthority_EndsHandshakeWithNoDetailEvent()
    {
        // The system's roots do not include a CA made by this test.
        var rep = Open(SocketType.Rep);
        var req = Open(SocketType.Req);
        string endpoint = BindServer(rep);
        req.SetOption(SocketOption.Wss_Trust_System, 1);

        AssertHandshakeFails(req, rep, endpoint);
    }

    [Fact]
    public void Accept_PlainWsClientAtWssListener_EndsBothHandshakesWithNoDetailEvent()
    {
        // The listener's TLS reads an HTTP request where a ClientHello belongs: bad input from the network.
        var guard = InternalErrorsGuard.Start();
        var rep = Open(SocketType.Rep);
        var req = Open(SocketType.Req);
        using var serverEvents = MonitorProbe.Attach(_context, rep);
        using var clientEvents = MonitorProbe.Attach(_context, req);
        string endpoint = BindServer(rep);

        req.Connect("ws" + endpoint["wss".Length..]);

        serverEvents.WaitFor(MonitorProbe.HandshakeFailedNoDetail, Timeout);
        clientEvents.WaitFor(MonitorProbe.HandshakeFailedNoDetail, Timeout);
        Assert.Equal(0, serverEvents.Count(MonitorProbe.HandshakeSucceeded));
        guard.AssertNoneSince();
    }

    [Fact]
    public void Accept_WssClientAtPlainWsListener_RefusedAtItsFirstOctets()
    {
        // The listener reads a TLS ClientHello where "GET " belongs. With no handshake timer to end the wait, only
        // the check of the first octets can: the request's head would never be complete.
        var guard = InternalErrorsGuard.Start();
        var rep = Open(SocketType.Rep);
        rep.SetOption(SocketOption.Handshake_Ivl, 0);
        var req = Open(SocketType.Req);
        TrustAuthority(req);
        using var serverEvents = MonitorProbe.Attach(_context, rep);
        using var clientEvents = MonitorProbe.Attach(_context, req);
        rep.Bind("ws://127.0.0.1:*/zmq");
        string endpoint = rep.GetOptionString(SocketOption.Last_Endpoint);

        req.Connect("wss" + endpoint["ws".Length..]);

        var refused = serverEvents.WaitFor(MonitorProbe.HandshakeFailedProtocol, Timeout);
        Assert.Equal(ZmqConstants.ZMQ_PROTOCOL_ERROR_WS_UNSPECIFIED, refused.Value);
        clientEvents.WaitFor(MonitorProbe.HandshakeFailedNoDetail, Timeout);
        Assert.Equal(0, serverEvents.Count(MonitorProbe.HandshakeSucceeded) + clientEvents.Count(MonitorProbe.HandshakeSucceeded));
        guard.AssertNoneSince();
    }

    [Fact]
    public void Accept_PeerSendsNothing_TlsHandshakeEndsAtHandshakeInterval()
    {
        // The TLS handshake is part of the connection's handshake, so Handshake_Ivl bounds it.
        var guard = InternalErrorsGuard.Start();
        var rep = Open(SocketType.Rep);
        rep.SetOption(SocketOption.Handshake_Ivl, 200);
        using var serverEvents = MonitorProbe.Attach(_context, rep);
        string endpoint = BindServer(rep);
        using var silent = RawPeer.Connect(new Uri(endpoint).Port);

        var failed = serverEvents.WaitFor(MonitorProbe.HandshakeFailedNoDetail, Timeout);

        Assert.Equal(ZmqConstants.EAGAIN, failed.Value);
        guard.AssertNoneSince();
    }

    /// <summary>
    /// The client connects and its handshake fails as libzmq's does: HANDSHAKE_FAILED_NO_DETAIL then
    /// DISCONNECTED, and it keeps retrying; the server never sees a good handshake, no message passes,
    /// and nothing is thrown or reported as an internal error.
    /// </summary>
    private void AssertHandshakeFails(Socket client, Socket server, string endpoint)
    {
        var guard = InternalErrorsGuard.Start();
        using var clientEvents = MonitorProbe.Attach(_context, client);
        using var serverEvents = MonitorProbe.Attach(_context, server);

        client.Connect(endpoint);

        var failed = clientEvents.WaitFor(MonitorProbe.HandshakeFailedNoDetail, Timeout);
        Assert.Equal(ZmqConstants.ECONNRESET, failed.Value);
        clientEvents.WaitFor(SocketMonitorEvent.Disconnected, Timeout);
        clientEvents.WaitFor(SocketMonitorEvent.ConnectRetried, Timeout);
        Assert.Equal(0, clientEvents.Count(MonitorProbe.HandshakeSucceeded));
        serverEvents.WaitFor(SocketMonitorEvent.Disconnected, Timeout);
        Assert.Equal(0, serverEvents.Count(MonitorProbe.HandshakeSucceeded));
        Assert.False(server.TryRecvString(out _));
        guard.AssertNoneSince();
    }
}
