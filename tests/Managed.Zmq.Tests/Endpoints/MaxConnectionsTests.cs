using System.Collections.Concurrent;
using System.Diagnostics.Tracing;
using System.Globalization;
using System.Net;
using System.Net.Sockets;
using Managed.Zmq.Diagnostics;
using Managed.Zmq.Tests.Support;
using Managed.Zmq.Endpoints;

namespace Managed.Zmq.Tests.Endpoints;

/// <summary>
/// Max_Connections: at the cap a socket's listeners stop accepting, so further connections wait in the kernel's
/// listen queue (they get no greeting), and one more is served as soon as an accepted connection closes, however
/// it closes. Raw TCP peers show what the kernel and the listener do; monitor events (ACCEPTED) and the trace
/// event of the cap are the synchronisation, every wait has a deadline.
/// </summary>
public sealed class MaxConnectionsTests : TransportSockets
{
    private static readonly TimeSpan s_limit = TimeSpan.FromSeconds(10);

    [Fact(Timeout = 60_000)]
    public async Task Accept_CapOfThreeFiveConnections_ServesThreeAndOneMorePerClose()
    {
        using var capEvents = new CapEventListener();
        var server = Create(SocketType.Router);
        server.SetOption(SocketOption.Max_Connections, 3);
        using var monitor = MonitorProbe.Attach(Context, server, ZmqConstants.ZMQ_EVENT_ACCEPTED);
        server.Bind("tcp://127.0.0.1:*");
        string endpoint = server.GetOptionString(SocketOption.Last_Endpoint);
        int port = PortOf(endpoint);

        var peers = new List<System.Net.Sockets.Socket>();
        try
        {
            for (int i = 0; i < 3; i++)
            {
                peers.Add(await ConnectRawAsync(port));
                monitor.WaitFor(ZmqConstants.ZMQ_EVENT_ACCEPTED);
            }

            // The kernel completes these two connections; the listener finds them and stops at the cap.
            peers.Add(await ConnectRawAsync(port));
            peers.Add(await ConnectRawAsync(port));
            capEvents.WaitFor(endpoint);

            for (int i = 0; i < 3; i++)
            {
                Assert.Equal(0xFF, await ReadFirstByteAsync(peers[i]));
            }

            Assert.Equal(3, server.Core.AcceptQuota.Open);
            Assert.Equal(0, peers[3].Available);
            Assert.Equal(0, peers[4].Available);

            // One accepted connection ends: the first waiting one is accepted and greeted, the other still waits.
            peers[0].Close();
            monitor.WaitFor(ZmqConstants.ZMQ_EVENT_ACCEPTED);
            Assert.Equal(0xFF, await ReadFirstByteAsync(peers[3]));
            Assert.Equal(0, peers[4].Available);

            peers[1].Close();
            monitor.WaitFor(ZmqConstants.ZMQ_EVENT_ACCEPTED);
            Assert.Equal(0xFF, await ReadFirstByteAsync(peers[4]));
        }
        finally
        {
            peers.ForEach(p => p.Dispose());
        }

        Eventually.True(() => server.Core.AcceptQuota.Open == 0, "every accepted connection gave its slot back");
        Assert.Equal(3, server.GetOption<int>(SocketOption.Max_Connections));
    }

    [Fact(Timeout = 60_000)]
    public async Task Accept_TwoBoundEndpoints_ShareTheCap()
    {
        using var capEvents = new CapEventListener();
        var server = Create(SocketType.Router);
        server.SetOption(SocketOption.Max_Connections, 2);
        using var monitor = MonitorProbe.Attach(Context, server, ZmqConstants.ZMQ_EVENT_ACCEPTED);
        server.Bind("tcp://127.0.0.1:*");
        string first = server.GetOptionString(SocketOption.Last_Endpoint);
        server.Bind("tcp://127.0.0.1:*");
        string second = server.GetOptionString(SocketOption.Last_Endpoint);

        var peers = new List<System.Net.Sockets.Socket>();
        try
        {
            peers.Add(await ConnectRawAsync(PortOf(first)));
            monitor.WaitFor(ZmqConstants.ZMQ_EVENT_ACCEPTED);
            peers.Add(await ConnectRawAsync(PortOf(second)));
            monitor.WaitFor(ZmqConstants.ZMQ_EVENT_ACCEPTED);

            // The cap is the socket's: both listeners are full although each accepted only one.
            peers.Add(await ConnectRawAsync(PortOf(first)));
            peers.Add(await ConnectRawAsync(PortOf(second)));
            capEvents.WaitFor(first);
            capEvents.WaitFor(second);
            Assert.Equal(0, peers[2].Available);
            Assert.Equal(0, peers[3].Available);
            Assert.Equal(2, server.Core.AcceptQuota.Open);

            // A slot freed on one endpoint lets a waiting connection in, on whichever endpoint takes it first.
            peers[0].Close();
            monitor.WaitFor(ZmqConstants.ZMQ_EVENT_ACCEPTED);
            Task<int>[] greetings = [ReadFirstByteAsync(peers[2]), ReadFirstByteAsync(peers[3])];
            var greeted = await Task.WhenAny(greetings).WaitAsync(s_limit);
            Assert.Equal(0xFF, await greeted);
            Assert.Equal(2, server.Core.AcceptQuota.Open);

            peers[1].Close();
            monitor.WaitFor(ZmqConstants.ZMQ_EVENT_ACCEPTED);
            Assert.Equal(0xFF, await greetings.Single(g => g != greeted));
        }
        finally
        {
            peers.ForEach(p => p.Dispose());
        }

        Eventually.True(() => server.Core.AcceptQuota.Open == 0, "every accepted connection gave its slot back");
    }

    public enum Ending
    {
        PeerCloses,
        HandshakeTimesOut,
        BadGreeting,
        EstablishedPeerDisconnects,
        Unbind,
    }

    [Theory(Timeout = 60_000)]
    [InlineData(Ending.PeerCloses)]
    [InlineData(Ending.HandshakeTimesOut)]
    [InlineData(Ending.BadGreeting)]
    [InlineData(Ending.EstablishedPeerDisconnects)]
    [InlineData(Ending.Unbind)]
    public async Task Accept_AcceptedConnectionEnds_ReleasesItsSlot(Ending ending)
    {
        using var capEvents = new CapEventListener();
        var server = Create(SocketType.Router);
        server.SetOption(SocketOption.Max_Connections, 1);
        if (ending == Ending.HandshakeTimesOut)
        {
            server.SetOption(SocketOption.Handshake_Ivl, 200);
        }

        using var monitor = MonitorProbe.Attach(Context, server, ZmqConstants.ZMQ_EVENT_ACCEPTED | MonitorProbe.HandshakeSucceeded);
        // Unbind: two endpoints; unbinding the first closes its connection, the second serves the one waiting.
        server.Bind("tcp://127.0.0.1:*");
        string firstEndpoint = server.GetOptionString(SocketOption.Last_Endpoint);
        string endpoint = firstEndpoint;
        if (ending == Ending.Unbind)
        {
            server.Bind("tcp://127.0.0.1:*");
            endpoint = server.GetOptionString(SocketOption.Last_Endpoint);
        }

        System.Net.Sockets.Socket? rawFirst = null;
        Socket? dealer = null;
        System.Net.Sockets.Socket? waiting = null;
        try
        {
            if (ending == Ending.EstablishedPeerDisconnects)
            {
                dealer = Create(SocketType.Dealer);
                dealer.Connect(endpoint);
                monitor.WaitFor(ZmqConstants.ZMQ_EVENT_ACCEPTED);
                monitor.WaitFor(MonitorProbe.HandshakeSucceeded);
            }
            else
            {
                rawFirst = await ConnectRawAsync(PortOf(firstEndpoint));
                monitor.WaitFor(ZmqConstants.ZMQ_EVENT_ACCEPTED);
            }

            waiting = await ConnectRawAsync(PortOf(endpoint));
            if (ending != Ending.HandshakeTimesOut)
            {
                // (A handshake timeout may free the slot before the listener sees the waiting connection: with a
                // cap of 1, the waiting connection being accepted below is the proof that the timeout released it.)
                capEvents.WaitFor(endpoint);
                Assert.Equal(0, waiting.Available);
                Assert.Equal(1, server.Core.AcceptQuota.Open);
            }

            switch (ending)
            {
                case Ending.PeerCloses:
                    rawFirst!.Close();
                    break;
                case Ending.HandshakeTimesOut:
                    // Nothing to do: the server ends the connection at Handshake_Ivl.
                    break;
                case Ending.BadGreeting:
                    // A well-formed greeting asking for a mechanism the server does not use: the handshake fails.
                    await rawFirst!.SendAsync(GreetingWithMechanism("PLAIN"), SocketFlags.None).WaitAsync(s_limit);
                    break;
                case Ending.EstablishedPeerDisconnects:
                    dealer!.Disconnect(endpoint);
                    break;
                case Ending.Unbind:
                    server.Unbind(firstEndpoint);
                    break;
            }

            monitor.WaitFor(ZmqConstants.ZMQ_EVENT_ACCEPTED);
            Assert.Equal(0xFF, await ReadFirstByteAsync(waiting));
        }
        finally
        {
            rawFirst?.Dispose();
            waiting?.Dispose();
            dealer?.Dispose();
        }

        Eventually.True(() => server.Core.AcceptQuota.Open == 0, "every accepted connection gave its slot back");
    }

    [Fact(Timeout = 60_000)]
    public async Task Accept_IpcEndpointAtCap_WaitsUntilAConnectionCloses()
    {
        using var capEvents = new CapEventListener();
        var server = Create(SocketType.Router);
        server.SetOption(SocketOption.Max_Connections, 1);
        using var monitor = MonitorProbe.Attach(Context, server, ZmqConstants.ZMQ_EVENT_ACCEPTED);
        string path = TestEndpoint.IpcPath("maxconn");
        server.Bind("ipc://" + path);
        string endpoint = server.GetOptionString(SocketOption.Last_Endpoint);

        using var first = await ConnectUnixAsync(path);
        monitor.WaitFor(ZmqConstants.ZMQ_EVENT_ACCEPTED);
        using var waiting = await ConnectUnixAsync(path);
        capEvents.WaitFor(endpoint);
        Assert.Equal(0, waiting.Available);

        first.Close();

        monitor.WaitFor(ZmqConstants.ZMQ_EVENT_ACCEPTED);
        Assert.Equal(0xFF, await ReadFirstByteAsync(waiting));
    }

    [Fact(Timeout = 60_000)]
    public async Task SetOption_CapRaisedWhileWaiting_AcceptsTheWaitingConnection()
    {
        using var capEvents = new CapEventListener();
        var server = Create(SocketType.Router);
        server.SetOption(SocketOption.Max_Connections, 1);
        using var monitor = MonitorProbe.Attach(Context, server, ZmqConstants.ZMQ_EVENT_ACCEPTED);
        server.Bind("tcp://127.0.0.1:*");
        string endpoint = server.GetOptionString(SocketOption.Last_Endpoint);

        using var first = await ConnectRawAsync(PortOf(endpoint));
        monitor.WaitFor(ZmqConstants.ZMQ_EVENT_ACCEPTED);
        using var waiting = await ConnectRawAsync(PortOf(endpoint));
        capEvents.WaitFor(endpoint);
        Assert.Equal(0, waiting.Available);

        server.SetOption(SocketOption.Max_Connections, 2);

        monitor.WaitFor(ZmqConstants.ZMQ_EVENT_ACCEPTED);
        Assert.Equal(0xFF, await ReadFirstByteAsync(waiting));
        Assert.Equal(2, server.Core.AcceptQuota.Open);
    }

    [Fact(Timeout = 60_000)]
    public async Task Accept_NoCap_AcceptsEveryConnection()
    {
        var server = Create(SocketType.Router);
        server.SetOption(SocketOption.Max_Connections, -1);
        using var monitor = MonitorProbe.Attach(Context, server, ZmqConstants.ZMQ_EVENT_ACCEPTED);
        server.Bind("tcp://127.0.0.1:*");
        int port = PortOf(server.GetOptionString(SocketOption.Last_Endpoint));

        var peers = new List<System.Net.Sockets.Socket>();
        try
        {
            for (int i = 0; i < 5; i++)
            {
                peers.Add(await ConnectRawAsync(port));
                monitor.WaitFor(ZmqConstants.ZMQ_EVENT_ACCEPTED);
            }

            foreach (var peer in peers)
            {
                Assert.Equal(0xFF, await ReadFirstByteAsync(peer));
            }

            Assert.Equal(5, server.Core.AcceptQuota.Open);
        }
        finally
        {
            peers.ForEach(p => p.Dispose());
        }

        Eventually.True(() => server.Core.AcceptQuota.Open == 0, "every accepted connection gave its slot back");
    }

    private static int PortOf(string endpoint) =>
        int.Parse(endpoint[(endpoint.LastIndexOf(':') + 1)..], CultureInfo.InvariantCulture);

    private static async Task<System.Net.Sockets.Socket> ConnectRawAsync(int port)
    {
        var peer = new System.Net.Sockets.Socket(AddressFamily.InterNetwork, System.Net.Sockets.SocketType.Stream, ProtocolType.Tcp);
        using var limit = new CancellationTokenSource(s_limit);
        await peer.ConnectAsync(new IPEndPoint(IPAddress.Loopback, port), limit.Token);
        return peer;
    }

    private static async Task<System.Net.Sockets.Socket> ConnectUnixAsync(string path)
    {
        var peer = new System.Net.Sockets.Socket(AddressFamily.Unix, System.Net.Sockets.SocketType.Stream, ProtocolType.Unspecified);
        using var limit = new CancellationTokenSource(s_limit);
        await peer.ConnectAsync(new UnixDomainSocketEndPoint(path), limit.Token);
        return peer;
    }

    /// <summary>The first byte the server sends (0xFF opens every ZMTP 3 greeting); fails if none comes in time.</summary>
    private static async Task<int> ReadFirstByteAsync(System.Net.Sockets.Socket peer)
    {
        var buffer = new byte[1];
        using var limit = new CancellationTokenSource(s_limit);
        int read = await peer.ReceiveAsync(buffer, SocketFlags.None, limit.Token);
        Assert.Equal(1, read);
        return buffer[0];
    }

    /// <summary>A ZMTP 3.0 greeting (RFC 23) naming <paramref name="mechanism"/>, as a client.</summary>
    private static byte[] GreetingWithMechanism(string mechanism)
    {
        var greeting = new byte[64];
        greeting[0] = 0xFF;
        greeting[9] = 0x7F;
        greeting[10] = 3;
        greeting[11] = 0;
        System.Text.Encoding.ASCII.GetBytes(mechanism).CopyTo(greeting, 12);
        return greeting;
    }

    /// <summary>Collects the trace event a listener writes when it stops at the cap, by endpoint.</summary>
    private sealed class CapEventListener : EventListener
    {
        private readonly BlockingCollection<string> _endpoints = [];
        private readonly HashSet<string> _seen = [];

        public void WaitFor(string endpoint)
        {
            while (!_seen.Contains(endpoint))
            {
                Assert.True(_endpoints.TryTake(out string? next, s_limit), $"{endpoint} never reported reaching Max_Connections");
                _seen.Add(next!);
            }
        }

        protected override void OnEventSourceCreated(EventSource eventSource)
        {
            if (eventSource.Name == ZmqEventSource.SourceName)
            {
                EnableEvents(eventSource, EventLevel.Warning);
            }
        }

        protected override void OnEventWritten(EventWrittenEventArgs eventData)
        {
            if (eventData.EventId == ZmqEventSource.ConnectionCapReachedId && eventData.Payload is { Count: 2 } payload)
            {
                _endpoints.Add((string)payload[1]!);
            }
        }

        public override void Dispose()
        {
            base.Dispose();
            _endpoints.Dispose();
        }
    }
}
