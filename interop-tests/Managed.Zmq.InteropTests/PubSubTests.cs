using Managed.Zmq.InteropTests.Infrastructure;
using Managed.Zmq.InteropTests.Native;

namespace Managed.Zmq.InteropTests;

/// <summary>
/// PUB→SUB against libzmq, both roles and topologies. The slow joiner is handled by publishing a
/// probe until it arrives; nothing sleeps.
/// </summary>
public sealed class PubSubTests
{
    public static TheoryData<Topology, SocketType> Roles => Cases.Roles(SocketType.Pub, SocketType.Sub);

    private static readonly byte[] Probe = Bytes.Of("sync/probe");

    private static Link Open(Topology topology, SocketType ours, Action<IEnd>? configure = null) =>
        new(topology, ours, Cases.Peer(ours, SocketType.Pub, SocketType.Sub), configure, configure);

    [Theory, MemberData(nameof(Roles))]
    public Task PubSub_SubscribedPrefix_DeliveredAndOthersFiltered(Topology topology, SocketType ours) => Deadline.Run(() =>
    {
        using var link = Open(topology, ours);
        var (pub, sub) = (link[SocketType.Pub], link[SocketType.Sub]);
        sub.Subscribe(Bytes.Of("weather"));
        sub.Subscribe(Bytes.Of("sync/"));
        Transfer.WaitForSubscription(pub, sub, Probe);

        byte[][][] wanted =
        [
            [Bytes.Of("weather 1")],
            [Bytes.Of("weatherman"), [], Bytes.Of("multipart")],
            [Bytes.Of("weather"), Bytes.Pattern(255), Bytes.Pattern(256)],
            [Bytes.Of("weather/big"), Bytes.Pattern(Transfer.MiB)],
        ];
        pub.SendMessage(Bytes.Of("sports 1"));
        pub.SendMessage([], Bytes.Of("empty topic is not a prefix match of weather"));
        foreach (var message in wanted)
        {
            pub.SendMessage(message);
            pub.SendMessage(Bytes.Of("wea"), Bytes.Of("shorter than the prefix"));
        }

        foreach (var message in wanted)
            Bytes.Equal(message, Transfer.RecvSkipping(sub, Probe), $"{pub.Name} → {sub.Name}");
    });

    [Theory, MemberData(nameof(Roles))]
    public Task PubSub_SubscribeAll_ReceivesEverythingIncludingEmptyTopic(Topology topology, SocketType ours) => Deadline.Run(() =>
    {
        using var link = Open(topology, ours);
        var (pub, sub) = (link[SocketType.Pub], link[SocketType.Sub]);
        sub.Subscribe([]);
        Transfer.WaitForSubscription(pub, sub, Probe);

        pub.SendMessage([[]]);
        pub.SendMessage([], Bytes.Of("after an empty topic frame"));
        pub.SendMessage(Bytes.Of("anything"));
        Bytes.Equal([[]], Transfer.RecvSkipping(sub, Probe), "empty message");
        Bytes.Equal([[], Bytes.Of("after an empty topic frame")], sub.RecvMessage(), "empty topic frame");
        Bytes.Equal([Bytes.Of("anything")], sub.RecvMessage(), "any topic");
    });

    [Theory, MemberData(nameof(Roles))]
    public Task PubSub_Unsubscribe_StopsDeliveryOfThatPrefixOnly(Topology topology, SocketType ours) => Deadline.Run(() =>
    {
        using var link = Open(topology, ours);
        var (pub, sub) = (link[SocketType.Pub], link[SocketType.Sub]);
        sub.Subscribe(Bytes.Of("A"));
        sub.Subscribe(Bytes.Of("sync/"));
        Transfer.WaitForSubscription(pub, sub, Probe);

        sub.Unsubscribe(Bytes.Of("A"));
        sub.Subscribe(Bytes.Of("C"));

        // Subscriptions travel in order on one connection, so once a "C" message gets through, the
        // publisher has applied the unsubscription from "A" too: no "A" may arrive after that "C".
        var round = 0;
        Deadline.RetryUntil(() =>
        {
            pub.SendMessage(Bytes.Of($"A {round}"));
            pub.SendMessage(Bytes.Of($"C {round}"));
            round++;
            for (var got = sub.TryRecvMessage(Timeouts.Probe); got is not null; got = sub.TryRecvMessage(TimeSpan.FromMilliseconds(1)))
            {
                if (Bytes.Text(got[0]).StartsWith('C'))
                    return true;
            }

            return false;
        }, "the subscription to C to reach the publisher");

        pub.SendMessage(Bytes.Of("A after"));
        pub.SendMessage(Bytes.Of("C end"));
        while (true)
        {
            var text = Bytes.Text(Transfer.RecvSkipping(sub, Probe)[0]);
            if (text == "C end")
                break;
            Assert.False(text.StartsWith('A'), $"{sub.Name} received \"{text}\" after its unsubscription from A took effect.");
        }
    });

    [Theory, MemberData(nameof(Roles))]
    public Task PubSub_TenThousandMessages_ArriveCompleteAndInOrder(Topology topology, SocketType ours) => Deadline.Run(() =>
    {
        // A PUB drops at its high-water mark, so lift the limit to require every message.
        using var link = Open(topology, ours, Unlimited.Hwm);
        var (pub, sub) = (link[SocketType.Pub], link[SocketType.Sub]);
        sub.Subscribe([]);
        Transfer.WaitForSubscription(pub, sub, Probe);
        pub.SendMessage(Bytes.Of("start"));
        Bytes.Equal([Bytes.Of("start")], Transfer.RecvSkipping(sub, Probe), "start marker");
        Transfer.Stream(pub, sub);
    });
}
