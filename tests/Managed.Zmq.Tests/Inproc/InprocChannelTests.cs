
using Managed.Zmq.Inproc;

namespace Managed.Zmq.Tests.Inproc;

/// <summary>
/// One direction of an inproc link, without sockets: messages are atomic, the HWM counts whole
/// messages and not commands, frames cross chunk boundaries intact, payloads carried by reference
/// are released exactly once, and two threads move a million frames in order.
/// </summary>
public sealed class InprocChannelTests
{
    private static byte[] Read(InprocChannel channel, out bool more, out bool command)
    {
        Assert.True(channel.TryPeek(out var frame));
        byte[] body = frame.Body.ToArray();
        more = frame.More;
        command = frame.IsCommand;
        channel.Consume();
        return body;
    }

    [Fact]
    public void TryPeek_MultipartMessageHalfWritten_NothingVisibleUntilLastFrame()
    {
        var channel = new InprocChannel();
        channel.WriteFrame([1], more: true);
        channel.WriteFrame([2], more: true);

        Assert.False(channel.TryPeek(out _));
        Assert.False(channel.HasData);
        Assert.Equal(0, channel.QueuedMessages);

        channel.WriteFrame([3], more: false);

        Assert.Equal(1, channel.QueuedMessages);
        Assert.Equal([1], Read(channel, out bool more, out _));
        Assert.True(more);
        Assert.Equal([2], Read(channel, out more, out _));
        Assert.True(more);
        Assert.Equal(1, channel.QueuedMessages);
        Assert.Equal([3], Read(channel, out more, out _));
        Assert.False(more);
        Assert.Equal(0, channel.QueuedMessages);
        Assert.False(channel.HasData);
    }

    [Fact]
    public void Consume_LastFrameOfMessage_ReportsRoomFreedButNotForCommands()
    {
        var channel = new InprocChannel();
        channel.WriteCommand([9, 9]);
        channel.WriteFrame([1], more: false);

        Assert.Equal(1, channel.QueuedMessages);
        Assert.True(channel.TryPeek(out var command));
        Assert.True(command.IsCommand);
        Assert.False(channel.Consume());
        Assert.True(channel.TryPeek(out _));
        Assert.True(channel.Consume());
        Assert.Equal(0, channel.QueuedMessages);
    }

    [Fact]
    public void HasRoom_CountsWholeMessagesAgainstHwm()
    {
        var channel = new InprocChannel();
        for (int i = 0; i < 3; i++)
        {
            Assert.True(channel.HasRoom(3));
            channel.WriteFrame([(byte)i], more: true);
            channel.WriteFrame([(byte)i], more: false);
        }

        Assert.False(channel.HasRoom(3));
        Assert.True(channel.HasRoom(0));
        Read(channel, out _, out _);
        Assert.False(channel.HasRoom(3));
        Read(channel, out _, out _);
        Assert.True(channel.HasRoom(3));
    }

    [Fact]
    public void WriteFrame_ManySizesAcrossChunks_ArriveIntactAndInOrder()
    {
        var channel = new InprocChannel();
        var random = new Random(7);
        var sent = new List<byte[]>();
        for (int round = 0; round < 20; round++)
        {
            for (int i = 0; i < 200; i++)
            {
                var body = new byte[random.Next(0, 3000)];
                random.NextBytes(body);
                sent.Add(body);
                channel.WriteFrame(body, more: false);
            }

            // Read them all back before writing more, so drained chunks are handed back and reused.
            foreach (var expected in sent)
            {
                Assert.Equal(expected, Read(channel, out _, out _));
            }

            sent.Clear();
        }

        var large = new byte[200_000];
        random.NextBytes(large);
        channel.WriteFrame(large, more: false);
        Assert.Equal(large, Read(channel, out _, out _));
    }

    [Fact]
    public void WritePayload_ReadAndDiscarded_EachReleasedExactlyOnce()
    {
        var payloads = new TaggedPayloads();
        var channel = new InprocChannel();
        channel.WritePayload(payloads.Create(1), more: false);
        channel.WritePayload(payloads.Create(2), more: true);
        channel.WritePayload(payloads.Create(3), more: false);

        Assert.True(channel.TryPeek(out var frame));
        Assert.Equal(1, frame.Body[0]);
        channel.Consume();
        Assert.Equal([1], payloads.Released);

        // The receiver goes away with a message still queued.
        channel.DiscardAll();
        Assert.Equal([1, 2, 3], payloads.Released);
        Assert.False(channel.HasData);
        Assert.Equal(0, channel.QueuedMessages);
    }

    [Fact]
    public void WritePayload_AfterReceiverDiscarded_ReleasedAtOnce()
    {
        var payloads = new TaggedPayloads();
        var channel = new InprocChannel();
        channel.DiscardAll();

        channel.WritePayload(payloads.Create(1), more: true);
        Assert.Empty(payloads.Released);
        channel.WritePayload(payloads.Create(2), more: false);

        Assert.Equal([1, 2], payloads.Released);
        Assert.False(channel.HasData);
    }

    [Fact]
    public void Abandon_CommittedAndStaged_AllReleased()
    {
        var payloads = new TaggedPayloads();
        var channel = new InprocChannel();
        channel.WritePayload(payloads.Create(1), more: false);
        channel.WritePayload(payloads.Create(2), more: true);

        channel.Abandon();

        Assert.Equal([1, 2], payloads.Released.Order());
        Assert.False(channel.HasData);
        Assert.Equal(0, channel.QueuedMessages);
    }

    [Fact]
    public void Consume_WithoutPeek_DoesNothing()
    {
        var payloads = new TaggedPayloads();
        var channel = new InprocChannel();
        channel.WritePayload(payloads.Create(1), more: false);
        Assert.True(channel.TryPeek(out _));
        Assert.True(channel.Consume());

        Assert.False(channel.Consume());
        Assert.Equal([1], payloads.Released);
    }

    [Fact]
    public void DiscardStaged_UnfinishedMessage_PayloadsReleasedAndNothingQueued()
    {
        var payloads = new TaggedPayloads();
        var channel = new InprocChannel();
        channel.WritePayload(payloads.Create(1), more: true);
        channel.WriteFrame([2], more: true);

        channel.DiscardStaged();

        Assert.Equal([1], payloads.Released);
        Assert.False(channel.TryPeek(out _));
        channel.WriteFrame([3], more: false);
        Assert.Equal([3], Read(channel, out bool more, out _));
        Assert.False(more);
    }

    [Fact]
    public void DiscardStaged_UnfinishedMessageAcrossSeveralChunks_OnlyWholeMessagesArrive()
    {
        // The unfinished message moved the sender on to new chunks; taking it back must return to where it began.
        var random = new Random(7);
        byte[] Bytes(int length)
        {
            var bytes = new byte[length];
            random.NextBytes(bytes);
            return bytes;
        }

        var channel = new InprocChannel();
        var before = Bytes(900);
        channel.WriteFrame(before, more: false);
        for (int i = 0; i < 5; i++)
        {
            channel.WriteFrame(Bytes(3000), more: true);
        }

        channel.DiscardStaged();
        var after = Enumerable.Range(0, 50).Select(i => Bytes(100 + (i * 37))).ToList();
        foreach (var frame in after)
        {
            channel.WriteFrame(frame, more: false);
        }

        Assert.Equal(before, Read(channel, out _, out _));
        foreach (var frame in after)
        {
            Assert.Equal(frame, Read(channel, out bool more, out _));
            Assert.False(more);
        }

        Assert.False(channel.TryPeek(out _));
    }

    [Fact]
    public void WriteCommand_WhileMessageHalfWritten_FollowsTheWholeMessage()
    {
        var channel = new InprocChannel();
        channel.WriteFrame([1], more: true);
        channel.WriteCommand([9]);
        channel.WriteFrame([2], more: false);

        Assert.Equal([1], Read(channel, out bool more, out bool command));
        Assert.True(more);
        Assert.False(command);
        Assert.Equal([2], Read(channel, out more, out command));
        Assert.False(more);
        Assert.Equal([9], Read(channel, out _, out command));
        Assert.True(command);
        Assert.False(channel.TryPeek(out _));
    }

    [Fact]
    public void WriteCommand_WhileMessageHalfWrittenThenDiscarded_CommandStillArrives()
    {
        var channel = new InprocChannel();
        channel.WriteFrame([1], more: true);
        channel.WriteCommand([9]);
        channel.DiscardStaged();

        Assert.Equal([9], Read(channel, out _, out bool command));
        Assert.True(command);
        Assert.False(channel.TryPeek(out _));
    }

    [Fact]
    public void TryPeek_AfterDiscardAllWithMessagesLeftAndLaterCommitted_ReadsNothing()
    {
        var channel = new InprocChannel();
        for (byte i = 0; i < 3; i++)
        {
            channel.WriteFrame([i], more: false);
        }

        Assert.Equal([0], Read(channel, out _, out _));
        channel.DiscardAll();
        Assert.False(channel.TryPeek(out _));

        channel.WriteFrame([7], more: false);
        Assert.False(channel.TryPeek(out _));
        Assert.Equal(0, channel.QueuedMessages);
    }

    [Fact]
    public void WritePayload_InterleavedWithCopiedFramesAcrossChunks_ArriveInOrder()
    {
        var payloads = new TaggedPayloads();
        var channel = new InprocChannel();
        for (int i = 0; i < 200; i++)
        {
            if (i % 3 == 0)
            {
                channel.WritePayload(payloads.Create(i), more: i % 2 == 0);
            }
            else
            {
                channel.WriteFrame(Enumerable.Repeat((byte)i, 500).ToArray(), more: i % 2 == 0);
            }
        }

        channel.WriteFrame([0], more: false);
        for (int i = 0; i < 200; i++)
        {
            Assert.True(channel.TryPeek(out var frame));
            Assert.Equal(i % 3 == 0 ? 1 : 500, frame.Length);
            Assert.Equal((byte)i, frame.Body[0]);
            Assert.Equal(i % 2 == 0, frame.More);
            channel.Consume();
        }

        Assert.Equal([0], Read(channel, out _, out _));
        Assert.Equal(Enumerable.Range(0, 200).Where(i => i % 3 == 0), payloads.Released);
    }

    [Fact]
    public void WriteFrame_AfterReceiverDiscarded_ReusesTheChunkInsteadOfRentingMore()
    {
        // A sender that has not yet heard that the receiver went keeps writing; nothing may pile up for nobody.
        var channel = new InprocChannel();
        channel.DiscardAll();
        var frame = new byte[1024];
        channel.WriteFrame(frame, more: false);

        long before = GC.GetAllocatedBytesForCurrentThread();
        for (int i = 0; i < 10_000; i++)
        {
            channel.WriteFrame(frame, more: false);
        }

        long allocated = GC.GetAllocatedBytesForCurrentThread() - before;
        Assert.True(allocated < 64 * 1024, $"{allocated} B allocated for 10 MB written to a channel nobody reads");
        Assert.Equal(0, channel.QueuedMessages);
    }

    [Fact]
    public void WritePayload_AfterAbandon_ReleasedAtOnce()
    {
        var payloads = new TaggedPayloads();
        var channel = new InprocChannel();
        channel.Abandon();

        channel.WritePayload(payloads.Create(1), more: false);

        Assert.Equal([1], payloads.Released);
        Assert.False(channel.HasData);
    }

    [Fact]
    public void TryPeek_TwoThreads_MillionFramesInOrder()
    {
        const int Messages = 500_000;
        var channel = new InprocChannel();
        var writer = new Thread(() =>
        {
            Span<byte> body = stackalloc byte[8];
            for (int i = 0; i < Messages; i++)
            {
                while (!channel.HasRoom(1000))
                {
                    Thread.SpinWait(20);
                }

                BitConverter.TryWriteBytes(body, i);
                channel.WriteFrame(body[..4], more: true);
                channel.WriteFrame(body[..(i % 8)], more: false);
            }
        });
        writer.Start();

        var clock = System.Diagnostics.Stopwatch.StartNew();
        for (int i = 0; i < Messages; i++)
        {
            InprocFrame frame;
            while (!channel.TryPeek(out frame))
            {
                Assert.True(clock.Elapsed < TimeSpan.FromSeconds(60), "the reader starved");
                Thread.SpinWait(20);
            }

            Assert.Equal(i, BitConverter.ToInt32(frame.Body));
            Assert.True(frame.More);
            Assert.False(channel.Consume());
            Assert.True(channel.TryPeek(out frame));
            Assert.Equal(i % 8, frame.Length);
            Assert.True(channel.Consume());
        }

        Assert.True(writer.Join(TimeSpan.FromSeconds(60)));
        Assert.False(channel.HasData);
    }
}
