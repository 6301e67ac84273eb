using Managed.Zmq.InteropTests.Infrastructure;
using Managed.Zmq.InteropTests.Native;

namespace Managed.Zmq.InteropTests;

/// <summary>
/// Heartbeats at 1 ms under a stream of multipart messages. libzmq sends PING whenever its timer fires,
/// between the frames of a message too (RFC 37 §Connection Heartbeating): the receiver must answer it
/// and deliver every message whole, none split and no PING as a data frame.
/// </summary>
public sealed class HeartbeatInterleavingTests
{
    private const int Messages = 20_000;

    private static readonly byte[] DealerId = Bytes.Of("hb-dealer");

    /// <summary>Pings every millisecond; a long timeout so that a loaded machine cannot drop the link mid-stream.</summary>
    private static void FastHeartbeats(IEnd end)
    {
        end.SetOption(LibZmq.ZMQ_HEARTBEAT_IVL, 1);
        end.SetOption(LibZmq.ZMQ_HEARTBEAT_TIMEOUT, 10_000);
    }

    private static byte[][] ThreeFrames(int i) => [Transfer.StreamFrame(i), Bytes.Of($"middle-{i}"), Bytes.Of($"last-{i}")];

    [Theory]
    [InlineData(Topology.ManagedBinds)]
    [InlineData(Topology.NativeBinds)]
    public Task Heartbeat_LibzmqDealerPingsEveryMs_RouterGetsEveryMessageWhole(Topology topology) => Deadline.Run(() =>
    {
        using var link = new Link(topology, SocketType.Router, SocketType.Dealer,
            configureOurs: null,
            configureTheirs: end =>
            {
                end.SetOption(LibZmq.ZMQ_ROUTING_ID, DealerId);
                FastHeartbeats(end);
            });

        Transfer.Stream(link.Theirs, link.Ours, Messages, ThreeFrames, i => [DealerId, .. ThreeFrames(i)]);
    });

    /// <summary>
    /// Request and reply, so our side reads each reply on its read turn (docs/ARCHITECTURE.md): the PINGs it reads there
    /// go back to the read loop, which answers them; a 64 KiB reply now and then takes the large-frame path.
    /// </summary>
    [Theory]
    [InlineData(Topology.ManagedBinds, SocketType.Req)]
    [InlineData(Topology.NativeBinds, SocketType.Req)]
    [InlineData(Topology.ManagedBinds, SocketType.Rep)]
    [InlineData(Topology.NativeBinds, SocketType.Rep)]
    public Task Heartbeat_LibzmqPingsEveryMsDuringRoundTrips_EveryMessageWhole(Topology topology, SocketType ours) => Deadline.Run(() =>
    {
        var theirs = ours == SocketType.Req ? SocketType.Rep : SocketType.Req;
        using var link = new Link(topology, ours, theirs, configureOurs: null, configureTheirs: FastHeartbeats);
        var (req, rep) = ours == SocketType.Req ? (link.Ours, link.Theirs) : (link.Theirs, link.Ours);
        for (int i = 0; i < Messages / 4; i++)
        {
            Transfer.Deliver(req, rep, ThreeFrames(i));
            Transfer.Deliver(rep, req, i % 500 == 0 ? [Bytes.Pattern(64 * 1024, i)] : [Transfer.StreamFrame(i), Bytes.Of($"reply-{i}")]);
        }
    });

    [Theory]
    [InlineData(Topology.ManagedBinds)]
    [InlineData(Topology.NativeBinds)]
    public Task Heartbeat_BothPingEveryMs_LibzmqRouterGetsEveryMessageWhole(Topology topology) => Deadline.Run(() =>
    {
        using var link = new Link(topology, SocketType.Dealer, SocketType.Router,
            configureOurs: end =>
            {
                end.SetOption(LibZmq.ZMQ_ROUTING_ID, DealerId);
                FastHeartbeats(end);
            },
            configureTheirs: FastHeartbeats);

        Transfer.Stream(link.Ours, link.Theirs, Messages, ThreeFrames, i => [DealerId, .. ThreeFrames(i)]);
    });

    /// <summary>
    /// A stream of large messages from libzmq: our PULL reads them on its read turn (docs/ARCHITECTURE.md), body and all,
    /// and the PINGs libzmq puts after a body go back to the read loop, which answers them. Every tenth message is small,
    /// so the stream leaves the turn and comes back to it.
    /// </summary>
    [Theory]
    [InlineData(Topology.ManagedBinds, Transport.Tcp)]
    [InlineData(Topology.NativeBinds, Transport.Tcp)]
    [InlineData(Topology.ManagedBinds, Transport.Ipc)]
    [InlineData(Topology.NativeBinds, Transport.Ipc)]
    public Task Heartbeat_LibzmqPingsEveryMsDuringLargeStream_EveryMessageWhole(Topology topology, Transport transport) => Deadline.Run(() =>
    {
        using var link = new Link(topology, SocketType.Pull, SocketType.Push, configureOurs: null, configureTheirs: FastHeartbeats, transport);
        Transfer.Stream(link.Theirs, link.Ours, LargeMessages, LargeOrSmall);
    });

    /// <summary>
    /// A stream of large messages to libzmq over tcp: our write loop corks the connection while large frames queue
    /// (docs/ARCHITECTURE.md, section 3), so segments no longer end where messages do, and our PONGs and the small
    /// messages uncork it. libzmq gets every message whole, pinging every millisecond meanwhile.
    /// </summary>
    [Theory]
    [InlineData(Topology.ManagedBinds)]
    [InlineData(Topology.NativeBinds)]
    public Task Heartbeat_LibzmqPingsEveryMsDuringOurCorkedLargeStream_EveryMessageWhole(Topology topology) => Deadline.Run(() =>
    {
        using var link = new Link(topology, SocketType.Push, SocketType.Pull, configureOurs: null, configureTheirs: FastHeartbeats, Transport.Tcp);
        Transfer.Stream(link.Ours, link.Theirs, LargeMessages, LargeOrSmall);
    });

    /// <summary>Large replies from libzmq, every one read on our REQ's read turn while libzmq pings every millisecond.</summary>
    [Theory]
    [InlineData(Topology.ManagedBinds, Transport.Tcp)]
    [InlineData(Topology.NativeBinds, Transport.Tcp)]
    [InlineData(Topology.ManagedBinds, Transport.Ipc)]
    [InlineData(Topology.NativeBinds, Transport.Ipc)]
    public Task Heartbeat_LibzmqPingsEveryMsDuringLargeReplies_EveryReplyWhole(Topology topology, Transport transport) => Deadline.Run(() =>
    {
        using var link = new Link(topology, SocketType.Req, SocketType.Rep, configureOurs: null, configureTheirs: FastHeartbeats, transport);
        for (int i = 0; i < LargeMessages / 2; i++)
        {
            Transfer.Deliver(link.Ours, link.Theirs, [Transfer.StreamFrame(i)]);
            Transfer.Deliver(link.Theirs, link.Ours, i % 7 == 3 ? [Bytes.Pattern(64 * 1024 + i, i), Bytes.Pattern(40 * 1024, i + 1)] : LargeOrSmall(i));
        }
    });

    private const int LargeMessages = 2_000;

    /// <summary>The i-th message of a large stream: 64 KiB and a little, but every tenth small.</summary>
    private static byte[][] LargeOrSmall(int i) => i % 10 == 9 ? [Transfer.StreamFrame(i)] : [Bytes.Pattern(64 * 1024 + i % 300, i)];
}
