using Managed.Zmq.InteropTests.Infrastructure;
using Managed.Zmq.InteropTests.Native;

namespace Managed.Zmq.InteropTests;

/// <summary>One socket with several peers of the other implementation: routing and fan-out per connection.</summary>
public sealed class FanTests
{
    public static TheoryData<bool> RouterIsManaged => new(true, false);

    [Theory, MemberData(nameof(RouterIsManaged))]
    public Task RouterFanIn_ThreeDealersWithIds_EachReplyReachesItsSender(bool routerIsManaged) => Deadline.Run(() =>
    {
        using var native = new NativeContext();
        using var managed = new ManagedPeer();
        IPeer routerPeer = routerIsManaged ? managed : native;
        IPeer dealerPeer = routerIsManaged ? native : managed;

        using var router = routerPeer.Socket(SocketType.Router);
        var endpoint = router.BindEphemeral();
        var dealers = new List<IEnd>();
        try
        {
            for (var i = 0; i < 3; i++)
            {
                var dealer = dealerPeer.Socket(SocketType.Dealer);
                dealers.Add(dealer);
                dealer.SetOption(LibZmq.ZMQ_ROUTING_ID, Bytes.Of($"dealer-{i}"));
                dealer.Connect(endpoint);
            }

            for (var i = 0; i < dealers.Count; i++)
                dealers[i].SendMessage(Bytes.Of($"from {i}"));

            var seen = new HashSet<string>();
            for (var i = 0; i < dealers.Count; i++)
            {
                var message = router.RecvMessage();
                Assert.Equal(2, message.Length);
                var id = Bytes.Text(message[0]);
                Assert.Equal($"from {id["dealer-".Length..]}", Bytes.Text(message[1]));
                Assert.True(seen.Add(id), $"{id} arrived twice");
            }

            // Reply in reverse order: each DEALER must get exactly its own reply.
            for (var i = dealers.Count - 1; i >= 0; i--)
                router.SendMessage(Bytes.Of($"dealer-{i}"), Bytes.Of($"to {i}"));
            for (var i = 0; i < dealers.Count; i++)
                Bytes.Equal([Bytes.Of($"to {i}")], dealers[i].RecvMessage(), $"reply to dealer-{i}");
        }
        finally
        {
            foreach (var dealer in dealers)
                dealer.Dispose();
        }
    });

    [Theory, MemberData(nameof(RouterIsManaged))]
    public Task PubFanOut_TwoSubscribersOfTheOtherKind_EachGetsEveryMatchingMessage(bool pubIsManaged) => Deadline.Run(() =>
    {
        using var native = new NativeContext();
        using var managed = new ManagedPeer();
        IPeer pubPeer = pubIsManaged ? managed : native;
        IPeer subPeer = pubIsManaged ? native : managed;

        using var pub = pubPeer.Socket(SocketType.Pub);
        var endpoint = pub.BindEphemeral();
        using var first = subPeer.Socket(SocketType.Sub);
        using var second = subPeer.Socket(SocketType.Sub);
        first.Subscribe(Bytes.Of("a"));
        second.Subscribe(Bytes.Of("ab"));
        first.Connect(endpoint);
        second.Connect(endpoint);
        Transfer.WaitForSubscription(pub, first, Bytes.Of("ab/probe"));
        Transfer.WaitForSubscription(pub, second, Bytes.Of("ab/probe"));

        pub.SendMessage(Bytes.Of("a-only"));
        pub.SendMessage(Bytes.Of("ab-both"), Bytes.Pattern(300));
        pub.SendMessage(Bytes.Of("zzz"));
        Bytes.Equal([Bytes.Of("a-only")], Transfer.RecvSkipping(first, Bytes.Of("ab/probe")), "first subscriber");
        Bytes.Equal([Bytes.Of("ab-both"), Bytes.Pattern(300)], first.RecvMessage(), "first subscriber");
        Bytes.Equal([Bytes.Of("ab-both"), Bytes.Pattern(300)], Transfer.RecvSkipping(second, Bytes.Of("ab/probe")), "second subscriber");
    });
}
