using System.Diagnostics;

namespace Managed.Zmq.Tests.Api.Sockets;

/// <summary>RADIO and DISH (RFC 48, libzmq's draft types): groups, Join/Leave, exact matching, libzmq's errors.</summary>
public abstract partial class SocketContractTests
{
    /// <summary>The group <see cref="WaitUntilJoined"/> probes with; left afterwards, so stray probes are dropped.</summary>
    private const string JoinProbeGroup = "probe";

    [Theory]
    [InlineData(true)]
    [InlineData(false)]
    public void RadioDish_JoinedGroup_MessageArrivesWithItsGroup(bool dishBinds)
    {
        var (radio, dish) = dishBinds ? Swap(Pair(SocketType.Dish, SocketType.Radio)) : Pair(SocketType.Radio, SocketType.Dish);
        dish.Join("weather");
        WaitUntilJoined(radio, dish);

        SendToGroup(radio, "weather", "sunny");

        using var message = new Message();
        dish.Recv(message);
        Assert.Equal("sunny", message.ToString());
        Assert.Equal("weather", message.Group);
        Assert.False(message.More);
    }

    [Fact]
    public async Task RadioDish_SendMultipartAsyncOneFrameWithGroup_ArrivesWithItsGroup()
    {
        var (radio, dish) = Pair(SocketType.Radio, SocketType.Dish);
        dish.Join("weather");
        WaitUntilJoined(radio, dish);

        using (var outgoing = new MultipartMessage())
        {
            outgoing.Add(new Message("sunny") { Group = "weather" });
            await radio.SendMultipartAsync(outgoing).AsTask().WaitAsync(TimeSpan.FromMilliseconds(Timeout));

            // Sent as Send(Message) leaves a message: empty, without its group.
            Assert.Equal(string.Empty, outgoing.First.Group);
        }

        using var message = new Message();
        dish.Recv(message);
        Assert.Equal("sunny", message.ToString());
        Assert.Equal("weather", message.Group);
    }

    [Fact]
    public void RadioDish_OtherGroupsAndPrefixes_AreNotDelivered()
    {
        var (radio, dish) = Pair(SocketType.Radio, SocketType.Dish);
        dish.Join("news");
        WaitUntilJoined(radio, dish);

        // Exact matching (RFC 48): neither a prefix nor an extension of the joined group matches.
        SendToGroup(radio, "new", "prefix");
        SendToGroup(radio, "newsroom", "longer");
        SendToGroup(radio, "sport", "other");
        SendToGroup(radio, "news", "wanted");

        using var message = new Message();
        dish.Recv(message);
        Assert.Equal("wanted", message.ToString());
        Assert.Equal("news", message.Group);
    }

    [Fact]
    public void RadioDish_Leave_StopsDelivery()
    {
        var (radio, dish) = Pair(SocketType.Radio, SocketType.Dish);
        dish.Join("a");
        dish.Join("b");
        WaitUntilJoined(radio, dish);

        dish.Leave("a");
        WaitUntilJoined(radio, dish);
        SendToGroup(radio, "a", "gone");
        SendToGroup(radio, "b", "kept");

        using var message = new Message();
        dish.Recv(message);
        Assert.Equal("kept", message.ToString());
        Assert.Equal("b", message.Group);
    }

    [Fact]
    public void RadioDish_EmptyGroup_IsAGroupOfItsOwn()
    {
        var (radio, dish) = Pair(SocketType.Radio, SocketType.Dish);
        dish.Join(string.Empty);
        WaitUntilJoined(radio, dish);

        // A span carries no group: it goes to the empty group, as libzmq's zmq_send on a RADIO does.
        radio.Send("nogroup"u8);

        using var message = new Message();
        dish.Recv(message);
        Assert.Equal("nogroup", message.ToString());
        Assert.Equal(string.Empty, message.Group);
    }

    [Fact]
    public void RadioDish_LongestGroup_RoundTrips()
    {
        var (radio, dish) = Pair(SocketType.Radio, SocketType.Dish);
        string group = new('g', 255);
        dish.Join(group);
        WaitUntilJoined(radio, dish);

        SendToGroup(radio, group, "long");

        using var message = new Message();
        dish.Recv(message);
        Assert.Equal(group, message.Group);
        Assert.Equal("long", message.ToString());
    }

    [Fact]
    public void RadioDish_TwoDishes_EachGetsOnlyItsGroups()
    {
        var radio = Create(SocketType.Radio);
        string endpoint = Bind(radio);
        var first = Create(SocketType.Dish);
        var second = Create(SocketType.Dish);
        first.Connect(endpoint);
        second.Connect(endpoint);
        first.Join("one");
        second.Join("two");
        WaitUntilJoined(radio, first);
        WaitUntilJoined(radio, second);

        SendToGroup(radio, "one", "for first");
        SendToGroup(radio, "two", "for second");

        Assert.Equal("for first", first.RecvString());
        Assert.Equal("for second", second.RecvString());
        Assert.Null(TryRecvString(first, 0));
        Assert.Null(TryRecvString(second, 0));
    }

    [Fact]
    public void Dish_PollerAndEvents_ReadableOnlyWithAJoinedMessage()
    {
        var (radio, dish) = Pair(SocketType.Radio, SocketType.Dish);
        dish.Join("polled");
        WaitUntilJoined(radio, dish);
        using var poller = new Poller(1);
        poller.Add(dish, PollEvents.In);
        Assert.Equal(0, poller.Poll(0));

        SendToGroup(radio, "polled", "ready");

        Assert.Equal(1, poller.Poll(Timeout));
        Assert.Equal((int)PollEvents.In, dish.GetOption<int>(SocketOption.Events) & (int)PollEvents.In);
        using var message = new Message();
        dish.Recv(message);
        Assert.Equal("ready", message.ToString());
        Assert.Equal("polled", message.Group);
        Assert.Equal(0, poller.Poll(0));
    }

    [Fact]
    public void Dish_JoinTwice_ThrowsEinval()
    {
        var dish = Create(SocketType.Dish);
        dish.Join("twice");

        AssertZmqError(ZmqConstants.EINVAL, () => dish.Join("twice"));
    }

    [Fact]
    public void Dish_LeaveNotJoined_ThrowsEinval()
    {
        var dish = Create(SocketType.Dish);

        AssertZmqError(ZmqConstants.EINVAL, () => dish.Leave("never"));
    }

    [Theory]
    [InlineData(256)]
    [InlineData(1000)]
    public void Dish_JoinTooLongGroup_ThrowsEinval(int length)
    {
        var dish = Create(SocketType.Dish);

        AssertZmqError(ZmqConstants.EINVAL, () => dish.Join(new string('x', length)));
        AssertZmqError(ZmqConstants.EINVAL, () => dish.Leave(new string('x', length)));
    }

    [Theory]
    [InlineData(SocketType.Radio)]
    [InlineData(SocketType.Sub)]
    [InlineData(SocketType.Server)]
    public void JoinLeave_NotDish_ThrowsEnotsup(SocketType type)
    {
        var socket = Create(type);

        AssertZmqError(ZmqConstants.ENOTSUP, () => socket.Join("g"));
        AssertZmqError(ZmqConstants.ENOTSUP, () => socket.Leave("g"));
    }

    [Fact]
    public void Radio_SendMore_ThrowsEinval()
    {
        var (radio, _) = Pair(SocketType.Radio, SocketType.Dish);

        AssertZmqError(ZmqConstants.EINVAL, () => radio.Send("part"u8, SendFlags.SendMore));
    }

    [Fact]
    public void Radio_Recv_ThrowsEnotsup()
    {
        var (radio, _) = Pair(SocketType.Radio, SocketType.Dish);

        AssertZmqError(ZmqConstants.ENOTSUP, () => radio.RecvString());
    }

    [Fact]
    public void Dish_Send_ThrowsEnotsup()
    {
        var (_, dish) = Pair(SocketType.Radio, SocketType.Dish);

        AssertZmqError(ZmqConstants.ENOTSUP, () => dish.Send("up"u8));
    }

    [Fact]
    public async Task Radio_NoDishJoined_SendSucceedsWithoutBlocking()
    {
        var (radio, _) = Pair(SocketType.Radio, SocketType.Dish);
        radio.SetOption(SocketOption.Sndtimeo, -1);

        // RFC 48: a RADIO never blocks; a message nobody joined for is dropped.
        await SendsWithoutBlockingAsync(10_000, () => SendToGroup(radio, "nobody", "x"), "RADIO blocked with no dish joined");
    }

    [Fact]
    public async Task Radio_DishNotReading_DropsAtHwmInsteadOfBlocking()
    {
        var (radio, dish) = Pair(SocketType.Radio, SocketType.Dish);
        radio.SetOption(SocketOption.Sndhwm, 10);
        radio.SetOption(SocketOption.Sndtimeo, -1);
        dish.Join("flood");
        WaitUntilJoined(radio, dish);

        await SendsWithoutBlockingAsync(20_000, () => SendToGroup(radio, "flood", "x"), "RADIO blocked on a dish that does not read");
        Assert.Equal("x", dish.RecvString());
    }

    [Fact]
    public void Radio_XpubNodropDishNotReading_SendReportsEagain()
    {
        var (radio, dish) = Pair(SocketType.Radio, SocketType.Dish);
        radio.SetOption(SocketOption.Sndhwm, 10);
        dish.SetOption(SocketOption.Rcvhwm, 10);
        dish.Join(string.Empty);
        WaitUntilJoined(radio, dish);

        // libzmq's RADIO takes Xpub_Nodrop: a full peer then makes the send wait instead of dropping.
        radio.SetOption(SocketOption.Xpub_Nodrop, 1);
        bool refused = false;
        for (int i = 0; i < 1_000_000 && !refused; i++)
        {
            refused = !radio.Send("x"u8, SendFlags.DontWait);
        }

        Assert.True(refused, "a send at the HWM reports EAGAIN under Xpub_Nodrop");
    }

    [Fact]
    public async Task RadioDish_ManyThreads_NoMessageTornOrMisgrouped()
    {
        var (radio, dish) = Pair(SocketType.Radio, SocketType.Dish);
        radio.SetOption(SocketOption.Sndhwm, 100_000);
        dish.SetOption(SocketOption.Rcvhwm, 100_000);
        const int threads = 4;
        const int perThread = 200;
        for (int t = 0; t < threads; t++)
        {
            dish.Join($"t{t}");
        }

        WaitUntilJoined(radio, dish);

        // Thread-safe types (RFC 48): several threads send on one RADIO and receive on one DISH at once.
        var senders = Enumerable.Range(0, threads).Select(t => Task.Run(() =>
        {
            for (int i = 0; i < perThread; i++)
            {
                SendToGroup(radio, $"t{t}", $"t{t}:{i}");
            }
        })).ToArray();
        var received = new System.Collections.Concurrent.ConcurrentBag<string>();
        dish.SetOption(SocketOption.Rcvtimeo, 50);
        var clock = Stopwatch.StartNew();
        var receivers = Enumerable.Range(0, threads).Select(_ => Task.Run(() =>
        {
            using var message = new Message();
            while (received.Count < threads * perThread && clock.ElapsedMilliseconds < 4 * Timeout)
            {
                try
                {
                    dish.Recv(message);
                }
                catch (ZmqException ex) when (ex.ErrorNumber == ZmqConstants.EAGAIN)
                {
                    continue;
                }

                string text = message.ToString();
                Assert.StartsWith(message.Group + ":", text, StringComparison.Ordinal);
                received.Add(text);
            }
        })).ToArray();

        await CompletesAsync(Task.WhenAll([.. senders, .. receivers]), "senders and receivers finish", seconds: 30);
        var expected = Enumerable.Range(0, threads).SelectMany(t => Enumerable.Range(0, perThread).Select(i => $"t{t}:{i}")).Order();
        Assert.Equal(expected, received.Order());
    }

    /// <summary>Sends <paramref name="body"/> to <paramref name="group"/> through a Message.</summary>
    private static void SendToGroup(Socket radio, string group, string body)
    {
        using var message = new Message(body);
        message.Group = group;
        radio.Send(message);
        Assert.Equal(string.Empty, message.Group);
    }

    /// <summary>
    /// Slow-joiner handshake for radio/dish: the DISH joins a probe group, and the RADIO sends to it in a bounded
    /// loop until one arrives, proving that every JOIN and LEAVE the DISH sent before reached the RADIO (commands
    /// travel in order). The probe group is left then, so stray probes are dropped by the DISH's filter.
    /// </summary>
    private static void WaitUntilJoined(Socket radio, Socket dish)
    {
        dish.Join(JoinProbeGroup);
        var clock = Stopwatch.StartNew();
        using var message = new Message();
        while (clock.ElapsedMilliseconds < Timeout)
        {
            SendToGroup(radio, JoinProbeGroup, "probe");
            if (TryRecvString(dish, 20) is not null)
            {
                dish.Leave(JoinProbeGroup);
                return;
            }
        }

        Assert.Fail($"no probe reached the dish within {Timeout} ms");
    }
}
