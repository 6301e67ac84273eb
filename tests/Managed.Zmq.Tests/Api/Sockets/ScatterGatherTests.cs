using System.Globalization;
using Managed.Zmq.Tests.Support;

namespace Managed.Zmq.Tests.Api.Sockets;

/// <summary>
/// SCATTER and GATHER (RFC 49, libzmq's draft types 17 and 16) over every transport: PUSH/PULL's round robin and
/// fair queue, single-part messages only, and libzmq's errors (EINVAL for a multipart send, ENOTSUP for the
/// direction a type lacks).
/// </summary>
public sealed class ScatterGatherTests : TransportSockets
{
    [Theory]
    [TransportCases(Transport.Tcp, Transport.Ipc, Transport.Inproc, Transport.Ws, With = [true, false])]
    public void ScatterGather_Messages_DeliveredInOrderAsSingleParts(Transport transport, bool scatterBinds)
    {
        var (scatter, gather) = Connect(transport, scatterBinds);

        for (int i = 0; i < 5; i++)
        {
            scatter.Send($"task {i}");
        }

        for (int i = 0; i < 5; i++)
        {
            Assert.Equal($"task {i}", gather.RecvString());
            Assert.False(gather.HasMore);
        }
    }

    [Theory]
    [TransportCases(Transport.Tcp, Transport.Ipc, Transport.Inproc, Transport.Ws)]
    public void Scatter_ThreeConnectedGathers_RoundRobinEvenly(Transport transport)
    {
        // Connect-side pipes exist at once (Immediate = 0), so all three take part from the first send.
        var scatter = Create(SocketType.Scatter);
        var gathers = Enumerable.Range(0, 3).Select(_ => Create(SocketType.Gather)).ToArray();
        foreach (var gather in gathers)
        {
            scatter.Connect(TestEndpoint.Bind(gather, transport, "gather"));
        }

        for (int i = 0; i < 9; i++)
        {
            scatter.Send($"m{i}");
        }

        var received = gathers.Select(g => new[] { g.RecvString(), g.RecvString(), g.RecvString() }).ToArray();
        Assert.All(gathers, g => Assert.False(g.TryRecvString(out _)));

        // Round-robin: each gather got every third message, in order.
        foreach (var messages in received)
        {
            int first = int.Parse(messages[0][1..], CultureInfo.InvariantCulture);
            Assert.Equal([$"m{first}", $"m{first + 3}", $"m{first + 6}"], messages);
        }

        Assert.Equal(
            Enumerable.Range(0, 9).Select(i => $"m{i}").Order(StringComparer.Ordinal),
            received.SelectMany(r => r).Order(StringComparer.Ordinal));
    }

    [Theory]
    [TransportCases(Transport.Tcp, Transport.Ipc, Transport.Inproc, Transport.Ws)]
    public void Gather_ThreeScatters_FairQueuedAndOrderedPerScatter(Transport transport)
    {
        const int PerScatter = 100;
        var gather = Create(SocketType.Gather);
        string endpoint = TestEndpoint.Bind(gather, transport, "gather");
        var scatters = Enumerable.Range(0, 3).Select(_ => Create(SocketType.Scatter)).ToArray();
        for (int s = 0; s < scatters.Length; s++)
        {
            scatters[s].Connect(endpoint);
            scatters[s].Send($"{s}:hello");
        }

        // Every scatter's connection is up once its hello has arrived.
        Assert.Equal(["0:hello", "1:hello", "2:hello"], new[] { gather.RecvString(), gather.RecvString(), gather.RecvString() }.Order(StringComparer.Ordinal));

        // Fair queuing alternates between pipes that hold messages.
        FairQueueBursts.AssertFairQueued(gather, scatters, PerScatter);
    }

    [Theory]
    [TransportCases(Transport.Tcp, Transport.Ipc, Transport.Inproc, Transport.Ws)]
    public void Scatter_SendMore_ThrowsEinvalAndNextSingleStillDelivered(Transport transport)
    {
        var (scatter, gather) = Connect(transport, scatterBinds: false);

        AssertZmqError(ZmqConstants.EINVAL, () => scatter.Send("part"u8, SendFlags.SendMore));
        AssertZmqError(ZmqConstants.EINVAL, () => scatter.Send("part", SendFlags.SendMore | SendFlags.DontWait));
        scatter.Send("whole");

        Assert.Equal("whole", gather.RecvString());
        Assert.False(gather.HasMore);
    }

    [Theory]
    [TransportCases(Transport.Tcp, Transport.Ipc, Transport.Inproc, Transport.Ws)]
    public void ScatterGather_WrongDirection_ThrowsEnotsup(Transport transport)
    {
        var (scatter, gather) = Connect(transport, scatterBinds: true);

        AssertZmqError(ZmqConstants.ENOTSUP, () => gather.Send("x"));
        AssertZmqError(ZmqConstants.ENOTSUP, () => scatter.RecvString());
    }

    [Fact]
    public void Scatter_NoPeer_SendDontWaitRefusedAndPolloutClear()
    {
        var scatter = Create(SocketType.Scatter);
        scatter.Bind(TestEndpoint.For(Transport.Tcp));

        // RFC 49: no available peer, so the message is not accepted (nothing is dropped).
        Assert.False(scatter.Send("nobody", SendFlags.DontWait));
        Assert.Equal(0, scatter.GetOption<int>(SocketOption.Events) & ZmqConstants.ZMQ_POLLOUT);
    }

    [Theory]
    [TransportCases(Transport.Tcp, Transport.Ipc, Transport.Inproc, Transport.Ws)]
    public void ScatterGather_Events_PolloutOnScatterPollinOnGatherOnceQueued(Transport transport)
    {
        var (scatter, gather) = Connect(transport, scatterBinds: false);

        Assert.Equal(ZmqConstants.ZMQ_POLLOUT, scatter.GetOption<int>(SocketOption.Events));
        scatter.Send("ready");
        Eventually.True(() => gather.GetOption<int>(SocketOption.Events) == ZmqConstants.ZMQ_POLLIN, "GATHER never reported POLLIN");

        Assert.Equal("ready", gather.RecvString());
        Assert.Equal(0, gather.GetOption<int>(SocketOption.Events));
    }

    /// <summary>A Poller takes the thread-safe types as any other (libzmq's zmq_poll serves them through its poller).</summary>
    [Theory]
    [TransportCases(Transport.Tcp, Transport.Ipc, Transport.Inproc, Transport.Ws)]
    public void Poller_GatherAndChannel_ReportReadableOnceAMessageIsQueued(Transport transport)
    {
        var (scatter, gather) = Connect(transport, scatterBinds: true);
        var channel = Create(SocketType.Channel);
        var channelPeer = Create(SocketType.Channel);
        channelPeer.Connect(TestEndpoint.Bind(channel, transport, "channel"));
        using var poller = new Poller(2);
        poller.Add(gather, PollEvents.In);
        poller.Add(channel, PollEvents.In);

        Assert.Equal(0, poller.Poll(0));
        scatter.Send("to gather");
        channelPeer.Send("to channel");
        Eventually.True(() => poller.Poll(0) == 2, "the Poller never reported both sockets readable");

        Assert.Equal("to gather", gather.RecvString());
        Assert.Equal("to channel", channel.RecvString());
        Assert.Equal(0, poller.Poll(0));
    }

    /// <summary>
    /// RFC 49: GATHER discards every part of a multipart message; libzmq's gather_t drops it whole and keeps the
    /// connection. A raw ZMTP peer plays SCATTER, since no SCATTER sends multipart.
    /// </summary>
    [Fact]
    public void Gather_MultipartFromPeer_DroppedWholeAndConnectionKept()
    {
        var gather = Create(SocketType.Gather);
        gather.Bind("tcp://127.0.0.1:*");
        using var peer = RawPeer.Connect(RawPeer.PortOf(gather.GetOptionString(SocketOption.Last_Endpoint)));
        peer.CompleteNullHandshake("SCATTER");

        peer.Send(ZmtpBytes.Concat(
            ZmtpBytes.Message("dropped 1", more: true),
            ZmtpBytes.Message("dropped 2", more: true),
            ZmtpBytes.Message("dropped 3"),
            ZmtpBytes.Message("kept")));
        Assert.Equal("kept", gather.RecvString());
        Assert.False(gather.HasMore);

        peer.Send(ZmtpBytes.Concat(ZmtpBytes.Message("a", more: true), ZmtpBytes.Message("b"), ZmtpBytes.Message("after")));
        Assert.Equal("after", gather.RecvString());
        Assert.False(gather.HasMore);
        Assert.False(gather.TryRecvString(out _));
    }

    [Theory]
    [InlineData(SocketType.Scatter)]
    [InlineData(SocketType.Gather)]
    [InlineData(SocketType.Channel)]
    public void ThreadSafeOption_ScatterGatherChannel_ReadsOne(SocketType type)
    {
        var socket = Create(type);

        Assert.Equal(1, socket.GetOption<int>(SocketOption.Thread_Safe));
    }

    /// <summary>Their numbers lie past bit 15 of an option row's socket-type mask: every general option still applies.</summary>
    [Theory]
    [InlineData(SocketType.Scatter)]
    [InlineData(SocketType.Gather)]
    [InlineData(SocketType.Channel)]
    public void SetOption_GeneralOptions_AcceptedAndReadBack(SocketType type)
    {
        var socket = Create(type);

        socket.SetOption(SocketOption.Sndhwm, 7);
        socket.SetOption(SocketOption.Rcvhwm, 9);
        socket.SetOption(SocketOption.Conflate, 1);

        Assert.Equal(7, socket.GetOption<int>(SocketOption.Sndhwm));
        Assert.Equal(9, socket.GetOption<int>(SocketOption.Rcvhwm));
        Assert.Equal(1, socket.GetOption<int>(SocketOption.Conflate));
        AssertZmqError(ZmqConstants.EINVAL, () => socket.SetOption(SocketOption.Subscribe, "x"u8.ToArray()));
    }

    /// <summary>libzmq applies ZMQ_CONFLATE to DEALER, PULL, PUSH, PUB and SUB only: a GATHER keeps every message.</summary>
    [Theory]
    [TransportCases(Transport.Tcp, Transport.Inproc)]
    public void Gather_Conflate_EveryMessageStillDelivered(Transport transport)
    {
        var gather = Create(SocketType.Gather);
        gather.SetOption(SocketOption.Conflate, 1);
        var scatter = Create(SocketType.Scatter);
        scatter.SetOption(SocketOption.Conflate, 1);
        scatter.Connect(TestEndpoint.Bind(gather, transport, "gather"));

        for (int i = 0; i < 3; i++)
        {
            scatter.Send($"m{i}");
        }

        Assert.Equal(["m0", "m1", "m2"], new[] { gather.RecvString(), gather.RecvString(), gather.RecvString() });
    }

    [Fact]
    public void SocketType_ScatterGatherChannel_HaveLibzmqNumbers()
    {
        // zmq.h's draft section: ZMQ_GATHER 16, ZMQ_SCATTER 17, ZMQ_CHANNEL 20.
        Assert.Equal(16, (int)SocketType.Gather);
        Assert.Equal(17, (int)SocketType.Scatter);
        Assert.Equal(20, (int)SocketType.Channel);
    }

    private (Socket Scatter, Socket Gather) Connect(Transport transport, bool scatterBinds)
    {
        var scatter = Create(SocketType.Scatter);
        var gather = Create(SocketType.Gather);
        if (scatterBinds)
        {
            gather.Connect(TestEndpoint.Bind(scatter, transport, "scatter"));
        }
        else
        {
            scatter.Connect(TestEndpoint.Bind(gather, transport, "gather"));
        }

        return (scatter, gather);
    }
}
