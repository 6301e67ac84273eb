using System.Runtime.InteropServices;
using Managed.Zmq.Tests.Support;

namespace Managed.Zmq.Tests.Api.Messages;

/// <summary>
/// <see cref="Message.Rebuild(MessagePool, int)"/>: one Message object refilled from a pool for each send. Each rebuild
/// is a rent whose buffer goes back exactly once, and a message that gave its buffer back can never touch a later
/// rental of it (no double release), whatever the caller does with the message afterwards.
/// </summary>
public sealed unsafe class MessageRebuildFromPoolTests
{
    private const int FourMiB = 4 * 1024 * 1024;

    /// <summary>The address of a message's content, to tell pool buffers apart.</summary>
    private static nint Address(Message message) => (nint)System.Runtime.CompilerServices.Unsafe.AsPointer(ref MemoryMarshal.GetReference(message.Data));

    /// <summary>
    /// A buffer returned twice would sit twice in the pool's thread cache, and two later rents would share it:
    /// rents as many buffers as the thread cache holds and more, and checks they are all distinct.
    /// </summary>
    private static void AssertLaterRentsDistinct(MessagePool pool, int size)
    {
        var rented = new List<Message>();
        try
        {
            for (int i = 0; i < 20; i++)
            {
                rented.Add(pool.Rent(size));
            }

            Assert.Equal(rented.Count, rented.Select(Address).Distinct().Count());
        }
        finally
        {
            rented.ForEach(m => m.Dispose());
        }
    }

    [Fact]
    public void Rebuild_FromPool_PooledWithSizeAndBucketCapacity()
    {
        var pool = new MessagePool();
        using var message = new Message("old content");

        message.Rebuild(pool, 100);

        Assert.Equal(100, message.Size);
        Assert.Equal(128, message.BufferSize);
        Assert.False(message.More);
        message.SetActualDataSize(120);
        Assert.Equal(120, message.Size);
        var statistics = pool.GetStatistics();
        Assert.Equal(1, statistics.TotalRents);
        Assert.Equal(0, statistics.TotalReturns);
    }

    [Fact]
    public void Rebuild_FromPoolRepeatedly_EachBufferReturnedOnce()
    {
        var pool = new MessagePool();
        var message = new Message();
        for (int i = 0; i < 100; i++)
        {
            message.Rebuild(pool, 64);
            message.Data.Fill((byte)i);
        }

        Assert.Equal(99, pool.GetStatistics().TotalReturns);
        message.Dispose();
        message.Dispose();

        var statistics = pool.GetStatistics();
        Assert.Equal(100, statistics.TotalRents);
        Assert.Equal(100, statistics.TotalReturns);
        Assert.Equal(0, statistics.OutstandingBuffers);
        AssertLaterRentsDistinct(pool, 64);
    }

    [Fact]
    public void Rebuild_FromPoolThenPlainRebuild_ReturnsBufferAndLeavesAnUnpooledMessage()
    {
        var pool = new MessagePool();
        using var message = new Message();
        message.Rebuild(pool, 64);

        message.Rebuild(10);

        Assert.Equal(10, message.Size);
        Assert.Equal(10, message.BufferSize);
        Assert.Throws<InvalidOperationException>(() => message.SetActualDataSize(5));
        Assert.Equal(0, pool.GetStatistics().OutstandingBuffers);
        AssertLaterRentsDistinct(pool, 64);
    }

    [Fact]
    public void Rebuild_FromPoolAfterBufferReturned_OldMessageNeverTouchesTheNextRental()
    {
        var pool = new MessagePool();
        var message = new Message();
        message.Rebuild(pool, 64);
        nint first = Address(message);
        message.Dispose();

        // LIFO thread cache: the next rent gets the same buffer back.
        using var next = pool.Rent(64);
        Assert.Equal(first, Address(next));
        next.Data.Fill(0x5A);

        // Everything the old message can still be asked to do is refused or harmless.
        message.Dispose();
        Assert.Throws<InvalidOperationException>(() => message.Rebuild(pool, 64));
        Assert.Throws<InvalidOperationException>(() => message.Rebuild());
        Assert.Throws<InvalidOperationException>(() => _ = message.Data);

        Assert.True(next.Data.IndexOfAnyExcept((byte)0x5A) < 0);
        Assert.Equal(1, pool.GetStatistics().OutstandingBuffers);
    }

    [Fact]
    public void Rebuild_FromPoolThenMovedOut_BufferReturnedOnceByTheNewOwner()
    {
        var pool = new MessagePool();
        using var source = new Message();
        using var target = new Message();
        source.Rebuild(pool, 64);
        nint buffer = Address(source);

        target.Move(source);
        Assert.Equal(buffer, Address(target));
        Assert.Equal(0, source.Size);
        source.Dispose();
        Assert.Equal(1, pool.GetStatistics().OutstandingBuffers);

        target.Dispose();
        Assert.Equal(0, pool.GetStatistics().OutstandingBuffers);
        AssertLaterRentsDistinct(pool, 64);
    }

    [Fact]
    public void Rebuild_FromPoolOverZeroCopyContent_CallbackRunsOnce()
    {
        var pool = new MessagePool();
        int calls = 0;
        var memory = (nint)NativeMemory.Alloc(16);
        using var message = new Message(memory, 16, data =>
        {
            NativeMemory.Free((void*)data);
            Interlocked.Increment(ref calls);
        });

        message.Rebuild(pool, 16);
        message.Rebuild(pool, 16);
        message.Dispose();

        Assert.Equal(1, calls);
        Assert.Equal(0, pool.GetStatistics().OutstandingBuffers);
    }

    [Fact]
    public void Rebuild_FromPoolAbove4MiB_UnpooledButCountedAsRentAndReturn()
    {
        var pool = new MessagePool();
        var message = new Message();

        message.Rebuild(pool, FourMiB + 1);

        Assert.Equal(FourMiB + 1, message.Size);
        Assert.Equal(FourMiB + 1, message.BufferSize);
        var rented = pool.GetStatistics();
        Assert.Equal(1, rented.TotalRents);
        Assert.Equal(1, rented.PoolMisses);
        message.Rebuild(pool, 64);
        message.Dispose();
        message.Dispose();
        var statistics = pool.GetStatistics();
        Assert.Equal(2, statistics.TotalRents);
        Assert.Equal(2, statistics.TotalReturns);
    }

    [Fact]
    public void Rebuild_FromPool_InvalidArguments_Throw()
    {
        using var message = new Message();
        Assert.Throws<ArgumentNullException>("pool", () => message.Rebuild(null!, 10));
        Assert.Throws<ArgumentOutOfRangeException>("size", () => message.Rebuild(MessagePool.Shared, -1));

        var disposed = new Message();
        disposed.Dispose();
        Assert.Throws<InvalidOperationException>(() => disposed.Rebuild(MessagePool.Shared, 10));
    }

    [Theory]
    [TransportCases(With = [64, 40_000, 300_000])]
    public void Rebuild_FromPoolSentRepeatedly_EveryBufferBackOnceAndBytesIntact(Transport transport, int size)
    {
        const int Messages = 50;
        var pool = new MessagePool();
        using var pair = new PushPullPair(transport, "rebuild-pool");
        using var outgoing = new Message();
        using var incoming = new Message();
        for (int i = 0; i < Messages; i++)
        {
            outgoing.Rebuild(pool, size);
            outgoing.Data.Fill((byte)i);
            Assert.Equal(size, pair.Push.Send(outgoing));
            Assert.Equal(0, outgoing.Size);

            // Disposing or rebuilding after a send is harmless: the send gave the buffer back already.
            outgoing.Rebuild();
        }

        for (int i = 0; i < Messages; i++)
        {
            Assert.Equal(size, pair.Pull.Recv(incoming));
            Assert.True(incoming.Data.IndexOfAnyExcept((byte)i) < 0, $"message {i} changed");
        }

        // An inproc frame that travelled by reference is the receiver's until it releases it.
        incoming.Rebuild();
        Assert.True(
            SpinWait.SpinUntil(() => pool.GetStatistics().OutstandingBuffers == 0, TimeSpan.FromSeconds(10)),
            pool.GetStatistics().ToString());
        var statistics = pool.GetStatistics();
        Assert.Equal(Messages, statistics.TotalRents);
        Assert.Equal(Messages, statistics.TotalReturns);
        AssertLaterRentsDistinct(pool, size);
    }
}
