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
}
