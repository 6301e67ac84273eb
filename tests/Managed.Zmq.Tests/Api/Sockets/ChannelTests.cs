using Managed.Zmq.Tests.Support;

namespace Managed.Zmq.Tests.Api.Sockets;

/// <summary>
/// CHANNEL (RFC 52, libzmq's draft type 20) over every transport: PAIR's one peer and both directions, single-part
/// messages only, and libzmq's errors (EINVAL for a multipart send, EAGAIN with no peer).
/// </summary>
public sealed class ChannelTests : TransportSockets
{
    [Theory]
    [TransportCases(Transport.Tcp, Transport.Ipc, Transport.Inproc, Transport.Ws)]
    public void Channel_BothDirections_DeliveredInOrderAsSingleParts(Transport transport)
    {
        var (bound, connected) = Connect(transport);

        for (int i = 0; i < 3; i++)
        {
            connected.Send($"ping {i}");
            Assert.Equal($"ping {i}", bound.RecvString());
            Assert.False(bound.HasMore);
            bound.Send($"pong {i}");
            Assert.Equal($"pong {i}", connected.RecvString());
            Assert.False(connected.HasMore);
        }
    }

    [Theory]
    [TransportCases(Transport.Tcp, Transport.Ipc, Transport.Inproc, Transport.Ws)]
    public void Channel_SendMore_ThrowsEinvalAndNextSingleStillDelivered(Transport transport)
    {
        var (bound, connected) = Connect(transport);

        AssertZmqError(ZmqConstants.EINVAL, () => connected.Send("part"u8, SendFlags.SendMore));
        AssertZmqError(ZmqConstants.EINVAL, () => bound.Send("part", SendFlags.SendMore | SendFlags.DontWait));
        connected.Send("whole");

        Assert.Equal("whole", bound.RecvString());
        Assert.False(bound.HasMore);
    }

    [Fact]
    public void Channel_NoPeer_SendDontWaitRefusedAndNoEvents()
    {
        var channel = Create(SocketType.Channel);
        channel.Bind(TestEndpoint.For(Transport.Tcp));

        // libzmq's channel_t: no pipe, EAGAIN; neither POLLIN nor POLLOUT.
        Assert.False(channel.Send("nobody", SendFlags.DontWait));
        Assert.Equal(0, channel.GetOption<int>(SocketOption.Events));
    }

    /// <summary>inproc, where the queue is exactly SNDHWM + RCVHWM deep; over a network the kernel's buffers add to it.</summary>
    [Fact]
    public void Channel_QueueFull_DontWaitRefusedNothingDroppedUntilPeerReads()
    {
        var bound = Create(SocketType.Channel);
        var connected = Create(SocketType.Channel);
        connected.SetOption(SocketOption.Sndhwm, 1);
        bound.SetOption(SocketOption.Rcvhwm, 1);
        connected.Connect(TestEndpoint.Bind(bound, Transport.Inproc, "channel"));

        // RFC 52: a full queue makes the peer unavailable; the message is refused, never dropped.
        int sent = SendUntilRefused(connected);
        Assert.Equal(2, sent);
        Assert.Equal(0, connected.GetOption<int>(SocketOption.Events) & ZmqConstants.ZMQ_POLLOUT);
        Assert.Equal(["m0", "m1"], new[] { bound.RecvString(), bound.RecvString() });

        connected.Send("after");
        Assert.Equal("after", bound.RecvString());
    }

    /// <summary>RFC 52: a CHANNEL discards every part of a multipart message; libzmq's channel_t drops it whole.</summary>
    [Fact]
    public void Channel_MultipartFromPeer_DroppedWholeAndConnectionKept()
    {
        var channel = Create(SocketType.Channel);
        channel.Bind("tcp://127.0.0.1:*");
        using var peer = RawPeer.Connect(RawPeer.PortOf(channel.GetOptionString(SocketOption.Last_Endpoint)));
        peer.CompleteNullHandshake("CHANNEL");

        peer.Send(ZmtpBytes.Concat(ZmtpBytes.Message("dropped 1", more: true), ZmtpBytes.Message("dropped 2"), ZmtpBytes.Message("kept")));
        Assert.Equal("kept", channel.RecvString());
        Assert.False(channel.HasMore);

        // The connection is kept: the peer still hears this side.
        channel.Send("reply");
        var (flags, body) = peer.ReadFrame();
        Assert.Equal(0, flags);
        Assert.Equal("reply"u8.ToArray(), body);
    }

    private (Socket Bound, Socket Connected) Connect(Transport transport)
    {
        var bound = Create(SocketType.Channel);
        var connected = Create(SocketType.Channel);
        connected.Connect(TestEndpoint.Bind(bound, transport, "channel"));
        return (bound, connected);
    }
}
