using Managed.Zmq.Options;
using Managed.Zmq.Patterns;
using Managed.Zmq.Pipes;
using Managed.Zmq.Sockets;
using Managed.Zmq.Tests.Support;
using Managed.Zmq.Wire;

namespace Managed.Zmq.Tests.Patterns;

/// <summary>
/// The routing rules of SCATTER, GATHER (RFC 49) and CHANNEL (RFC 52) over real pipes fed as the engine feeds them:
/// what the socket tests cannot see without waiting on something that must never happen (a second CHANNEL peer's
/// messages, a refused frame's absence from every queue).
/// </summary>
public sealed class ScatterGatherChannelPatternTests
{
    private readonly FakePipeOwner _core = new();

    [Fact]
    public void Scatter_MoreFrame_InvalidArgumentAndNothingQueued()
    {
        var scatter = PatternFactory.Create(new Host(SocketType.Scatter), SocketType.Scatter);
        var pipe = NewEnginePipe();
        scatter.Attach(pipe);

        Assert.Equal(SendStatus.InvalidArgument, scatter.Send(new OutboundFrame("part"u8, more: true)));
        Assert.Equal(0, pipe.Outbound.QueuedMessages);
        Assert.Equal(SendStatus.Sent, scatter.Send(new OutboundFrame("whole"u8, more: false)));
        Assert.Equal(1, pipe.Outbound.QueuedMessages);
    }

    [Fact]
    public void Scatter_TwoPipes_AlternatesAndCannotReceive()
    {
        var scatter = PatternFactory.Create(new Host(SocketType.Scatter), SocketType.Scatter);
        var first = NewEnginePipe();
        var second = NewEnginePipe();
        scatter.Attach(first);
        scatter.Attach(second);

        for (int i = 0; i < 4; i++)
        {
            Assert.Equal(SendStatus.Sent, scatter.Send(new OutboundFrame([(byte)i], more: false)));
        }

        Assert.Equal(2, first.Outbound.QueuedMessages);
        Assert.Equal(2, second.Outbound.QueuedMessages);
        var sink = new ArraySink();
        Assert.Equal(RecvStatus.NotSupported, scatter.Recv(ref sink));
        Assert.False(scatter.CanReceive);
    }

    [Fact]
    public void Gather_MultipartThenSingle_OnlySingleDeliveredAndCannotSend()
    {
        var gather = PatternFactory.Create(new Host(SocketType.Gather), SocketType.Gather);
        var pipe = NewEnginePipe();
        gather.Attach(pipe);
        Deliver(pipe, [1], [2]);

        Assert.False(gather.CanReceive);
        Deliver(pipe, [3]);
        var sink = new ArraySink();
        Assert.Equal(RecvStatus.Received, gather.Recv(ref sink));
        Assert.Equal(new byte[] { 3 }, sink.Data);
        Assert.False(sink.More);
        Assert.Equal(SendStatus.NotSupported, gather.Send(new OutboundFrame([1], more: false)));
        Assert.False(gather.CanSend);
    }

    /// <summary>As PAIR (docs/libzmq-behaviour.md L18): the first peer is the channel; a second is neither read nor written.</summary>
    [Fact]
    public void Channel_SecondPipe_NeitherReadNorWritten()
    {
        var channel = PatternFactory.Create(new Host(SocketType.Channel), SocketType.Channel);
        var first = NewEnginePipe();
        var second = NewEnginePipe();
        channel.Attach(first);
        channel.Attach(second);
        Deliver(second, [9]);
        Deliver(first, [1]);

        var sink = new ArraySink();
        Assert.Equal(RecvStatus.Received, channel.Recv(ref sink));
        Assert.Equal(new byte[] { 1 }, sink.Data);
        Assert.Equal(RecvStatus.WouldBlock, channel.Recv(ref sink));
        Assert.Equal(SendStatus.Sent, channel.Send(new OutboundFrame([2], more: false)));
        Assert.Equal(1, first.Outbound.QueuedMessages);
        Assert.Equal(0, second.Outbound.QueuedMessages);
        Assert.Equal(1, second.InboundQueuedMessages);
    }

    [Fact]
    public void Channel_FirstPipeDetached_NoPeerUntilAnotherAttaches()
    {
        var channel = PatternFactory.Create(new Host(SocketType.Channel), SocketType.Channel);
        var first = NewEnginePipe();
        channel.Attach(first);
        channel.Detach(first);

        Assert.False(channel.CanSend);
        Assert.Equal(SendStatus.WouldBlock, channel.Send(new OutboundFrame([1], more: false)));

        var next = NewEnginePipe();
        channel.Attach(next);
        Deliver(next, [5], [6]);
        Deliver(next, [7]);
        Assert.True(channel.CanSend);
        Assert.Equal(SendStatus.InvalidArgument, channel.Send(new OutboundFrame([1], more: true)));
        Assert.Equal(0, next.Outbound.QueuedMessages);
        var sink = new ArraySink();
        Assert.Equal(RecvStatus.Received, channel.Recv(ref sink));
        Assert.Equal(new byte[] { 7 }, sink.Data);
    }

    private StreamPipe NewEnginePipe() => new(_core, sendHwm: 0, receiveHwm: 0, fromConnect: false);

    /// <summary>What the engine's read loop does: frames encoded into the inbound queue, the message committed whole.</summary>
    private static void Deliver(StreamPipe pipe, params byte[][] frames)
    {
        var inbound = pipe.Inbound;
        for (int i = 0; i < frames.Length; i++)
        {
            var frame = frames[i];
            var span = inbound.GetSpan(QueuedFrame.GetLength(frame.Length));
            inbound.Advance(QueuedFrame.Write(span, frame, more: i < frames.Length - 1));
        }

        inbound.Commit(1);
    }

    private sealed class Host(SocketType type) : IPatternHost
    {
        public SocketOptions Options { get; } = new(type, ipv6Default: false);
    }
}
