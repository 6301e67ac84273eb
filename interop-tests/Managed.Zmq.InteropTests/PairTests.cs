using Managed.Zmq.InteropTests.Infrastructure;

namespace Managed.Zmq.InteropTests;

/// <summary>PAIR↔PAIR against libzmq: traffic both ways over one connection, each side binding.</summary>
public sealed class PairTests
{
    public static TheoryData<Topology> Topologies => Cases.Topologies();

    private static Link Open(Topology topology) => new(topology, SocketType.Pair, SocketType.Pair);

    [Theory, MemberData(nameof(Topologies))]
    public Task Pair_MultipartWithEmptyFrames_RoundTripsBothWays(Topology topology) => Deadline.Run(() =>
    {
        using var link = Open(topology);
        Transfer.Deliver(link.Ours, link.Theirs, Transfer.MultipartWithEmptyFrames());
        Transfer.Deliver(link.Theirs, link.Ours, Transfer.MultipartWithEmptyFrames());
        Transfer.Deliver(link.Ours, link.Theirs, [[]]);
        Transfer.Deliver(link.Theirs, link.Ours, [[]]);
    });

    [Theory, MemberData(nameof(Topologies))]
    public Task Pair_BoundaryAndMebibyteFrames_RoundTripBothWays(Topology topology) => Deadline.Run(() =>
    {
        using var link = Open(topology);
        foreach (var size in Transfer.BoundarySizes.Append(Transfer.MiB))
        {
            Transfer.Deliver(link.Ours, link.Theirs, [Bytes.Pattern(size, size)]);
            Transfer.Deliver(link.Theirs, link.Ours, [Bytes.Pattern(size, size + 1)]);
        }
    });

    [Theory, MemberData(nameof(Topologies))]
    public Task Pair_TenThousandMessagesEachWay_ArriveInOrder(Topology topology) => Deadline.Run(() =>
    {
        using var link = Open(topology);
        Transfer.Stream(link.Ours, link.Theirs);
        Transfer.Stream(link.Theirs, link.Ours);
    });
}
