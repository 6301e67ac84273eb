using System.Text;
using Managed.Zmq.InteropTests.Infrastructure;
using Managed.Zmq.InteropTests.Native;

namespace Managed.Zmq.InteropTests;

/// <summary>
/// Socket.DisconnectPeer against libzmq, both ways: libzmq sees an ordinary disconnect (its monitor raises
/// DISCONNECTED) and, as the connecting side, reconnects; as the bound side it accepts our reconnection.
/// Socket.GetPeers describes the libzmq peer.
/// </summary>
public sealed class DisconnectPeerInteropTests
{
    private const int Events = LibZmq.ZMQ_EVENT_HANDSHAKE_SUCCEEDED | LibZmq.ZMQ_EVENT_DISCONNECTED;

    private static Socket Ours(Context context, SocketType type)
    {
        var socket = new Socket(context, type);
        socket.SetOption(SocketOption.Linger, 0);
        socket.SetOption(SocketOption.Rcvtimeo, (int)Timeouts.Io.TotalMilliseconds);
        socket.SetOption(SocketOption.Sndtimeo, (int)Timeouts.Io.TotalMilliseconds);
        return socket;
    }

    private static void ExpectEvent(NativeSocket monitor, int expected)
    {
        Assert.Equal(expected, monitor.NextEvent(Timeouts.Io));
    }

    [Fact]
    public Task DisconnectPeer_OurRouterDropsLibzmqDealer_LibzmqSeesDisconnectAndReconnects() => Deadline.Run(() =>
    {
        using var native = new NativeContext();
        using var context = new Context();
        using var router = Ours(context, SocketType.Router);
        router.Bind("tcp://127.0.0.1:*");
        using var dealer = native.Socket(SocketType.Dealer);
        dealer.SetOption(LibZmq.ZMQ_ROUTING_ID, "native");
        dealer.SetOption(LibZmq.ZMQ_RECONNECT_IVL, 20);
        using var monitor = dealer.Monitor(Events);
        dealer.Connect(router.GetOptionString(SocketOption.Last_Endpoint));
        dealer.SendMessage(Bytes.Of("hello"));
        Assert.Equal("native", router.RecvString());
        Assert.Equal("hello", router.RecvString());
        ExpectEvent(monitor, LibZmq.ZMQ_EVENT_HANDSHAKE_SUCCEEDED);
        var peer = Assert.Single(router.GetPeers());
        Assert.Equal(SocketType.Dealer, peer.PeerSocketType);
        Assert.Equal(new Version(3, 1), peer.ZmtpVersion);
        Assert.Equal("native", Encoding.ASCII.GetString(peer.RoutingId.Span));

        router.DisconnectPeer("native"u8);

        ExpectEvent(monitor, LibZmq.ZMQ_EVENT_DISCONNECTED);
        ExpectEvent(monitor, LibZmq.ZMQ_EVENT_HANDSHAKE_SUCCEEDED);
        dealer.SendMessage(Bytes.Of("again"));
        Assert.Equal("native", router.RecvString());
        Assert.Equal("again", router.RecvString());
        Assert.NotEqual(peer.RemoteEndpoint, Assert.Single(router.GetPeers()).RemoteEndpoint);
    });

    [Fact]
    public Task DisconnectPeer_OurDealerDropsLibzmqRouter_LibzmqSeesDisconnectAndOurReconnection() => Deadline.Run(() =>
    {
        using var native = new NativeContext();
        using var context = new Context();
        using var router = native.Socket(SocketType.Router);
        using var monitor = router.Monitor(Events);
        string endpoint = router.BindEphemeral();
        using var dealer = Ours(context, SocketType.Dealer);
        // No fixed routing id: libzmq's ROUTER would hold a reconnection with the same id aside until it
        // has finished with the old pipe (ROUTER_HANDOVER off), after a network fault as after this drop.
        dealer.SetOption(SocketOption.Reconnect_Ivl, 20);
        dealer.Connect(endpoint);
        dealer.Send("hello");
        var first = router.RecvMessage();
        Assert.Equal("hello", Encoding.ASCII.GetString(first[1]));
        ExpectEvent(monitor, LibZmq.ZMQ_EVENT_HANDSHAKE_SUCCEEDED);
        var peer = Assert.Single(dealer.GetPeers());
        Assert.Equal(SocketType.Router, peer.PeerSocketType);
        Assert.Equal(endpoint, peer.RemoteEndpoint);

        dealer.DisconnectPeer(peer);

        ExpectEvent(monitor, LibZmq.ZMQ_EVENT_DISCONNECTED);
        ExpectEvent(monitor, LibZmq.ZMQ_EVENT_HANDSHAKE_SUCCEEDED);
        dealer.Send("again");
        var second = router.RecvMessage();
        Assert.Equal("again", Encoding.ASCII.GetString(second[1]));
        Assert.NotEqual(first[0], second[0]);
    });
}
