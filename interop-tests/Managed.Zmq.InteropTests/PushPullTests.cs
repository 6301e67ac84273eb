using Managed.Zmq.InteropTests.Infrastructure;

namespace Managed.Zmq.InteropTests;

/// <summary>PUSH→PULL against libzmq: ours pushing and ours pulling, each binding and connecting.</summary>
public sealed class PushPullTests
{
    public static TheoryData<Topology, SocketType> Roles => Cases.Roles(SocketType.Push, SocketType.Pull);

    private static Link Open(Topology topology, SocketType ours) =>
        new(topology, ours, Cases.Peer(ours, SocketType.Push, SocketType.Pull));

    [Theory, MemberData(nameof(Roles))]
    public Task PushPull_SingleFrame_Arrives(Topology topology, SocketType ours) => Deadline.Run(() =>
    {
        using var link = Open(topology, ours);
        Transfer.Deliver(link[SocketType.Push], link[SocketType.Pull], [Bytes.Of("hello")]);
    });

    [Theory, MemberData(nameof(Roles))]
    public Task PushPull_MultipartWithEmptyFrames_ArrivesWhole(Topology topology, SocketType ours) => Deadline.Run(() =>
    {
        using var link = Open(topology, ours);
        var (push, pull) = (link[SocketType.Push], link[SocketType.Pull]);
        Transfer.Deliver(push, pull, Transfer.MultipartWithEmptyFrames());
        Transfer.Deliver(push, pull, [[]]);
        Transfer.Deliver(push, pull, [[], []]);
    });

    [Theory, MemberData(nameof(Roles))]
    public Task PushPull_FramesAroundShortLongBoundary_ArriveIntact(Topology topology, SocketType ours) => Deadline.Run(() =>
    {
        using var link = Open(topology, ours);
        var (push, pull) = (link[SocketType.Push], link[SocketType.Pull]);
        foreach (var size in Transfer.BoundarySizes)
            Transfer.Deliver(push, pull, [Bytes.Pattern(size, size)]);
        Transfer.Deliver(push, pull, Transfer.BoundarySizes.Select(size => Bytes.Pattern(size, size)).ToArray());
    });

    [Theory, MemberData(nameof(Roles))]
    public Task PushPull_OneMebibyte_ArrivesIntact(Topology topology, SocketType ours) => Deadline.Run(() =>
    {
        using var link = Open(topology, ours);
        var (push, pull) = (link[SocketType.Push], link[SocketType.Pull]);
        Transfer.Deliver(push, pull, [Bytes.Pattern(Transfer.MiB)]);
        Transfer.Deliver(push, pull, [Bytes.Pattern(Transfer.MiB, 5), [], Bytes.Pattern(Transfer.MiB + 1, 6)]);
    });

    [Theory, MemberData(nameof(Roles))]
    public Task PushPull_TenThousandMessages_ArriveCompleteAndInOrder(Topology topology, SocketType ours) => Deadline.Run(() =>
    {
        using var link = Open(topology, ours);
        Transfer.Stream(link[SocketType.Push], link[SocketType.Pull]);
    });

    [Theory, MemberData(nameof(Roles))]
    public Task PushPull_TenThousandMultipartMessages_NeverInterleave(Topology topology, SocketType ours) => Deadline.Run(() =>
    {
        using var link = Open(topology, ours);
        Transfer.Stream(link[SocketType.Push], link[SocketType.Pull],
            make: i => [Transfer.StreamFrame(i), [], Bytes.Of($"tail {i}")]);
    });
}
