using Managed.Zmq.Wire;
using Managed.Zmq.Pipes;

namespace Managed.Zmq.Tests.Pipes;

/// <summary>
/// Frames whose bytes travel by reference (large and zero-copy frames): the queue holds only their
/// header, and its payloads must stay in step with those headers through a commit, a message cut
/// short by a lost connection, and a queue dropped whole.
/// </summary>
public sealed class FrameQueueExternalFrameTests
{
    private readonly TaggedPayloads _payloads = new();

    private List<int> Released => _payloads.Released;

    /// <summary>Queues a header-only frame the way <see cref="Pipe"/> does for a payload sent by reference.</summary>
    private void WriteExternal(FrameQueue queue, int tag, bool more)
    {
        var span = queue.GetSpan(ZmtpFrame.GetHeaderLength(1));
        int headerLength = ZmtpFrame.WriteHeader(span, 1, more ? ZmtpFrameFlags.More : ZmtpFrameFlags.None);
        span[0] |= QueuedFrame.ExternalMarker;
        queue.EnqueuePayload(_payloads.Create(tag), committedNext: !more);
        queue.Advance(headerLength);
    }

    private static void WriteInline(FrameQueue queue, byte tag, bool more)
    {
        var span = queue.GetSpan(3);
        int headerLength = ZmtpFrame.WriteHeader(span, 1, more ? ZmtpFrameFlags.More : ZmtpFrameFlags.None);
        span[headerLength] = tag;
        queue.Advance(headerLength + 1);
    }

    /// <summary>Reads every committed frame's byte, from the queue or from its payload.</summary>
    private static List<int> ReadAll(FrameQueue queue)
    {
        var tags = new List<int>();
        while (true)
        {
            var span = queue.Peek();
            if (span.IsEmpty)
            {
                return tags;
            }

            int length = QueuedFrame.Read(span, out var header, out bool external);
            if (external)
            {
                var payload = queue.TakePayload();
                tags.Add(payload.Span[0]);
                payload.Release();
            }
            else
            {
                tags.Add(span[header.HeaderLength]);
            }

            queue.Consume(length);
            if (!header.More)
            {
                queue.MessagesConsumed(1);
            }
        }
    }

    [Fact]
    public void Commit_MixedInlineAndExternalFrames_PayloadsInFrameOrder()
    {
        var queue = new FrameQueue();
        WriteInline(queue, 1, more: true);
        WriteExternal(queue, 2, more: true);
        WriteInline(queue, 3, more: true);
        WriteExternal(queue, 4, more: false);
        queue.Commit(1);
        WriteExternal(queue, 5, more: false);
        queue.Commit(1);

        Assert.Equal([1, 2, 3, 4, 5], ReadAll(queue));
        Assert.Equal([2, 4, 5], Released);
    }

    [Fact]
    public void DiscardUncommitted_MessageWithExternalFrames_ReleasesThemAndNextMessageStaysAligned()
    {
        var queue = new FrameQueue();
        WriteExternal(queue, 1, more: false);
        queue.Commit(1);
        WriteExternal(queue, 2, more: true);
        WriteInline(queue, 3, more: true);
        WriteExternal(queue, 4, more: true);

        queue.DiscardUncommitted();

        Assert.Equal([2, 4], Released);
        WriteInline(queue, 5, more: true);
        WriteExternal(queue, 6, more: false);
        queue.Commit(1);

        Assert.Equal([1, 5, 6], ReadAll(queue));
        Assert.Equal([2, 4, 1, 6], Released);
    }

    [Fact]
    public void ConsumeAll_CommittedExternalFrames_ReleasedEachOnce()
    {
        var queue = new FrameQueue();
        for (int i = 0; i < 40; i++)
        {
            WriteExternal(queue, i, more: i % 2 == 0);
            if (i % 2 == 1)
            {
                queue.Commit(1);
            }
        }

        queue.ConsumeAll();

        Assert.Equal(Enumerable.Range(0, 40), Released);
        queue.ReleasePayloads();
        Assert.Equal(40, Released.Count);
    }

    [Fact]
    public void ReleasePayloads_CommittedAndPartialMessage_EveryPayloadReleasedOnce()
    {
        var queue = new FrameQueue();
        WriteExternal(queue, 1, more: false);
        queue.Commit(1);
        WriteExternal(queue, 2, more: true);

        queue.ReleasePayloads();
        queue.ReleasePayloads();

        Released.Sort();
        Assert.Equal([1, 2], Released);
    }
}
