namespace Managed.Zmq.Tests.Security.Support;

/// <summary>
/// Our CURVE server (a PULL unless told otherwise, bound to an ephemeral tcp port) with its monitor
/// read on a background thread, so tests can wait for events with a deadline instead of sleeping.
/// </summary>
internal sealed class ServerUnderTest : IDisposable
{
    public const int Disconnected = 0x0200, HandshakeSucceeded = 0x1000, HandshakeFailedProtocol = 0x2000;

    private readonly Context _context = new();
    private readonly Socket _monitorPair;
    private readonly List<(int Event, int Value)> _events = [];
    private readonly Thread _reader;
    private volatile bool _stop;

    public ServerUnderTest(SocketType type = SocketType.Pull)
    {
        var (pub, sec) = Curve.GenerateKeypair();
        ServerPublic = Z85.Decode(pub);
        Socket = new Socket(_context, type);
        Socket.SetOption(SocketOption.Linger, 0);
        Socket.SetOption(SocketOption.Rcvtimeo, 10_000);
        Socket.SetOption(SocketOption.Curve_Server, 1);
        Socket.SetOption(SocketOption.Curve_Publickey, pub);
        Socket.SetOption(SocketOption.Curve_Secretkey, sec);
        var endpoint = TestEndpoint.Inproc("e2e-monitor");
        Socket.Monitor(endpoint, SocketMonitorEvent.All);
        _monitorPair = new Socket(_context, SocketType.Pair);
        _monitorPair.SetOption(SocketOption.Linger, 0);
        _monitorPair.SetOption(SocketOption.Rcvtimeo, 20);
        _monitorPair.Connect(endpoint);
        _reader = new Thread(ReadEvents) { IsBackground = true, Name = "e2e monitor" };
        _reader.Start();
        Socket.Bind("tcp://127.0.0.1:0");
        var last = Socket.GetOptionString(SocketOption.Last_Endpoint);
        Port = int.Parse(last[(last.LastIndexOf(':') + 1)..], System.Globalization.CultureInfo.InvariantCulture);
    }

    public Socket Socket { get; }

    public byte[] ServerPublic { get; }

    public int Port { get; }

    private void ReadEvents()
    {
        var frame = new byte[6];
        var address = new byte[256];
        while (!_stop)
        {
            try
            {
                try
                {
                    _monitorPair.Recv(frame);
                }
                catch (ZmqException e) when (e.ErrorNumber == ZmqConstants.EAGAIN)
                {
                    continue;
                }

                _monitorPair.Recv(address);
                lock (_events)
                {
                    _events.Add((BitConverter.ToUInt16(frame, 0), BitConverter.ToInt32(frame, 2)));
                    System.Threading.Monitor.PulseAll(_events);
                }
            }
            catch (Exception) when (_stop)
            {
                return;
            }
        }
    }

    public (int Event, int Value)[] Events
    {
        get
        {
            lock (_events)
                return [.. _events];
        }
    }

    /// <summary>Waits (bounded) until the <paramref name="occurrence"/>-th event matching arrives.</summary>
    public void WaitFor(int @event, int? value = null, int occurrence = 1, int timeoutMs = 10_000)
    {
        var end = Environment.TickCount64 + timeoutMs;
        lock (_events)
        {
            while (_events.Count(e => e.Event == @event && (value is null || e.Value == value)) < occurrence)
            {
                var left = end - Environment.TickCount64;
                if (left <= 0)
                {
                    Assert.Fail($"No monitor event 0x{@event:X}{(value is null ? "" : $" value 0x{value:X}")} (#{occurrence}) within {timeoutMs} ms; saw "
                        + string.Join(", ", _events.Select(e => $"0x{e.Event:X}/0x{e.Value:X}")));
                }

                System.Threading.Monitor.Wait(_events, (int)left);
            }
        }
    }

    public int Count(int @event)
    {
        lock (_events)
            return _events.Count(e => e.Event == @event);
    }

    /// <summary>A well-behaved raw client completes the handshake and its message reaches the user's Recv.</summary>
    public void AssertServesGoodClient(string text)
    {
        using var good = new RawCurveClient(Port, ServerPublic, RawCurveClient.NewKeys());
        good.Handshake();
        good.SendMessageFrame(good.BuildMessage(System.Text.Encoding.UTF8.GetBytes(text)));
        Assert.Equal(text, Socket.RecvString());
    }

    public void Dispose()
    {
        _stop = true;
        _reader.Join(10_000);
        Socket.Dispose();
        _monitorPair.Dispose();
        _context.Dispose();
    }
}
