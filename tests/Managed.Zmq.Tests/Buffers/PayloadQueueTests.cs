
using Managed.Zmq.Buffers;

namespace Managed.Zmq.Tests.Buffers;

/// <summary>
/// The queue of payloads sent by reference: a payload becomes the consumer's only when its message
/// is committed, a message cut short releases exactly its own payloads, order survives ring growth,
/// and an abandoned queue gives back everything it holds.
/// </summary>
public sealed class PayloadQueueTests
{
    private readonly TaggedPayloads _payloads = new();

    private List<int> Released => _payloads.Released;

    private OutboundPayload Payload(int tag) => _payloads.Create(tag);

    private static int TagOf(OutboundPayload payload) => TaggedPayloads.TagOf(payload);

    [Fact]
    public void Add_NotCommittedNext_InvisibleUntilPublish()
    {
        var queue = new PayloadQueue();
        queue.Add(Payload(1), committedNext: false);

        Assert.False(queue.TryDequeue(out _));
        Assert.Equal(1, queue.PendingCount);

        queue.Publish();

        Assert.Equal(0, queue.PendingCount);
        Assert.True(queue.TryDequeue(out var payload));
        Assert.Equal(1, TagOf(payload!));
        payload!.Release();
        Assert.Equal([1], Released);
    }

    [Fact]
    public void Add_CommittedNextWithNothingPending_VisibleAtOnce()
    {
        var queue = new PayloadQueue();
        queue.Add(Payload(7), committedNext: true);

        Assert.Equal(0, queue.PendingCount);
        Assert.Equal(7, TagOf(queue.Peek()));
        queue.Dequeue().Release();
    }

    [Fact]
    public void Add_CommittedNextAfterPendingFrames_WaitsForPublishToKeepOrder()
    {
        var queue = new PayloadQueue();
        queue.Add(Payload(1), committedNext: false);
        queue.Add(Payload(2), committedNext: true);

        Assert.False(queue.TryDequeue(out _));
        queue.Publish();

        Assert.Equal(1, TagOf(queue.PeekAt(0)));
        Assert.Equal(2, TagOf(queue.PeekAt(1)));
        queue.Dequeue().Release();
        queue.Dequeue().Release();
    }

    [Fact]
    public void DiscardPending_ReleasesOnlyTheUncommittedMessage()
    {
        var queue = new PayloadQueue();
        queue.Add(Payload(1), committedNext: true);
        queue.Add(Payload(2), committedNext: false);
        queue.Add(Payload(3), committedNext: false);

        queue.DiscardPending();

        Assert.Equal([2, 3], Released);
        Assert.Equal(0, queue.PendingCount);
        Assert.True(queue.TryDequeue(out var kept));
        Assert.Equal(1, TagOf(kept!));
        Assert.False(queue.TryDequeue(out _));
        kept!.Release();
    }

    [Fact]
    public void Dequeue_ManyMoreThanInitialRing_OrderKeptAcrossGrowth()
    {
        var queue = new PayloadQueue();
        for (int round = 0; round < 3; round++)
        {
            // Interleave so the ring wraps before it grows.
            for (int i = 0; i < 10; i++)
            {
                queue.Add(Payload(i), committedNext: true);
            }

            for (int i = 0; i < 5; i++)
            {
                Assert.Equal(i, TagOf(queue.Peek()));
                queue.Dequeue().Release();
            }

            for (int i = 10; i < 100; i++)
            {
                queue.Add(Payload(i), committedNext: true);
            }

            for (int i = 5; i < 100; i++)
            {
                Assert.True(queue.TryDequeue(out var payload));
                Assert.Equal(i, TagOf(payload!));
                payload!.Release();
            }

            Assert.False(queue.TryDequeue(out _));
        }

        Assert.Equal(300, Released.Count);
    }

    [Fact]
    public void TryTakeAny_AbandonedQueue_GivesBackCommittedAndPending()
    {
        var queue = new PayloadQueue();
        queue.Add(Payload(1), committedNext: true);
        queue.Add(Payload(2), committedNext: false);

        while (queue.TryTakeAny(out var payload))
        {
            payload!.Release();
        }

        Released.Sort();
        Assert.Equal([1, 2], Released);
        Assert.Equal(0, queue.PendingCount);
    }

    [Fact]
    public void Dequeue_Empty_Throws()
    {
        var queue = new PayloadQueue();
        Assert.Throws<InvalidOperationException>(() => queue.Dequeue());
        Assert.Throws<InvalidOperationException>(() => queue.Peek());
    }
}
