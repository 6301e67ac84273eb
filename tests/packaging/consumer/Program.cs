// The packaging test's consumer: references Managed.Zmq by PackageReference from a folder feed
// (tests/packaging/run.sh), and runs as a plain, a trimmed and a NativeAOT build. It exercises the
// parts most likely to trip trimming or AOT: the engine over tcp, a REQ/REP round trip, and CURVE
// (its key agreement and cipher) with the ZapAuthenticator.
using Managed.Zmq;

const int TimeoutMs = 10_000;

using var context = new Context();

using (var rep = NewSocket(context, SocketType.Rep))
using (var req = NewSocket(context, SocketType.Req))
{
    rep.Bind("tcp://127.0.0.1:*");
    req.Connect(rep.GetOptionString(SocketOption.Last_Endpoint));
    RoundTrip(req, rep, "plain");
}

var (serverPublic, serverSecret) = Curve.GenerateKeypair();
var (clientPublic, clientSecret) = Curve.GenerateKeypair();
using (var auth = new ZapAuthenticator(context))
{
    auth.ConfigureCurve("*", clientPublic);
    using var rep = NewSocket(context, SocketType.Rep);
    rep.SetOption(SocketOption.Curve_Server, 1);
    rep.SetOption(SocketOption.Curve_Secretkey, serverSecret);
    rep.Bind("tcp://127.0.0.1:*");
    using var req = NewSocket(context, SocketType.Req);
    req.SetOption(SocketOption.Curve_Serverkey, serverPublic);
    req.SetOption(SocketOption.Curve_Publickey, clientPublic);
    req.SetOption(SocketOption.Curve_Secretkey, clientSecret);
    req.Connect(rep.GetOptionString(SocketOption.Last_Endpoint));
    RoundTrip(req, rep, "curve");
}

Console.WriteLine("consumer: REQ/REP round trips ok (tcp, tcp+CURVE)");
return 0;

static Socket NewSocket(Context context, SocketType type)
{
    var socket = new Socket(context, type);
    socket.SetOption(SocketOption.Linger, 0);
    socket.SetOption(SocketOption.Rcvtimeo, TimeoutMs);
    socket.SetOption(SocketOption.Sndtimeo, TimeoutMs);
    return socket;
}

static void RoundTrip(Socket req, Socket rep, string label)
{
    req.Send($"ping {label}");
    var request = rep.RecvString();
    rep.Send(request.Replace("ping", "pong", StringComparison.Ordinal));
    var reply = req.RecvString();
    if (reply != $"pong {label}")
    {
        throw new InvalidOperationException($"{label}: unexpected reply '{reply}'");
    }
}
