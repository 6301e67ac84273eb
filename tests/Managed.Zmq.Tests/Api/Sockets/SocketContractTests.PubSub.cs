namespace Managed.Zmq.Tests.Api.Sockets;

/// <summary>
/// PUB/SUB, XPUB and XSUB (RFC 29, docs/libzmq-behaviour.md L12): prefix filters, counted local
/// subscriptions, XPUB's view of first subscribe / last unsubscribe, and XSUB's message form.
/// Publishers probe in a bounded loop until the first message arrives (the slow joiner).
/// </summary>
public abstract partial class SocketContractTests
{
    private const string Probe = "A-probe";

    [Theory]
    [InlineData(true)]
    [InlineData(false)]
    public void PubSub_PrefixFilter_OnlyMatchingMessagesDelivered(bool pubBinds)
    {
        var (pub, sub) = pubBinds ? Pair(SocketType.Pub, SocketType.Sub) : Swap(Pair(SocketType.Sub, SocketType.Pub));
        sub.Subscribe("A");
        WaitUntilSubscribed(pub, sub, Probe);

        foreach (string topic in new[] { "B-1", "A-1", "a-2", "AB-3", "", "C", "A" })
        {
            pub.Send(topic);
        }

        pub.Send("A-end");
        Assert.Equal(["A-1", "AB-3", "A", "A-end"], Enumerable.Range(0, 4).Select(_ => RecvSkipping(sub, Probe)).ToArray());
    }

    [Fact]
    public void PubSub_EmptySubscription_ReceivesEverythingMultipartIncluded()
    {
        var (pub, sub) = Pair(SocketType.Pub, SocketType.Sub);
        sub.SubscribeAll();
        WaitUntilSubscribed(pub, sub, Probe);

        SendMessage(pub, "", "body");
        SendMessage(pub, "x", "y", "z");

        Assert.Equal(["", "body"], RecvSkippingMessage(sub, Probe));
        Assert.Equal(["x", "y", "z"], RecvMessage(sub));
    }

    [Fact]
    public void PubSub_FilteredMultipart_DroppedWhole()
    {
        var (pub, sub) = Pair(SocketType.Pub, SocketType.Sub);
        sub.Subscribe("A");
        WaitUntilSubscribed(pub, sub, Probe);

        SendMessage(pub, "B", "A-looks-like-a-topic", "A");
        SendMessage(pub, "A-end", "tail");

        Assert.Equal(["A-end", "tail"], RecvSkippingMessage(sub, Probe));
    }

    [Fact]
    public void Sub_Unsubscribe_StopsThatTopicOnly()
    {
        var (pub, sub) = Pair(SocketType.Pub, SocketType.Sub);
        sub.Subscribe("A");
        sub.Subscribe("B");
        WaitUntilSubscribed(pub, sub, Probe);

        sub.Unsubscribe("A");
        pub.Send("A-after");
        pub.Send("B-end");

        Assert.Equal("B-end", RecvSkipping(sub, Probe));
    }

    [Fact]
    public void Sub_SubscribedTwice_NeedsTwoUnsubscribes()
    {
        var (pub, sub) = Pair(SocketType.Pub, SocketType.Sub);
        sub.Subscribe("A");
        sub.Subscribe("A");
        sub.Subscribe("Z");
        WaitUntilSubscribed(pub, sub, Probe);

        sub.Unsubscribe("A");
        pub.Send("A-still");
        Assert.Equal("A-still", RecvSkipping(sub, Probe));

        sub.Unsubscribe("A");
        pub.Send("A-gone");
        pub.Send("Z-end");
        Assert.Equal("Z-end", RecvSkipping(sub, Probe));
    }

    [Fact]
    public void Sub_UnsubscribeNeverSubscribed_Ignored()
    {
        var (pub, sub) = Pair(SocketType.Pub, SocketType.Sub);
        sub.Subscribe("A");
        sub.Unsubscribe("never");
        WaitUntilSubscribed(pub, sub, Probe);

        pub.Send("A-1");

        Assert.Equal("A-1", RecvSkipping(sub, Probe));
    }

    [Fact]
    public void Sub_SendOnSub_NotSupported()
    {
        var sub = Create(SocketType.Sub);

        AssertZmqError(ZmqConstants.ENOTSUP, () => sub.Send("x"));
    }

    [Fact]
    public async Task Pub_NoSubscribers_SendNeverBlocks()
    {
        var pub = Create(SocketType.Pub);
        pub.SetOption(SocketOption.Sndhwm, 1);
        pub.SetOption(SocketOption.Sndtimeo, -1);
        Bind(pub);

        await SendsWithoutBlockingAsync(10_000, () => Assert.True(pub.Send("dropped")), "PUB blocked with no subscriber");
    }

    [Fact]
    public async Task Pub_SubscriberNotReading_DropsInsteadOfBlocking()
    {
        var (pub, sub) = Pair(SocketType.Pub, SocketType.Sub);
        sub.SubscribeAll();
        WaitUntilSubscribed(pub, sub, Probe);
        pub.SetOption(SocketOption.Sndtimeo, -1);

        // Far more than HWM plus the OS buffers can hold; PUB must drop, never wait.
        var payload = new byte[1024];
        var sending = Task.Run(() =>
        {
            for (int i = 0; i < 50_000; i++)
            {
                pub.Send(payload);
            }
        });

        await CompletesAsync(sending, "PUB blocked on a subscriber that does not read");
    }

    [Fact]
    public void XPub_ConnectingSubscriberIdleAfterSubscribe_SubscriptionStillReported()
    {
        // libzmq attaches a connecting socket's pipe in zmq_connect, so a SUBSCRIBE made right
        // after Connect goes out when the connection comes up, whatever the SUB's thread does next.
        var (xpub, sub) = Pair(SocketType.XPub, SocketType.Sub);

        sub.Subscribe("topic");

        Assert.Equal("\u0001topic", xpub.RecvString());
    }

    [Theory]
    [InlineData(true)]
    [InlineData(false)]
    public void XPub_FirstSubscribeAndLastUnsubscribe_Reported(bool xpubBinds)
    {
        var (xpub, sub) = xpubBinds ? Pair(SocketType.XPub, SocketType.Sub) : Swap(Pair(SocketType.Sub, SocketType.XPub));

        Assert.Equal("\u0001topic", SubscribeAndRecv(xpub, sub, "topic"));

        // Local subscriptions are counted; the publisher keeps a set per connection (docs/libzmq-behaviour.md L12).
        sub.Subscribe("topic");
        sub.Unsubscribe("topic");
        Assert.Equal("\u0001marker", SubscribeAndRecv(xpub, sub, "marker"));

        sub.Unsubscribe("topic");
        Assert.Equal("\u0000topic", RecvPumping(xpub, sub));
    }

    [Fact]
    public void XPub_SameTopicFromSecondSubscriber_ReportedOnlyOnceAndOnlyLastUnsubscribe()
    {
        var (xpub, sub1) = Pair(SocketType.XPub, SocketType.Sub);
        Assert.Equal("\u0001topic", SubscribeAndRecv(xpub, sub1, "topic"));
        var sub2 = Create(SocketType.Sub);
        sub2.Connect(xpub.GetOptionString(SocketOption.Last_Endpoint));

        sub2.Subscribe("topic");
        Assert.Equal("\u0001other", SubscribeAndRecv(xpub, sub2, "other"));

        sub1.Unsubscribe("topic");
        Assert.Equal("\u0001marker", SubscribeAndRecv(xpub, sub1, "marker"));

        sub2.Unsubscribe("topic");
        Assert.Equal("\u0000topic", RecvPumping(xpub, sub2));
    }

    [Fact]
    public void XPub_SubscriberDisconnects_UnsubscribesReported()
    {
        var (xpub, sub) = Pair(SocketType.XPub, SocketType.Sub);
        Assert.Equal("\u0001one", SubscribeAndRecv(xpub, sub, "one"));
        Assert.Equal("\u0001two", SubscribeAndRecv(xpub, sub, "two"));

        sub.Dispose();

        string[] unsubscribes = [xpub.RecvString(), xpub.RecvString()];
        Assert.Equal(["\u0000one", "\u0000two"], unsubscribes.Order(StringComparer.Ordinal));
    }

    [Fact]
    public void XPub_SendsToMatchingSubscriberOnly()
    {
        var (xpub, sub) = Pair(SocketType.XPub, SocketType.Sub);
        Assert.Equal("\u0001A", SubscribeAndRecv(xpub, sub, "A"));

        xpub.Send("B-skip");
        xpub.Send("A-1");

        Assert.Equal("A-1", sub.RecvString());
    }

    [Theory]
    [InlineData(true)]
    [InlineData(false)]
    public void XSub_SubscribeBySendingMessage_ReceivesMatching(bool pubBinds)
    {
        var (pub, xsub) = pubBinds ? Pair(SocketType.Pub, SocketType.XSub) : Swap(Pair(SocketType.XSub, SocketType.Pub));

        xsub.Send("\u0001A");
        WaitUntilSubscribed(pub, xsub, Probe);
        pub.Send("B-1");
        pub.Send("A-1");

        Assert.Equal("A-1", RecvSkipping(xsub, Probe));

        xsub.Send("\u0000A");
        xsub.Send("\u0001Z");
        WaitUntilSubscribed(pub, xsub, "Z-probe");
        pub.Send("A-after");
        pub.Send("Z-end");
        Assert.Equal("Z-end", RecvSkipping(xsub, "Z-probe"));
    }

    [Fact]
    public void XSub_XPubSeesSubscriptionMessages()
    {
        var (xpub, xsub) = Pair(SocketType.XPub, SocketType.XSub);

        xsub.Send("\u0001news");

        Assert.Equal("\u0001news", xpub.RecvString());
        xsub.Send("\u0000news");
        Assert.Equal("\u0000news", xpub.RecvString());
    }

    [Fact]
    public void XSub_SubscriptionSentBeforeConnect_ReplayedToLaterPublisher()
    {
        // Remembered for publishers that connect later. libzmq replays it in
        // xsub_t::xattach_pipe, run inside zmq_connect, with no further call on the XSUB.
        var xsub = Create(SocketType.XSub);
        xsub.Send("\u0001A");
        var xpub = Create(SocketType.XPub);

        xsub.Connect(Bind(xpub));

        Assert.Equal("\u0001A", xpub.RecvString());
    }

    /// <summary>Subscribes <paramref name="sub"/> and returns the next thing the XPUB receives.</summary>
    private static string SubscribeAndRecv(Socket xpub, Socket sub, string topic)
    {
        sub.Subscribe(topic);
        return RecvPumping(xpub, sub);
    }

    /// <summary>
    /// Receives on <paramref name="xpub"/> while letting <paramref name="sub"/> process its socket
    /// events (reading <c>Events</c>, as libzmq's getsockopt does), which a SUB that accepted the
    /// connection needs before its subscriptions can go out.
    /// </summary>
    private static string RecvPumping(Socket xpub, Socket sub)
    {
        string? received = null;
        Support.Eventually.True(
            () =>
            {
                sub.GetOption<int>(SocketOption.Events);
                received = TryRecvString(xpub, 10);
                return received is not null;
            },
            "the XPUB receives a subscription message");
        return received!;
    }

    private static string[] RecvSkippingMessage(Socket socket, string skip)
    {
        while (true)
        {
            string[] message = RecvMessage(socket);
            if (message is not [var only] || only != skip)
            {
                return message;
            }
        }
    }
}
