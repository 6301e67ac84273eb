using System.Buffers.Binary;
using System.Diagnostics;
using Managed.Zmq.Wire;
using Managed.Zmq.Pipes;

namespace Managed.Zmq.Tests.Pipes;

/// <summary>
/// The single-producer single-consumer frame queue under every pipe: commit makes whole messages
/// visible, frames never straddle segments while messages may, a partial frame moves with
/// EnsureSpace, uncommitted bytes can be dropped, and two threads move a million frames intact.
/// </summary>
public sealed class FrameQueueTests
{
    // ------------------------------------------------------------------ helpers

    /// <summary>Encodes one frame the way <see cref="StreamPipe.WriteFrame"/> does, without committing.</summary>
    private static void Write(FrameQueue queue, ReadOnlySpan<byte> body, bool more = false)
    {
        int headerLength = ZmtpFrame.GetHeaderLength(body.Length);
        var span = queue.GetSpan(headerLength + body.Length);
        ZmtpFrame.WriteHeader(span, body.Length, more ? ZmtpFrameFlags.More : ZmtpFrameFlags.None);
        body.CopyTo(span.Slice(headerLength));
        queue.Advance(headerLength + body.Length);
    }

    private static void WriteMessage(FrameQueue queue, params byte[][] frames)
    {
        for (int i = 0; i < frames.Length; i++)
        {
            Write(queue, frames[i], more: i < frames.Length - 1);
        }

        queue.Commit(1);
    }

    /// <summary>Takes one frame; asserts it lies wholly inside the span Peek returned (no straddling).</summary>
    private static bool TryRead(FrameQueue queue, out byte[] body, out bool more)
    {
        var span = queue.Peek();
        if (span.IsEmpty)
        {
            body = [];
            more = false;
            return false;
        }

        Assert.Equal(ZmtpStatus.Done, ZmtpFrame.TryReadHeader(span, out var header));
        Assert.True(header.FrameLength <= span.Length, $"frame of {header.FrameLength} bytes straddles a segment (span {span.Length})");
        body = span.Slice(header.HeaderLength, (int)header.BodyLength).ToArray();
        more = header.More;
        queue.Consume((int)header.FrameLength);
        if (!more)
        {
            queue.MessagesConsumed(1);
        }

        return true;
    }

    private static List<byte[]> ReadAllFrames(FrameQueue queue)
    {
        var frames = new List<byte[]>();
        while (TryRead(queue, out var body, out _))
        {
            frames.Add(body);
        }

        return frames;
    }

    private static byte[] Body(int id, int length)
    {
        var body = new byte[length];
        for (int i = 0; i < length; i++)
        {
            body[i] = (byte)(id + i);
        }

        return body;
    }

    // ------------------------------------------------------------------ commit / peek / consume

    [Fact]
    public void Peek_WrittenNotCommitted_ReturnsEmpty()
    {
        var queue = new FrameQueue();
        Write(queue, "abc"u8);

        Assert.True(queue.Peek().IsEmpty);
        Assert.False(queue.HasData);
        Assert.Equal(0, queue.QueuedMessages);
    }

    [Fact]
    public void Peek_AfterCommit_ReturnsExactlyTheCommittedFrame()
    {
        var queue = new FrameQueue();
        Write(queue, "abc"u8);
        queue.Commit(1);
        Write(queue, "uncommitted"u8);

        Assert.True(queue.HasData);
        Assert.Equal("0003616263", Convert.ToHexString(queue.Peek()));
    }

    [Fact]
    public void Peek_MultipartMessage_InvisibleUntilLastFrameCommitted()
    {
        var queue = new FrameQueue();
        Write(queue, "a"u8, more: true);
        Write(queue, "b"u8, more: true);
        Assert.True(queue.Peek().IsEmpty);

        Write(queue, "c"u8);
        queue.Commit(1);

        Assert.True(TryRead(queue, out var a, out bool moreA) && moreA);
        Assert.True(TryRead(queue, out var b, out bool moreB) && moreB);
        Assert.True(TryRead(queue, out var c, out bool moreC) && !moreC);
        Assert.Equal("abc", System.Text.Encoding.ASCII.GetString([.. a, .. b, .. c]));
        Assert.False(queue.HasData);
    }

    [Fact]
    public void Consume_PartOfPeek_NextPeekStartsAfterIt()
    {
        var queue = new FrameQueue();
        WriteMessage(queue, "one"u8.ToArray());
        WriteMessage(queue, "two"u8.ToArray());

        Assert.True(TryRead(queue, out var first, out _));

        Assert.Equal("one"u8.ToArray(), first);
        Assert.Equal("000374776F", Convert.ToHexString(queue.Peek()));
    }

    [Theory]
    [InlineData(1, 2000)]
    [InlineData(100, 500)]
    [InlineData(255, 300)]
    [InlineData(256, 300)]
    [InlineData(3000, 40)]
    [InlineData(FrameQueue.MaxSegmentSize + 100, 3)]
    public void Peek_ManyFramesAcrossSegmentGrowth_AllFramesIntactInOrder(int size, int count)
    {
        var queue = new FrameQueue();
        for (int i = 0; i < count; i++)
        {
            WriteMessage(queue, Body(i, size));
        }

        Assert.Equal(count, queue.QueuedMessages);
        var frames = ReadAllFrames(queue);

        Assert.Equal(count, frames.Count);
        for (int i = 0; i < count; i++)
        {
            Assert.Equal(Body(i, size), frames[i]);
        }

        Assert.Equal(0, queue.QueuedMessages);
        Assert.False(queue.HasData);
    }

    [Fact]
    public void Peek_InterleavedWithWrites_NeverReturnsPartOfAFrame()
    {
        var queue = new FrameQueue();
        var random = new Random(7);
        int written = 0;
        int read = 0;
        for (int round = 0; round < 300; round++)
        {
            int batch = random.Next(1, 20);
            for (int i = 0; i < batch; i++)
            {
                WriteMessage(queue, Body(written, random.Next(0, 700)), Body(written + 1, random.Next(0, 40)));
                written++;
            }

            int take = random.Next(0, batch * 2 + 1);
            for (int i = 0; i < take && TryRead(queue, out _, out _); i++)
            {
                read++;
            }
        }

        while (TryRead(queue, out _, out _))
        {
            read++;
        }

        Assert.Equal(written * 2, read);
        Assert.Equal(0, queue.QueuedMessages);
    }

    [Fact]
    public void PeekMemory_SameBytesAsPeek()
    {
        var queue = new FrameQueue();
        WriteMessage(queue, "hello"u8.ToArray());

        Assert.Equal(Convert.ToHexString(queue.Peek()), Convert.ToHexString(queue.PeekMemory().Span));
    }

    // ------------------------------------------------------------------ EnsureSpace

    [Fact]
    public void EnsureSpace_Fits_ReturnsCarryFromUnchanged()
    {
        var queue = new FrameQueue();
        var buffer = queue.WriteBuffer;

        int carry = queue.EnsureSpace(16, queue.WriteOffset);

        Assert.Equal(0, carry);
        Assert.Same(buffer, queue.WriteBuffer);
    }

    [Fact]
    public void EnsureSpace_PartialFrameAtEnd_CarriesItToNewSegment()
    {
        var queue = new FrameQueue();
        WriteMessage(queue, Body(1, 600));
        int partialStart = queue.WriteOffset;

        // A reader got header + the first 100 body octets of a 500-octet frame.
        byte[] frame = new byte[ZmtpFrame.GetHeaderLength(500)];
        int headerLength = ZmtpFrame.WriteHeader(frame, 500, ZmtpFrameFlags.None);
        byte[] full = [.. frame.AsSpan(0, headerLength), .. Body(9, 500)];
        int partialLength = headerLength + 100;
        var span = queue.GetSpan(partialLength);
        full.AsSpan(0, partialLength).CopyTo(span);
        queue.Advance(partialLength);
        var oldBuffer = queue.WriteBuffer;

        int carried = queue.EnsureSpace(queue.WriteBuffer.Length, partialStart);

        Assert.Equal(0, carried);
        Assert.NotSame(oldBuffer, queue.WriteBuffer);
        Assert.Equal(partialLength, queue.WriteOffset);
        Assert.Equal(Convert.ToHexString(full.AsSpan(0, partialLength)), Convert.ToHexString(queue.WriteBuffer.AsSpan(0, partialLength)));

        // The rest of the frame arrives; committing it publishes it after the earlier message.
        full.AsSpan(partialLength).CopyTo(queue.WriteBuffer.AsSpan(queue.WriteOffset));
        queue.Advance(full.Length - partialLength);
        queue.Commit(1);
        var frames = ReadAllFrames(queue);
        Assert.Equal(2, frames.Count);
        Assert.Equal(Body(1, 600), frames[0]);
        Assert.Equal(Body(9, 500), frames[1]);
    }

    [Fact]
    public void EnsureSpace_CommittedButUnreadData_StaysReadable()
    {
        var queue = new FrameQueue();
        WriteMessage(queue, Body(1, 900));
        queue.EnsureSpace(4096, queue.WriteOffset);
        WriteMessage(queue, Body(2, 10));

        var frames = ReadAllFrames(queue);

        Assert.Equal([Body(1, 900), Body(2, 10)], frames);
    }

    [Fact]
    public void EnsureSpace_LargerThanMaxSegment_ProvidesAtLeastThatMuch()
    {
        var queue = new FrameQueue();
        WriteMessage(queue, Body(1, 10));

        queue.EnsureSpace(FrameQueue.MaxSegmentSize * 3, queue.WriteOffset);

        Assert.True(queue.WriteBuffer.Length - queue.WriteOffset >= FrameQueue.MaxSegmentSize * 3);
    }

    [Theory]
    [InlineData(FrameQueue.MaxSegmentSize + 1)]
    [InlineData(128 * 1024)]
    [InlineData(FrameQueue.LargeSegmentSize - 100)]
    public void EnsureSpace_AboveMaxSegmentUpToLargeSize_TakesOneLargeSegment(int freeBytes)
    {
        var queue = new FrameQueue();
        WriteMessage(queue, Body(1, 10));

        queue.EnsureSpace(freeBytes, queue.WriteOffset);

        Assert.Equal(FrameQueue.LargeSegmentSize, queue.WriteBuffer.Length);
    }

    [Fact]
    public void EnsureSpace_StreamOfLargeReceives_ReusesSpareSegmentsWithoutAllocating()
    {
        // A busy connection asks for a large receive before each read; with one segment size for
        // such requests, the segments the consumer finished with come back as spares that fit.
        var queue = new FrameQueue();
        var frame = new byte[ZmtpFrame.GetHeaderLength(1024) + 1024];
        ZmtpFrame.WriteHeader(frame, 1024, ZmtpFrameFlags.None);
        const int framesPerReceive = 180;

        // Checks count mismatches instead of asserting inside the measured loop: xUnit's asserts allocate.
        int mismatches = 0;
        void ReceiveAndConsumeOnce()
        {
            if (queue.EnsureSpace(192 * 1024, queue.WriteOffset) != queue.WriteOffset)
            {
                mismatches++;
            }

            for (int i = 0; i < framesPerReceive; i++)
            {
                frame.CopyTo(queue.WriteBuffer.AsSpan(queue.WriteOffset));
                queue.Advance(frame.Length);
            }

            queue.CommitAt(queue.WriteOffset, framesPerReceive);
            int consumed = 0;
            for (var span = queue.Peek(); !span.IsEmpty; span = queue.Peek())
            {
                queue.Consume(span.Length);
                consumed += span.Length;
            }

            if (consumed != framesPerReceive * frame.Length)
            {
                mismatches++;
            }

            queue.MessagesConsumed(framesPerReceive);
        }

        for (int i = 0; i < 8; i++)
        {
            ReceiveAndConsumeOnce();
        }

        long before = GC.GetAllocatedBytesForCurrentThread();
        for (int i = 0; i < 100; i++)
        {
            ReceiveAndConsumeOnce();
        }

        Assert.Equal(0, GC.GetAllocatedBytesForCurrentThread() - before);
        Assert.Equal(0, mismatches);
    }

    // ------------------------------------------------------------------ message counting

    [Fact]
    public void QueuedMessages_CountsWholeMessagesNotFrames()
    {
        var queue = new FrameQueue();
        WriteMessage(queue, "a"u8.ToArray());
        WriteMessage(queue, "b"u8.ToArray(), "c"u8.ToArray(), "d"u8.ToArray());
        WriteMessage(queue, []);

        Assert.Equal(3, queue.QueuedMessages);
        Assert.Equal(3, queue.CommittedMessages);

        TryRead(queue, out _, out _);
        Assert.Equal(2, queue.QueuedMessages);
        TryRead(queue, out _, out _);
        TryRead(queue, out _, out _);
        Assert.Equal(2, queue.QueuedMessages);
        TryRead(queue, out _, out _);
        Assert.Equal(1, queue.QueuedMessages);
        Assert.Equal(3, queue.CommittedMessages);
    }

    [Fact]
    public void CommitAt_SeveralMessagesAtOnce_CountsThemAll()
    {
        var queue = new FrameQueue();
        Write(queue, "a"u8);
        Write(queue, "b"u8);
        int end = queue.WriteOffset;
        Write(queue, "partial"u8, more: true);

        queue.CommitAt(end, 2);

        Assert.Equal(2, queue.QueuedMessages);
        Assert.Equal(["a"u8.ToArray(), "b"u8.ToArray()], ReadAllFrames(queue));
    }

    [Fact]
    public void ConsumeAll_DropsEverythingCommitted()
    {
        var queue = new FrameQueue();
        for (int i = 0; i < 100; i++)
        {
            WriteMessage(queue, Body(i, 100));
        }

        queue.ConsumeAll();

        Assert.False(queue.HasData);
        Assert.Equal(0, queue.QueuedMessages);
        WriteMessage(queue, "after"u8.ToArray());
        Assert.Equal(["after"u8.ToArray()], ReadAllFrames(queue));
    }

    // ------------------------------------------------------------------ DiscardUncommitted

    [Fact]
    public void DiscardUncommitted_PartialMessageWithinSegment_NextMessageFollowsLastCommitted()
    {
        var queue = new FrameQueue();
        WriteMessage(queue, "A"u8.ToArray());
        Write(queue, "B1"u8, more: true);
        Write(queue, "B2"u8, more: true);

        queue.DiscardUncommitted();
        WriteMessage(queue, "C"u8.ToArray());

        Assert.Equal(2, queue.QueuedMessages);
        Assert.Equal(["A"u8.ToArray(), "C"u8.ToArray()], ReadAllFrames(queue));
    }

    [Fact]
    public void DiscardUncommitted_PartialMessageAcrossSegments_NextMessageFollowsLastCommitted()
    {
        var queue = new FrameQueue();
        WriteMessage(queue, Body(1, 300));
        var firstSegment = queue.WriteBuffer;
        for (int i = 0; i < 50; i++)
        {
            Write(queue, Body(i, 400), more: true);
        }

        Assert.NotSame(firstSegment, queue.WriteBuffer);

        queue.DiscardUncommitted();
        WriteMessage(queue, Body(2, 20));

        Assert.Equal(2, queue.QueuedMessages);
        Assert.Equal([Body(1, 300), Body(2, 20)], ReadAllFrames(queue));
    }

    [Fact]
    public void DiscardUncommitted_AfterConsumerReadEverythingCommitted_QueueStaysUsable()
    {
        var queue = new FrameQueue();
        for (int i = 0; i < 10; i++)
        {
            WriteMessage(queue, Body(i, 500));
        }

        Assert.Equal(10, ReadAllFrames(queue).Count);
        for (int i = 0; i < 20; i++)
        {
            Write(queue, Body(i, 500), more: true);
        }

        queue.DiscardUncommitted();
        WriteMessage(queue, Body(3, 3));

        Assert.Equal([Body(3, 3)], ReadAllFrames(queue));
    }

    [Fact]
    public void DiscardUncommitted_NothingUncommitted_NoChange()
    {
        var queue = new FrameQueue();
        WriteMessage(queue, "A"u8.ToArray());

        queue.DiscardUncommitted();
        WriteMessage(queue, "B"u8.ToArray());

        Assert.Equal(["A"u8.ToArray(), "B"u8.ToArray()], ReadAllFrames(queue));
    }

    [Fact]
    public void DiscardUncommitted_EmptyQueueWithPartial_DropsIt()
    {
        var queue = new FrameQueue();
        for (int i = 0; i < 10; i++)
        {
            Write(queue, Body(i, 300), more: true);
        }

        queue.DiscardUncommitted();
        WriteMessage(queue, "B"u8.ToArray());

        Assert.Equal(["B"u8.ToArray()], ReadAllFrames(queue));
    }

    // ------------------------------------------------------------------ two threads

    [Fact]
    public async Task ProducerConsumer_TwoThreadsMillionFrames_AllIntactAndInOrder()
    {
        const int Frames = 1_000_000;
        var queue = new FrameQueue();
        var deadline = Stopwatch.StartNew();

        var producer = Task.Factory.StartNew(
            () =>
            {
                Span<byte> body = stackalloc byte[12];
                int frame = 0;
                while (frame < Frames)
                {
                    // Every fourth message has two frames, so commits also cover multipart messages.
                    int parts = frame % 4 == 0 && frame + 1 < Frames ? 2 : 1;
                    for (int p = 0; p < parts; p++, frame++)
                    {
                        int length = 4 + (frame % 9);
                        BinaryPrimitives.WriteInt32LittleEndian(body, frame);
                        body.Slice(4, length - 4).Fill((byte)frame);
                        Write(queue, body.Slice(0, length), more: p < parts - 1);
                    }

                    queue.Commit(1);
                }
            },
            TaskCreationOptions.LongRunning);

        var consumer = Task.Factory.StartNew(
            () =>
            {
                int expected = 0;
                bool inMessage = false;
                var spinner = default(SpinWait);
                while (expected < Frames)
                {
                    var span = queue.Peek();
                    if (span.IsEmpty)
                    {
                        // A message is committed whole: once its first frame is seen, the rest is there.
                        Assert.False(inMessage, $"frame {expected} of a committed message was not visible");
                        Assert.True(deadline.Elapsed < TimeSpan.FromSeconds(30), $"stalled at frame {expected}");
                        spinner.SpinOnce(sleep1Threshold: -1);
                        continue;
                    }

                    while (!span.IsEmpty)
                    {
                        if (ZmtpFrame.TryReadHeader(span, out var header) != ZmtpStatus.Done || header.FrameLength > span.Length)
                        {
                            Assert.Fail($"frame {expected} straddles a segment or is corrupt");
                        }

                        var body = span.Slice(header.HeaderLength, (int)header.BodyLength);
                        int length = 4 + (expected % 9);
                        if (body.Length != length || BinaryPrimitives.ReadInt32LittleEndian(body) != expected
                            || body.Slice(4).IndexOfAnyExcept((byte)expected) >= 0)
                        {
                            Assert.Fail($"frame {expected} corrupt");
                        }

                        span = span.Slice((int)header.FrameLength);
                        queue.Consume((int)header.FrameLength);
                        inMessage = header.More;
                        if (!header.More)
                        {
                            queue.MessagesConsumed(1);
                        }

                        expected++;
                    }
                }
            },
            TaskCreationOptions.LongRunning);

        await Task.WhenAll(producer, consumer).WaitAsync(TimeSpan.FromSeconds(60));

        Assert.False(queue.HasData);
        Assert.Equal(0, queue.QueuedMessages);
    }
}
