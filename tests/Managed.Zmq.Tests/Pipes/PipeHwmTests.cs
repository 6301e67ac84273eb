
using Managed.Zmq.Inproc;
using Managed.Zmq.Pipes;
using Managed.Zmq.Tests.Support;

namespace Managed.Zmq.Tests.Pipes;

/// <summary>
/// The send side of a pipe at its HWM. Over tcp and ipc a pipe that reached the HWM stays full
/// until its queue has drained to libzmq's low-water mark, and the engine wakes a parked sender
/// exactly then, so Send, DontWait and POLLOUT agree and a sender at the HWM is not woken once per
/// message. inproc stays exact message by message.
/// </summary>
public sealed class PipeHwmTests
{
    private readonly FakePipeOwner _core = new();

    [Theory]
    [InlineData(1, 0)]
    [InlineData(2, 1)]
    [InlineData(10, 5)]
    [InlineData(11, 5)]
    [InlineData(1000, 500)]
    [InlineData(2048, 1024)]
    [InlineData(2049, 1025)]
    [InlineData(100_000, 98_976)]
    public void ResumeLevel_Hwm_IsLibzmqLowWaterMark(int hwm, long expected)
        => Assert.Equal(expected, StreamPipe.ResumeLevel(hwm));

    [Fact]
    public void CanWrite_TcpPipeHeldAtHwm_StaysFullUntilResumeLevel()
    {
        var pipe = new StreamPipe(_core, sendHwm: 10, receiveHwm: 10, fromConnect: true);
        Fill(pipe, 10);
        Assert.False(pipe.CanWrite);

        // The engine sends four: six queued, above the resume level of five.
        ConsumeAsEngine(pipe, 4);
        Assert.False(pipe.OutboundAtLowWater);
        Assert.False(pipe.CanWrite);

        ConsumeAsEngine(pipe, 1);
        Assert.True(pipe.OutboundAtLowWater);
        Assert.True(pipe.CanWrite);

        // Room again up to the HWM itself, then held anew.
        Fill(pipe, 5);
        Assert.False(pipe.CanWrite);
        ConsumeAsEngine(pipe, 1);
        Assert.False(pipe.CanWrite);
    }

    [Fact]
    public void CanWrite_TcpPipeBelowHwm_DoesNotWaitForResumeLevel()
    {
        var pipe = new StreamPipe(_core, sendHwm: 10, receiveHwm: 10, fromConnect: true);
        Fill(pipe, 9);
        ConsumeAsEngine(pipe, 1);
        Assert.True(pipe.CanWrite);
        Fill(pipe, 2);
        Assert.False(pipe.CanWrite);
    }

    [Fact]
    public void CanWrite_InprocPipeAtHwm_RoomForEachMessageRead()
    {
        var toPeer = new InprocChannel();
        var pipe = new InprocPipe(_core, sendHwm: 10, receiveHwm: 10, fromConnect: true, toPeer, new InprocChannel()) { InprocName = "hwm-test" };
        Fill(pipe, 10);
        Assert.False(pipe.CanWrite);

        // The peer reads one message: room for exactly one more.
        Assert.True(toPeer.TryPeek(out var frame));
        Assert.Equal([0], frame.Body.ToArray());
        Assert.True(toPeer.Consume());
        Assert.True(pipe.CanWrite);
        Fill(pipe, 1);
        Assert.False(pipe.CanWrite);
    }

    private static void Fill(Pipe pipe, int messages)
    {
        for (int i = 0; i < messages; i++)
        {
            Assert.True(pipe.CanWrite);
            pipe.WriteFrame(new OutboundFrame([(byte)i], more: false));
        }
    }

    /// <summary>What the write loop does with one-byte messages: send the bytes, then count the messages.</summary>
    private static void ConsumeAsEngine(StreamPipe pipe, int messages)
    {
        const int EncodedLength = 3;
        Assert.True(pipe.Outbound.Peek().Length >= messages * EncodedLength);
        pipe.Outbound.Consume(messages * EncodedLength);
        pipe.Outbound.MessagesConsumed(messages);
    }
}
