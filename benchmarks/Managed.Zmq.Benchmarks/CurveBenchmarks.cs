using BenchmarkDotNet.Attributes;

namespace Managed.Zmq.Benchmarks;

/// <summary>
/// CURVE cost through the public API only: InternalsVisibleTo is not granted to this project, so
/// the crypto types (X25519, XSalsa20-Poly1305) are not reachable directly.
/// <list type="bullet">
/// <item>X25519: see <see cref="CurveKeyBenchmarks"/>.</item>
/// <item><see cref="RoundTrip"/>: REQ→REP→REQ over tcp loopback in one process (REP echoes on
/// its own thread), NULL or CURVE, 64 B / 1 KiB / 64 KiB. A CURVE round trip adds two MESSAGE
/// seals and two opens (XSalsa20-Poly1305 over the frame) to the NULL one, so
/// (CURVE − NULL) / 2 is roughly one seal + one open plus framing at that size.</item>
/// </list>
/// Keys: libzmq's documented test key pairs, as in the perf tools' PERF_CURVE mode.
/// </summary>
[MemoryDiagnoser]
public class CurveBenchmarks
{
    private const string ServerPublic = "rq:rM>}U?@Lns47E1%kR.o@n%FcmmsL/@{H8]yf7";
    private const string ServerSecret = "JTKVSB%%)wK0E.X)V>+}o?pNmC{O&4W4b!Ni{Lh6";
    private const string ClientPublic = "Yne@$w-vo<fVvi]a<NY6T1ed:M$fCG*[IaLV{hID";
    private const string ClientSecret = "D:)Q[IlAW!ahhC2ac:9*A}h:p?([4%wOTJ%JR%cs";

    private Context? _context;
    private Socket? _req;
    private Socket? _rep;
    private Thread? _echo;
    private volatile bool _stopping;
    private byte[] _payload = null!;
    private byte[] _buffer = null!;

    public enum Mechanism
    {
        Null,
        Curve,
    }

    [Params(Mechanism.Null, Mechanism.Curve)]
    public Mechanism Security { get; set; }

    [Params(64, 1024, 65536)]
    public int Size { get; set; }

    [GlobalSetup]
    public void Setup()
    {
        _payload = new byte[Size];
        _buffer = new byte[Size + 1];
        _context = new Context();
        _rep = new Socket(_context, SocketType.Rep);
        _req = new Socket(_context, SocketType.Req);
        foreach (var socket in new[] { _rep, _req })
        {
            socket.SetOption(SocketOption.Linger, 0);
            socket.SetOption(SocketOption.Rcvtimeo, Bench.TimeoutMilliseconds);
            socket.SetOption(SocketOption.Sndtimeo, Bench.TimeoutMilliseconds);
        }

        if (Security == Mechanism.Curve)
        {
            _rep.SetOption(SocketOption.Curve_Server, 1);
            _rep.SetOption(SocketOption.Curve_Secretkey, ServerSecret);
            _req.SetOption(SocketOption.Curve_Serverkey, ServerPublic);
            _req.SetOption(SocketOption.Curve_Publickey, ClientPublic);
            _req.SetOption(SocketOption.Curve_Secretkey, ClientSecret);
        }

        _rep.Bind("tcp://127.0.0.1:*");
        _req.Connect(_rep.GetOptionString(SocketOption.Last_Endpoint));
        Socket rep = _rep;
        _echo = new Thread(() =>
        {
            byte[] echo = new byte[Size + 1];
            while (!_stopping)
            {
                int n;
                try
                {
                    n = rep.Recv(echo.AsSpan(), RecvFlags.None);
                }
                catch (ZmqException)
                {
                    return; // receive timeout or context shut down
                }

                rep.Send(echo.AsSpan(0, n), SendFlags.None);
            }
        }) { IsBackground = true, Name = "bench-echo" };
        _echo.Start();
        RoundTrip(); // handshake done before the first timed invocation
    }

    [GlobalCleanup]
    public void Cleanup()
    {
        _stopping = true;
        _req?.Dispose();
        _context?.Shutdown();
        _echo?.Join(Bench.TimeoutMilliseconds);
        _rep?.Dispose();
        _context?.Dispose();
    }

    [Benchmark]
    public int RoundTrip()
    {
        _req!.Send(_payload, SendFlags.None);
        int received = _req.Recv(_buffer.AsSpan(), RecvFlags.None);
        return received == Size ? received : throw new InvalidOperationException($"received {received} B, expected {Size} B");
    }
}

/// <summary>
/// X25519 through the public API: <c>Curve.DerivePublicKey</c> is one scalar multiplication with
/// the base point plus a 40-character Z85 decode and encode; <c>Curve.GenerateKeypair</c> adds 32
/// bytes from the OS random number generator.
/// </summary>
[MemoryDiagnoser]
public class CurveKeyBenchmarks
{
    private const string ClientSecret = "D:)Q[IlAW!ahhC2ac:9*A}h:p?([4%wOTJ%JR%cs";

    [Benchmark]
    public string X25519DerivePublicKey() => Curve.DerivePublicKey(ClientSecret);

    [Benchmark]
    public (string, string) GenerateKeypair() => Curve.GenerateKeypair();
}
