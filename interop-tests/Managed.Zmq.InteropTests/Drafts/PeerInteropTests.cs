#if !INTEROP_WITHOUT_CORE
using Managed.Zmq.InteropTests.Infrastructure;
using Managed.Zmq.InteropTests.Ws;

namespace Managed.Zmq.InteropTests.Drafts;

/// <summary>
/// PEER (RFC 51) against libzmq's draft implementation (<see cref="PeerNative"/>), both ways, over tcp and ipc: the
/// PEER name in READY and the PEER-only compatibility check, zmq_connect_peer's id against ours, messages routed
/// by those ids in both directions, and the errors zmq_connect_peer gives next to ours.
/// </summary>
public sealed class PeerInteropTests
{
    private const int Exchanges = 5;

    [Theory]
    [InlineData("tcp")]
    [InlineData("ipc")]
    public Task LibzmqPeerBound_OurConnectPeer_BothWaysByIds(string transport) => Deadline.Run(() =>
    {
        using var draft = new DraftContext();
        using var native = new PeerNative(draft);
        string endpoint = native.Bind(BindEndpoint(transport));
        using var context = new Context();
        using var peer = Open(context);

        uint toNative = peer.ConnectPeer(endpoint);
        Assert.NotEqual(0u, toNative);

        uint fromOurs = 0;
        using var received = new Message();
        for (int i = 0; i < Exchanges; i++)
        {
            // The first send goes before the connection is known to be up: it waits in the peer's queue.
            Send(peer, toNative, $"ours {i}");
            var (text, routingId) = native.Recv();
            Assert.Equal($"ours {i}", text);
            Assert.NotEqual(0u, routingId);
            fromOurs = i == 0 ? routingId : fromOurs;
            Assert.Equal(fromOurs, routingId);

            native.Send(routingId, $"libzmq {i}");
            peer.Recv(received);
            Assert.Equal($"libzmq {i}", received.ToString());
            Assert.Equal(toNative, received.RoutingId);
        }
    });

    [Theory]
    [InlineData("tcp")]
    [InlineData("ipc")]
    public Task OurPeerBound_LibzmqConnectPeer_BothWaysByIds(string transport) => Deadline.Run(() =>
    {
        using var context = new Context();
        using var peer = Open(context);
        peer.Bind(BindEndpoint(transport));
        using var draft = new DraftContext();
        using var native = new PeerNative(draft);

        uint toOurs = native.ConnectPeer(peer.GetOptionString(SocketOption.Last_Endpoint));
        Assert.NotEqual(0u, toOurs);

        uint fromNative = 0;
        using var received = new Message();
        for (int i = 0; i < Exchanges; i++)
        {
            native.Send(toOurs, $"libzmq {i}");
            peer.Recv(received);
            Assert.Equal($"libzmq {i}", received.ToString());
            Assert.NotEqual(0u, received.RoutingId);
            fromNative = i == 0 ? received.RoutingId : fromNative;
            Assert.Equal(fromNative, received.RoutingId);

            Send(peer, received.RoutingId, $"ours {i}");
            var (text, routingId) = native.Recv();
            Assert.Equal($"ours {i}", text);
            Assert.Equal(toOurs, routingId);
        }
    });

    /// <summary>Each side binds and connects to the other: four pipes, every message routed by the id it came with.</summary>
    [Theory]
    [InlineData("tcp")]
    [InlineData("ipc")]
    public Task BothBoundBothConnectPeer_EachAnswersOverTheOthersConnection(string transport) => Deadline.Run(() =>
    {
        using var context = new Context();
        using var peer = Open(context);
        peer.Bind(BindEndpoint(transport));
        string ourEndpoint = peer.GetOptionString(SocketOption.Last_Endpoint);
        using var draft = new DraftContext();
        using var native = new PeerNative(draft);
        string nativeEndpoint = native.Bind(BindEndpoint(transport));

        uint toNative = peer.ConnectPeer(nativeEndpoint);
        uint toOurs = native.ConnectPeer(ourEndpoint);

        Send(peer, toNative, "from ours");
        native.Send(toOurs, "from libzmq");
        var (text, acceptedByNative) = native.Recv();
        Assert.Equal("from ours", text);
        using var received = new Message();
        peer.Recv(received);
        Assert.Equal("from libzmq", received.ToString());
        uint acceptedByOurs = received.RoutingId;

        native.Send(acceptedByNative, "answer from libzmq");
        Send(peer, acceptedByOurs, "answer from ours");
        peer.Recv(received);
        Assert.Equal("answer from libzmq", received.ToString());
        Assert.Equal(toNative, received.RoutingId);
        var (answer, routingId) = native.Recv();
        Assert.Equal("answer from ours", answer);
        Assert.Equal(toOurs, routingId);
    });

    /// <summary>zmq_connect_peer's refusals, checked on libzmq itself and on ours side by side.</summary>
    [Fact]
    public Task ConnectPeer_NotPeerOrImmediate_SameErrnoAsLibzmq() => Deadline.Run(() =>
    {
        using var draft = new DraftContext();
        using var context = new Context();
        string endpoint = BindEndpoint("ipc");

        using (var nativeServer = new PeerNative(draft, (int)SocketType.Server))
        using (var server = Open(context, SocketType.Server))
        {
            Assert.Equal(0u, nativeServer.TryConnectPeer(endpoint, out int nativeErrno));
            var ours = Assert.Throws<ZmqException>(() => server.ConnectPeer(endpoint));
            Assert.Equal(ZmqConstants.ENOTSUP, nativeErrno);
            Assert.Equal(nativeErrno, ours.ErrorNumber);
        }

        using var nativePeer = new PeerNative(draft);
        nativePeer.SetOption(Native.LibZmq.ZMQ_IMMEDIATE, 1);
        using var peer = Open(context);
        peer.SetOption(SocketOption.Immediate, 1);
        Assert.Equal(0u, nativePeer.TryConnectPeer(endpoint, out int immediateErrno));
        var immediate = Assert.Throws<ZmqException>(() => peer.ConnectPeer(endpoint));
        Assert.Equal(ZmqConstants.EFAULT, immediateErrno);
        Assert.Equal(immediateErrno, immediate.ErrorNumber);
    });

    /// <summary>libzmq's PEER names itself PEER in READY; our SERVER or DEALER refuses it, as libzmq's would.</summary>
    [Theory]
    [InlineData(SocketType.Server)]
    [InlineData(SocketType.Dealer)]
    public Task LibzmqPeer_OurIncompatibleBinder_HandshakeRefused(SocketType ours) => Deadline.Run(() =>
    {
        using var context = new Context();
        using var socket = Open(context, ours);
        using var monitor = MonitorOurs(context, socket);
        socket.Bind(BindEndpoint("tcp"));
        using var draft = new DraftContext();
        using var native = new PeerNative(draft);
        using var nativeMonitor = native.Monitor();

        native.ConnectPeer(socket.GetOptionString(SocketOption.Last_Endpoint));

        AssertRefused(monitor, nativeMonitor);
    });

    /// <summary>Our PEER names itself PEER in READY: libzmq's SERVER refuses it, and ours refuses the SERVER.</summary>
    [Fact]
    public Task OurPeer_LibzmqServer_HandshakeRefused() => Deadline.Run(() =>
    {
        using var draft = new DraftContext();
        using var native = new PeerNative(draft, (int)SocketType.Server);
        using var nativeMonitor = native.Monitor();
        string endpoint = native.Bind(BindEndpoint("tcp"));
        using var context = new Context();
        using var peer = Open(context);
        using var monitor = MonitorOurs(context, peer);

        peer.ConnectPeer(endpoint);

        AssertRefused(monitor, nativeMonitor);
    });

    /// <summary>
    /// Both ends check the peer's Socket-Type and close the connection on a mismatch, whichever reads the other's
    /// READY first, and under NULL neither raises more than DISCONNECTED for it (docs/libzmq-behaviour.md L6). When
    /// libzmq closes first, it does so with a reset that can discard its READY before ours reads it: ours then reports
    /// HANDSHAKE_FAILED_NO_DETAIL, the connection lost. Neither end may report HANDSHAKE_SUCCEEDED or
    /// HANDSHAKE_FAILED_PROTOCOL.
    /// </summary>
    private static void AssertRefused(Socket ourMonitor, DraftSocket nativeMonitor)
    {
        var seen = new List<string>();
        int ourEvent;
        do
        {
            (ourEvent, int ourValue) = NextEvent(ourMonitor);
            seen.Add($"ours {ourEvent:x}:{ourValue}");
            Assert.True(ourEvent is not (Native.LibZmq.ZMQ_EVENT_HANDSHAKE_SUCCEEDED or Native.LibZmq.ZMQ_EVENT_HANDSHAKE_FAILED_PROTOCOL),
                $"our end reported more than the close; saw {string.Join(", ", seen)}");
        }
        while (ourEvent != Native.LibZmq.ZMQ_EVENT_DISCONNECTED);

        while (true)
        {
            var next = nativeMonitor.NextEvent(Timeouts.Io);
            Assert.True(next.HasValue, $"libzmq's end never closed; saw {string.Join(", ", seen)}");
            seen.Add($"libzmq {next.Value.Event:x}:{next.Value.Value}");
            Assert.True(next.Value.Event is not (Native.LibZmq.ZMQ_EVENT_HANDSHAKE_SUCCEEDED or Native.LibZmq.ZMQ_EVENT_HANDSHAKE_FAILED_PROTOCOL),
                $"libzmq's end reported more than the close; saw {string.Join(", ", seen)}");
            if (next.Value.Event == Native.LibZmq.ZMQ_EVENT_DISCONNECTED)
            {
                return;
            }
        }
    }

    private static Socket MonitorOurs(Context context, Socket target)
    {
        string endpoint = $"inproc://peer-interop-monitor-{Guid.NewGuid():N}";
        target.Monitor(endpoint, ZmqConstants.ZMQ_EVENT_ALL);
        var pair = Open(context, SocketType.Pair);
        pair.Connect(endpoint);
        return pair;
    }

    private static (int Event, int Value) NextEvent(Socket monitor)
    {
        var data = SocketMonitorEventData.Parse(monitor.RecvBytes(), monitor.RecvString());
        return ((int)data.Event, data.Value);
    }

    private static void Send(Socket socket, uint routingId, string text)
    {
        using var message = new Message(text) { RoutingId = routingId };
        socket.Send(message);
    }

    private static string BindEndpoint(string transport) => transport == "tcp"
        ? "tcp://127.0.0.1:*"
        : "ipc://" + Path.Combine(Path.GetTempPath(), "mzq-peer-" + Guid.NewGuid().ToString("N")[..12]);

    private static Socket Open(Context context, SocketType type = SocketType.Peer)
    {
        var socket = new Socket(context, type);
        try
        {
            socket.SetOption(SocketOption.Linger, 0);
            socket.SetOption(SocketOption.Rcvtimeo, (int)Timeouts.Io.TotalMilliseconds);
            socket.SetOption(SocketOption.Sndtimeo, (int)Timeouts.Io.TotalMilliseconds);
            return socket;
        }
        catch
        {
            socket.Dispose();
            throw;
        }
    }
}
#endif
