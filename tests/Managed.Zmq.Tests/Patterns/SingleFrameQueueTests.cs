using Managed.Zmq.Patterns;
using Managed.Zmq.Pipes;
using Managed.Zmq.Tests.Support;
using Managed.Zmq.Wire;

namespace Managed.Zmq.Tests.Patterns;

/// <summary>
/// The receive side of SERVER and CLIENT (RFC 41): single-part messages only, a multipart message from a peer
/// dropped whole as libzmq drops it, over real pipes fed as the engine feeds them.
/// </summary>
public sealed class SingleFrameQueueTests
{
    private readonly FakePipeOwner _core = new();

    [Fact]
    public void TryPeek_MultipartAhead_DroppedWholeAndNextSingleDelivered()
    {
        var queue = new FairQueue();
        var pipe = NewEnginePipe();
        queue.Add(pipe);
        Deliver(pipe, [1], [2], [3]);
        Deliver(pipe, [4]);

        Assert.Equal([4], ReadAll(queue));
    }

    [Fact]
    public void TryPeek_OnlyMultipart_NothingToReceive()
    {
        var queue = new FairQueue();
        var pipe = NewEnginePipe();
        queue.Add(pipe);
        Deliver(pipe, [1], [2]);
        Deliver(pipe, [3], [4], [5]);

        Assert.False(SingleFrameQueue.TryPeek(queue, out _, out _));
        Assert.Equal(0, pipe.InboundQueuedMessages);
    }

    [Fact]
    public void TryPeek_MultipartInterleavedAcrossPipes_OnlySinglesDelivered()
    {
        var queue = new FairQueue();
        var first = NewEnginePipe();
        var second = NewEnginePipe();
        queue.Add(first);
        queue.Add(second);
        Deliver(first, [1]);
        Deliver(second, [20], [21]);
        Deliver(first, [2], [3]);
        Deliver(second, [22]);
        Deliver(first, [4]);

        Assert.Equal(new byte[] { 1, 22, 4 }.Order(), ReadAll(queue).Order());
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

    private static byte[] ReadAll(FairQueue queue)
    {
        var received = new List<byte>();
        while (SingleFrameQueue.TryPeek(queue, out var pipe, out var frame))
        {
            Assert.False(frame.More);
            Assert.Equal(1, frame.Length);
            received.Add(frame.Body[0]);
            queue.Consume(pipe, frame);
        }

        return [.. received];
    }
}
