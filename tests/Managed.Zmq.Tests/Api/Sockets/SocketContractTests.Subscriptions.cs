using System.Diagnostics;

namespace Managed.Zmq.Tests.Api.Sockets;

/// <summary>
/// Subscriptions at scale and the XPUB options that shape them (RFC 29, docs/libzmq-behaviour.md L12): a flood of
/// subscriptions from one peer does not hold back another subscriber, verbose modes pass duplicates
/// and non-last cancels upstream, Invert_Matching, and Xpub_Manual.
/// </summary>
public abstract partial class SocketContractTests
{
    private const int FloodSubscriptions = 100_000;

    [Fact]
    public void Pub_HundredThousandSubscriptionsFromAnotherPeer_ExistingSubscriberKeepsReceivingInOrder()
    {
        var (pub, sub) = Pair(SocketType.Pub, SocketType.Sub);
        sub.Subscribe("A");
        WaitUntilSubscribed(pub, sub, Probe);

        var flood = Create(SocketType.Sub);
        flood.Connect(pub.GetOptionString(SocketOption.Last_Endpoint));
        for (int i = 0; i < FloodSubscriptions; i++)
        {
            flood.Subscribe($"t{i}.");
        }

        flood.Subscribe("last");

        // Lockstep: every message to the existing subscriber arrives, in order, while the flood is
        // applied; "last" reaches the flooding peer once its every subscription has been applied.
        var clock = Stopwatch.StartNew();
        int sent = 0;
        while (TryRecvString(flood, 1) != "last")
        {
            Assert.True(clock.ElapsedMilliseconds < 6 * Timeout, $"the flood was not applied; {sent} messages sent");
            pub.Send($"A-{sent}");
            Assert.Equal($"A-{sent}", RecvSkipping(sub, Probe));
            sent++;
            pub.Send("last");
        }

        pub.Send("t0.first");
        pub.Send($"t{FloodSubscriptions - 1}.end");
        pub.Send("u-unsubscribed");
        pub.Send("A-end");

        Assert.Equal("A-end", RecvSkipping(sub, Probe));
        Assert.Equal("t0.first", RecvSkipping(flood, "last"));
        Assert.Equal($"t{FloodSubscriptions - 1}.end", flood.RecvString());
        Assert.Null(TryRecvString(sub, 0));
    }

    [Fact]
    public void XPub_Verbose_DuplicateSubscribePassedUpButNotNonLastCancel()
    {
        var (xpub, sub1) = Pair(SocketType.XPub, SocketType.Sub);
        xpub.SetOption(SocketOption.Xpub_Verbose, 1);
        var sub2 = Create(SocketType.Sub);
        sub2.Connect(xpub.GetOptionString(SocketOption.Last_Endpoint));

        Assert.Equal("\u0001topic", SubscribeAndRecv(xpub, sub1, "topic"));
        Assert.Equal("\u0001topic", SubscribeAndRecv(xpub, sub2, "topic"));

        sub1.Unsubscribe("topic");
        Assert.Equal("\u0001marker", SubscribeAndRecv(xpub, sub1, "marker"));
        sub2.Unsubscribe("topic");
        Assert.Equal("\u0000topic", RecvPumping(xpub, sub2));
    }

    [Fact]
    public void XPub_Verboser_EveryCancelPassedUp()
    {
        var (xpub, sub1) = Pair(SocketType.XPub, SocketType.Sub);
        xpub.SetOption(SocketOption.Xpub_Verboser, 1);
        var sub2 = Create(SocketType.Sub);
        sub2.Connect(xpub.GetOptionString(SocketOption.Last_Endpoint));

        Assert.Equal("\u0001topic", SubscribeAndRecv(xpub, sub1, "topic"));
        Assert.Equal("\u0001topic", SubscribeAndRecv(xpub, sub2, "topic"));

        sub1.Unsubscribe("topic");
        Assert.Equal("\u0000topic", RecvPumping(xpub, sub1));
        sub2.Unsubscribe("topic");
        Assert.Equal("\u0000topic", RecvPumping(xpub, sub2));
    }

    [Fact]
    public void XPub_InvertMatching_SendsToConnectionsWithoutAMatchingPrefix()
    {
        // XSUB does not filter, so what it receives is the publisher's choice alone.
        var (xpub, subscribed) = Pair(SocketType.XPub, SocketType.XSub);
        xpub.SetOption(SocketOption.Invert_Matching, 1);
        var bystander = Create(SocketType.XSub);
        bystander.Connect(xpub.GetOptionString(SocketOption.Last_Endpoint));
        subscribed.Send("\u0001A");
        Assert.Equal("\u0001A", xpub.RecvString());

        // The bystander holds no subscription, so it must get every message: wait until it is attached.
        Support.Eventually.True(
            () =>
            {
                xpub.Send("probe");
                return TryRecvString(bystander, 10) == "probe";
            },
            "the bystander is attached");

        foreach (string message in new[] { "A-1", "B-1", "AB", "", "a", "C-end" })
        {
            xpub.Send(message);
        }

        Assert.Equal(["B-1", "", "a", "C-end"], Enumerable.Range(0, 4).Select(_ => RecvSkipping(subscribed, "probe")).ToArray());
        Assert.Equal(["A-1", "B-1", "AB", "", "a", "C-end"], Enumerable.Range(0, 6).Select(_ => RecvSkipping(bystander, "probe")).ToArray());
    }

    [Fact]
    public void XPub_Manual_ApplicationChoosesTheLastSubscribersTopics()
    {
        var (xpub, xsub) = Pair(SocketType.XPub, SocketType.XSub);
        xpub.SetOption(SocketOption.Xpub_Manual, 1);

        xsub.Send("\u0001x");
        Assert.Equal("\u0001x", xpub.RecvString());
        xpub.Subscribe("y");
        xpub.Send("x-1");
        xpub.Send("y-1");
        Assert.Equal("y-1", xsub.RecvString());

        xsub.Send("\u0000x");
        Assert.Equal("\u0000x", xpub.RecvString());
        xpub.Unsubscribe("y");
        xpub.Subscribe("z");
        xpub.Send("y-2");
        xpub.Send("z-1");
        Assert.Equal("z-1", xsub.RecvString());
    }
}
