#if !INTEROP_WITHOUT_CORE
using Managed.Zmq.InteropTests.Infrastructure;
using Managed.Zmq.InteropTests.Native;

namespace Managed.Zmq.InteropTests;

/// <summary>
/// A tcp connect's source address, <c>tcp://source;host:port</c>, both ways: the server, libzmq's or ours, sees the
/// connection come from the source (its Peer-Address), and an unknown source interface costs each side the
/// same monitor events, a retry without a socket.
/// </summary>
public sealed class SourceAddressInteropTests
{
    private const string Source = "127.0.0.2";

    [Fact]
    public Task Connect_OurDealerFromSource_LibzmqRouterSeesTheSource() => Deadline.Run(() =>
    {
        using var theirs = new NativeContext();
        using var router = theirs.Socket(SocketType.Router);
        string endpoint = router.BindEphemeral();
        using var ours = new Context();
        using var dealer = OurSocket(ours, SocketType.Dealer);

        dealer.Connect($"tcp://{Source}:0;{endpoint["tcp://".Length..]}");
        dealer.Send("hello");

        Assert.Equal(Source, router.RecvRoutedWithProperties("Peer-Address").Properties["Peer-Address"]);
    });

    [Fact]
    public Task Connect_LibzmqDealerFromSource_OurRouterSeesTheSource() => Deadline.Run(() =>
    {
        using var ours = new Context();
        using var router = OurSocket(ours, SocketType.Router);
        router.Bind("tcp://127.0.0.1:*");
        string endpoint = router.GetOptionString(SocketOption.Last_Endpoint);
        using var theirs = new NativeContext();
        using var dealer = theirs.Socket(SocketType.Dealer);

        dealer.Connect($"tcp://{Source}:0;{endpoint["tcp://".Length..]}");
        dealer.Send(Bytes.Of("hello"));

        using var request = router.RecvMultipart();
        Assert.Equal("hello", request.PeekLastString());
        Assert.Equal(Source, request[1].GetMetadata("Peer-Address"));
    });

    [Fact]
    public Task Connect_SourceInterfaceUnknown_RetriedWithoutASocketAsLibzmq() => Deadline.Run(() =>
    {
        // Nothing needs to listen: no attempt gets as far as connecting.
        const string endpoint = "tcp://no-such-nic0:0;127.0.0.1:9";
        using var theirs = new NativeContext();
        using var theirDealer = theirs.Socket(SocketType.Dealer);
        theirDealer.SetOption(LibZmq.ZMQ_RECONNECT_IVL, 10);
        using var theirMonitor = theirDealer.Monitor(LibZmq.ZMQ_EVENT_ALL);
        theirDealer.Connect(endpoint);
        using var ours = new Context();
        using var ourDealer = OurSocket(ours, SocketType.Dealer);
        ourDealer.SetOption(SocketOption.Reconnect_Ivl, 10);
        string monitorEndpoint = $"inproc://source-monitor-{Guid.NewGuid():N}";
        ourDealer.Monitor(monitorEndpoint, SocketMonitorEvent.All);
        using var ourMonitor = OurSocket(ours, SocketType.Pair);
        ourMonitor.Connect(monitorEndpoint);
        ourDealer.Connect(endpoint);

        for (int i = 0; i < 3; i++)
        {
            Assert.Equal(LibZmq.ZMQ_EVENT_CONNECT_RETRIED, theirMonitor.NextEvent(Timeouts.Io));
            var ourEvent = SocketMonitorEventData.Parse(ourMonitor.RecvBytes(), ourMonitor.RecvString());
            Assert.Equal(LibZmq.ZMQ_EVENT_CONNECT_RETRIED, (int)ourEvent.Event);
        }
    });

    private static Socket OurSocket(Context context, SocketType type)
    {
        var socket = new Socket(context, type);
        socket.SetOption(SocketOption.Linger, 0);
        socket.SetOption(SocketOption.Rcvtimeo, (int)Timeouts.Io.TotalMilliseconds);
        return socket;
    }
}
#endif
