namespace Managed.Zmq.Tests.Patterns;

/// <summary>
/// A ROUTER with thousands of connected, handshaken and then idle DEALERs still serves an active one
/// at once: the idle pipes are set aside by the fair queue and cost its receives nothing. Counts
/// messages only; the rate is the scale tool's to measure.
/// </summary>
public sealed class FairQueueIdlePeersTests : IDisposable
{
    private const int IdlePeers = 2_000;
    private const int RoundTrips = 500;

    /// <summary>Every blocking call's bound (a deadline, not a measurement).</summary>
    private const int TimeoutMs = 30_000;

    /// <summary>Room for every idle peer, the active one and the ROUTER (the default allows 1,023 sockets).</summary>
    private readonly Context _context = new(ioThreads: 1, maxSockets: IdlePeers + 16);
    private readonly List<Socket> _sockets = [];

    public void Dispose()
    {
        foreach (var socket in _sockets)
        {
            socket.Dispose();
        }

        _context.Dispose();
    }

    [Fact]
    public void Router_ThousandsOfIdleDealersOverTcp_ActiveDealerCompletesEveryRoundTrip()
    {
        var router = Create(SocketType.Router);
        router.Bind("tcp://127.0.0.1:*");
        string endpoint = router.GetOptionString(SocketOption.Last_Endpoint);

        for (int i = 0; i < IdlePeers; i++)
        {
            var idle = Create(SocketType.Dealer);
            idle.Connect(endpoint);
            idle.Send("hello");
        }

        // Each idle peer's one message: their connections are handshaken, then they go quiet.
        for (int i = 0; i < IdlePeers; i++)
        {
            router.RecvBytes();
            Assert.Equal("hello", router.RecvString());
        }

        var active = Create(SocketType.Dealer);
        active.Connect(endpoint);
        for (int i = 0; i < RoundTrips; i++)
        {
            string request = i.ToString(System.Globalization.CultureInfo.InvariantCulture);
            active.Send(request);
            byte[] id = router.RecvBytes();
            Assert.Equal(request, router.RecvString());
            router.Send(id, SendFlags.SendMore);
            router.Send(request);
            Assert.Equal(request, active.RecvString());
        }

        Assert.False(router.TryRecvString(out _));
    }

    [Fact]
    public void XPub_SubscribersGoQuietThenSubscribeAgain_EverySubscriptionReported()
    {
        const int subscribers = 200;
        string endpoint = $"inproc://fairqueue-xpub-{Guid.NewGuid():N}";
        var xpub = Create(SocketType.XPub);
        xpub.Bind(endpoint);
        var subs = new Socket[subscribers];
        for (int i = 0; i < subscribers; i++)
        {
            subs[i] = Create(SocketType.Sub);
            subs[i].Connect(endpoint);
        }

        // Two rounds: after the first, every connection is drained and set aside; the second must bring each back.
        foreach (string round in new[] { "a", "b" })
        {
            for (int i = 0; i < subscribers; i++)
            {
                subs[i].Subscribe($"{round}{i}");
            }

            var seen = new HashSet<string>();
            for (int i = 0; i < subscribers; i++)
            {
                byte[] frame = xpub.RecvBytes();
                Assert.Equal(1, frame[0]);
                Assert.True(seen.Add(System.Text.Encoding.ASCII.GetString(frame, 1, frame.Length - 1)));
            }

            Assert.Equal(Enumerable.Range(0, subscribers).Select(i => $"{round}{i}").Order(), seen.Order());
        }
    }

    private Socket Create(SocketType type)
    {
        var socket = new Socket(_context, type);
        socket.SetOption(SocketOption.Linger, 0);
        socket.SetOption(SocketOption.Rcvtimeo, TimeoutMs);
        socket.SetOption(SocketOption.Sndtimeo, TimeoutMs);
        _sockets.Add(socket);
        return socket;
    }
}
