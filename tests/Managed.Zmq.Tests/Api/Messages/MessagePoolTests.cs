using System.Runtime.CompilerServices;

namespace Managed.Zmq.Tests.Api.Messages;

public class MessagePoolTests
{
    private const int FourMiB = 4 * 1024 * 1024;

    /// <summary>
    /// How long a test waits on its own threads (through <see cref="BackgroundCall"/>, so a failure on one is reported
    /// and a hung one cannot keep the run alive): generous, reached only when the pool hangs a thread.
    /// </summary>
    private const int ThreadLimit = 30_000;

    [Fact]
    public void Shared_Always_ReturnsSameInstance() => Assert.Same(MessagePool.Shared, MessagePool.Shared);

    [Fact]
    public void Ctor_New_HasEmptyStatisticsAndDefaultCaps()
    {
        var pool = new MessagePool();
        Assert.Equal(default, pool.GetStatistics());
        Assert.Equal(1000, pool.GetMaxBuffers(MessageSize.B16));
        Assert.Equal(1000, pool.GetMaxBuffers(MessageSize.B512));
        Assert.Equal(500, pool.GetMaxBuffers(MessageSize.K1));
        Assert.Equal(500, pool.GetMaxBuffers(MessageSize.K4));
        Assert.Equal(250, pool.GetMaxBuffers(MessageSize.K8));
        Assert.Equal(250, pool.GetMaxBuffers(MessageSize.K64));
        Assert.Equal(100, pool.GetMaxBuffers(MessageSize.K128));
        Assert.Equal(100, pool.GetMaxBuffers(MessageSize.K512));
        Assert.Equal(50, pool.GetMaxBuffers(MessageSize.M1));
        Assert.Equal(50, pool.GetMaxBuffers(MessageSize.M4));
    }

    [Theory]
    [InlineData(0, 16)]
    [InlineData(1, 16)]
    [InlineData(16, 16)]
    [InlineData(17, 32)]
    [InlineData(1000, 1024)]
    [InlineData(1025, 2048)]
    [InlineData(FourMiB, FourMiB)]
    public void Rent_Size_UsesSmallestFittingBucket(int size, int bufferSize)
    {
        var pool = new MessagePool();
        using Message message = pool.Rent(size);
        Assert.Equal(size, message.Size);
        Assert.Equal(size, message.ActualDataSize);
        Assert.Equal(bufferSize, message.BufferSize);
        Assert.Equal(size, message.Data.Length);
    }

    [Fact]
    public void Rent_Data_CopiesIntoPooledBuffer()
    {
        var pool = new MessagePool();
        byte[] data = "hello pool"u8.ToArray();
        using Message message = pool.Rent(data);
        Assert.Equal(data.Length, message.Size);
        Assert.Equal(16, message.BufferSize);
        Assert.Equal(data, message.ToArray());
    }

    [Fact]
    public void Rent_EmptyData_HasSizeZero()
    {
        using Message message = new MessagePool().Rent(ReadOnlySpan<byte>.Empty);
        Assert.Equal(0, message.Size);
        Assert.Equal(16, message.BufferSize);
    }

    [Fact]
    public void Rent_NegativeSize_ThrowsArgumentOutOfRange()
    {
        var ex = Assert.Throws<ArgumentOutOfRangeException>(() => new MessagePool().Rent(-1));
        Assert.Equal("size", ex.ParamName);
    }

    [Fact]
    public void Rent_Oversize_IsUnpooledButCounted()
    {
        var pool = new MessagePool();
        Message message = pool.Rent(FourMiB + 1);
        Assert.Equal(FourMiB + 1, message.Size);
        Assert.Equal(FourMiB + 1, message.BufferSize);
        Assert.Throws<InvalidOperationException>(() => message.SetActualDataSize(1));
        PoolStatistics stats = pool.GetStatistics();
        Assert.Equal(1, stats.TotalRents);
        Assert.Equal(1, stats.PoolMisses);
        Assert.Equal(1, stats.OutstandingBuffers);
        message.Dispose();
        message.Dispose();
        stats = pool.GetStatistics();
        Assert.Equal(1, stats.TotalReturns);
        Assert.Equal(0, stats.OutstandingBuffers);
    }

    [Fact]
    public void Rent_OversizeData_CopiesAndCountsReturnOnReleaseAfterSend()
    {
        var pool = new MessagePool();
        byte[] data = new byte[FourMiB + 4];
        data[^1] = 9;
        using Message message = pool.Rent(data);
        Assert.Equal(9, message.Data[^1]);
        message.ReleaseAfterSend(mayWait: true);
        Assert.Equal(0, pool.GetStatistics().OutstandingBuffers);
    }

    [Fact]
    public void Statistics_RentDisposeRent_CountsMissThenHit()
    {
        var pool = new MessagePool();
        pool.Rent(10).Dispose();
        pool.Rent(10).Dispose();
        PoolStatistics stats = pool.GetStatistics();
        Assert.Equal(2, stats.TotalRents);
        Assert.Equal(2, stats.TotalReturns);
        Assert.Equal(1, stats.PoolMisses);
        Assert.Equal(1, stats.PoolHits);
        Assert.Equal(0, stats.PoolRejects);
        Assert.Equal(0, stats.OutstandingBuffers);
        Assert.Equal(0.5, stats.HitRate);
    }

    [Fact]
    public void Return_BeyondThreadCacheAndCap_CountsRejects()
    {
        var pool = new MessagePool();
        pool.SetMaxBuffers(MessageSize.B16, 1);
        Message[] messages = Enumerable.Range(0, 10).Select(_ => pool.Rent(1)).ToArray();
        foreach (Message message in messages)
        {
            message.Dispose();
        }

        // 8 go to this thread's level 1, 1 to level 2 (its cap), the last is discarded.
        PoolStatistics stats = pool.GetStatistics();
        Assert.Equal(10, stats.PoolMisses);
        Assert.Equal(10, stats.TotalReturns);
        Assert.Equal(1, stats.PoolRejects);
        Assert.Equal(1, pool.GetPoolCounts()[16]);

        Message[] again = Enumerable.Range(0, 10).Select(_ => pool.Rent(1)).ToArray();
        stats = pool.GetStatistics();
        Assert.Equal(9, stats.PoolHits);
        Assert.Equal(11, stats.PoolMisses);
        Assert.Equal(0, pool.GetPoolCounts()[16]);
        foreach (Message message in again)
        {
            message.Dispose();
        }

        Assert.Equal(0, pool.GetStatistics().OutstandingBuffers);
    }

    [Fact]
    public void Dispose_Twice_ReturnsBufferOnce()
    {
        var pool = new MessagePool();
        Message message = pool.Rent(100);
        message.Dispose();
        message.Dispose();
        Assert.Equal(1, pool.GetStatistics().TotalReturns);
    }

    [Fact]
    public void Dispose_StaleMessage_DoesNotAffectLaterRental()
    {
        var pool = new MessagePool();
        Message first = pool.Rent("first"u8);
        first.Dispose();
        using Message second = pool.Rent("second"u8);
        first.Dispose();
        Assert.Equal("second", second.ToString());
        Assert.Throws<InvalidOperationException>(() => _ = first.Data);
        PoolStatistics stats = pool.GetStatistics();
        Assert.Equal(1, stats.TotalReturns);
        Assert.Equal(1, stats.OutstandingBuffers);
    }

    [Fact]
    public void Rebuild_Pooled_ReturnsBufferOnceAndBecomesUnpooled()
    {
        var pool = new MessagePool();
        Message message = pool.Rent(10);
        message.Rebuild(5);
        Assert.Equal(5, message.BufferSize);
        Assert.Throws<InvalidOperationException>(() => message.SetActualDataSize(1));
        message.Rebuild();
        message.Dispose();
        Assert.Equal(1, pool.GetStatistics().TotalReturns);
        Assert.Equal(0, pool.GetStatistics().OutstandingBuffers);
    }

    [Fact]
    public void ReleaseAfterSend_Pooled_ReturnsBufferOnceAndStaysUsable()
    {
        var pool = new MessagePool();
        Message message = pool.Rent("abc"u8);
        message.ReleaseAfterSend(mayWait: true);
        Assert.Equal(0, message.Size);
        Assert.Equal(0, pool.GetStatistics().OutstandingBuffers);
        message.ReleaseAfterSend(mayWait: true);
        message.Dispose();
        Assert.Equal(1, pool.GetStatistics().TotalReturns);
    }

    [Fact]
    public void PrepareReceive_FittingFrame_StaysPooledWithoutReturn()
    {
        var pool = new MessagePool();
        using Message message = pool.Rent(100);
        Span<byte> span = message.PrepareReceive(64);
        Assert.Equal(64, span.Length);
        Assert.Equal(64, message.Size);
        Assert.Equal(128, message.BufferSize);
        message.SetActualDataSize(3);
        Assert.Equal(0, pool.GetStatistics().TotalReturns);
    }

    [Fact]
    public void PrepareReceive_FrameTooLarge_ReturnsBufferAndBecomesOrdinary()
    {
        var pool = new MessagePool();
        Message message = pool.Rent(10);
        message.PrepareReceive(17);
        Assert.Equal(17, message.Size);
        Assert.Equal(17, message.BufferSize);
        Assert.Equal(1, pool.GetStatistics().TotalReturns);
        message.Dispose();
        Assert.Equal(1, pool.GetStatistics().TotalReturns);
    }

    [Fact]
    public void Move_PooledIntoTarget_TransfersPoolOwnership()
    {
        var pool = new MessagePool();
        Message source = pool.Rent("data"u8);
        var target = new Message("x");
        target.Move(source);
        Assert.Equal(16, target.BufferSize);
        Assert.Equal("data", target.ToString());
        source.Dispose();
        Assert.Equal(0, pool.GetStatistics().TotalReturns);
        target.SetActualDataSize(2);
        target.Dispose();
        Assert.Equal(1, pool.GetStatistics().TotalReturns);
    }

    [Fact]
    public void Move_IntoPooledTarget_ReturnsTargetBufferOnce()
    {
        var pool = new MessagePool();
        Message target = pool.Rent(10);
        using var source = new Message("plain");
        target.Move(source);
        Assert.Equal(1, pool.GetStatistics().TotalReturns);
        Assert.Equal(5, target.BufferSize);
        target.Dispose();
        Assert.Equal(1, pool.GetStatistics().TotalReturns);
    }

    [Fact]
    public void Copy_IntoPooledTarget_ReturnsTargetBufferOnce()
    {
        var pool = new MessagePool();
        Message target = pool.Rent(10);
        using var source = new Message("plain");
        target.Copy(source);
        target.Dispose();
        Assert.Equal(1, pool.GetStatistics().TotalReturns);
        Assert.Equal(0, pool.GetStatistics().OutstandingBuffers);
    }

    [Fact]
    public void Finalizer_UndisposedRent_StaysOutstanding()
    {
        var pool = new MessagePool();
        RentAndAbandon(pool);
        GC.Collect();
        GC.WaitForPendingFinalizers();
        GC.Collect();
        PoolStatistics stats = pool.GetStatistics();
        Assert.Equal(1, stats.OutstandingBuffers);
        Assert.Equal(0, stats.TotalReturns);
    }

    [Fact]
    public void Prewarm_Count_FillsLevelTwoWithoutRents()
    {
        var pool = new MessagePool();
        pool.Prewarm(MessageSize.B64, 5);
        Assert.Equal(5, pool.GetPoolCounts()[64]);
        Assert.Equal(0, pool.GetStatistics().TotalRents);
        pool.Rent(64).Dispose();
        Assert.Equal(1, pool.GetStatistics().PoolHits);
    }

    [Fact]
    public void Prewarm_AboveCap_StopsAtCap()
    {
        var pool = new MessagePool();
        pool.SetMaxBuffers(MessageSize.K1, 3);
        pool.Prewarm(MessageSize.K1, 10);
        Assert.Equal(3, pool.GetPoolCounts()[1024]);
        pool.Prewarm(MessageSize.K1, 10);
        Assert.Equal(3, pool.GetPoolCounts()[1024]);
    }

    [Theory]
    [InlineData(0)]
    [InlineData(-5)]
    public void Prewarm_NonPositiveCount_DoesNothing(int count)
    {
        var pool = new MessagePool();
        pool.Prewarm(MessageSize.B16, count);
        Assert.All(pool.GetPoolCounts().Values, c => Assert.Equal(0, c));
    }

    [Fact]
    public void Prewarm_CastSize_SelectsContainingBucket()
    {
        var pool = new MessagePool();
        pool.Prewarm((MessageSize)1000, 2);
        Assert.Equal(2, pool.GetPoolCounts()[1024]);
    }

    [Fact]
    public void Prewarm_Sizes_AppliesEach()
    {
        var pool = new MessagePool();
        pool.Prewarm([MessageSize.B32, MessageSize.K2], 2);
        Assert.Equal(2, pool.GetPoolCounts()[32]);
        Assert.Equal(2, pool.GetPoolCounts()[2048]);
    }

    [Fact]
    public void Prewarm_NullSizes_ThrowsArgumentNull()
    {
        var ex = Assert.Throws<ArgumentNullException>(() => new MessagePool().Prewarm((MessageSize[])null!, 1));
        Assert.Equal("sizes", ex.ParamName);
    }

    [Fact]
    public void Prewarm_Configuration_AppliesPositiveCounts()
    {
        var pool = new MessagePool();
        pool.Prewarm(new Dictionary<MessageSize, int> { [MessageSize.B128] = 4, [MessageSize.B256] = 0 });
        Assert.Equal(4, pool.GetPoolCounts()[128]);
        Assert.Equal(0, pool.GetPoolCounts()[256]);
    }

    [Fact]
    public void Prewarm_NullConfiguration_ThrowsArgumentNull()
    {
        var ex = Assert.Throws<ArgumentNullException>(() => new MessagePool().Prewarm((Dictionary<MessageSize, int>)null!));
        Assert.Equal("configuration", ex.ParamName);
    }

    [Fact]
    public void Prewarm_NegativeCountInConfiguration_ThrowsBeforeApplyingAny()
    {
        var pool = new MessagePool();
        var configuration = new Dictionary<MessageSize, int> { [MessageSize.B128] = 4, [MessageSize.K8] = -1 };
        var ex = Assert.Throws<ArgumentException>(() => pool.Prewarm(configuration));
        Assert.Equal("configuration", ex.ParamName);
        Assert.StartsWith("Buffer count must be non-negative for size K8", ex.Message);
        Assert.Equal(0, pool.GetPoolCounts()[128]);
    }

    [Fact]
    public void Clear_Pooled_FreesLevelTwoAndThreadCache()
    {
        var pool = new MessagePool();
        pool.Prewarm(MessageSize.B16, 4);
        pool.Rent(1).Dispose();
        pool.Clear();
        Assert.Equal(0, pool.GetPoolCounts()[16]);
        long hits = pool.GetStatistics().PoolHits;
        pool.Rent(1).Dispose();
        Assert.Equal(hits, pool.GetStatistics().PoolHits);
    }

    [Fact]
    public void Clear_WithOutstandingRent_RentStillReturns()
    {
        var pool = new MessagePool();
        Message message = pool.Rent("x"u8);
        pool.Clear();
        Assert.Equal("x", message.ToString());
        message.Dispose();
        Assert.Equal(0, pool.GetStatistics().OutstandingBuffers);
    }

    [Fact]
    public void GetPoolCounts_New_Has19BucketsOfZero()
    {
        Dictionary<int, int> counts = new MessagePool().GetPoolCounts();
        Assert.Equal(Enum.GetValues<MessageSize>().Select(s => (int)s).Order(), counts.Keys.Order());
        Assert.All(counts.Values, c => Assert.Equal(0, c));
    }

    [Fact]
    public void SetMaxBuffers_Value_IsReadBack()
    {
        var pool = new MessagePool();
        pool.SetMaxBuffers(MessageSize.K16, 7);
        Assert.Equal(7, pool.GetMaxBuffers(MessageSize.K16));
        pool.SetMaxBuffers((MessageSize)1000, 9);
        Assert.Equal(9, pool.GetMaxBuffers(MessageSize.K1));
    }

    [Fact]
    public void SetMaxBuffers_PerInstance_DoesNotAffectOtherPools()
    {
        var a = new MessagePool();
        var b = new MessagePool();
        a.SetMaxBuffers(MessageSize.B16, 2);
        Assert.Equal(1000, b.GetMaxBuffers(MessageSize.B16));
    }

    [Theory]
    [InlineData(0)]
    [InlineData(-1)]
    public void SetMaxBuffers_NonPositive_ThrowsArgumentException(int maxBuffers)
    {
        var ex = Assert.Throws<ArgumentException>(() => new MessagePool().SetMaxBuffers(MessageSize.B16, maxBuffers));
        Assert.Equal("maxBuffers", ex.ParamName);
        Assert.StartsWith("maxBuffers must be positive", ex.Message);
    }

    [Fact]
    public void SetMaxBuffers_NotPoolable_ThrowsArgumentException()
    {
        var ex = Assert.Throws<ArgumentException>(() => new MessagePool().SetMaxBuffers((MessageSize)(FourMiB * 2), 1));
        Assert.Equal("size", ex.ParamName);
        Assert.StartsWith("Size 8388608 (8388608 bytes) is not poolable (max: 4194304 bytes)", ex.Message);
    }

    [Fact]
    public void SetMaxBuffers_LowerCap_DoesNotEvict()
    {
        var pool = new MessagePool();
        pool.Prewarm(MessageSize.B16, 5);
        pool.SetMaxBuffers(MessageSize.B16, 1);
        Assert.Equal(5, pool.GetPoolCounts()[16]);
    }

    [Fact]
    public void SetMaxBuffers_Configuration_ValidatesAllThenApplies()
    {
        var pool = new MessagePool();
        var bad = new Dictionary<MessageSize, int> { [MessageSize.B16] = 3, [MessageSize.B32] = 0 };
        var ex = Assert.Throws<ArgumentException>(() => pool.SetMaxBuffers(bad));
        Assert.Equal("configuration", ex.ParamName);
        Assert.StartsWith("maxBuffers must be positive for size B32", ex.Message);
        Assert.Equal(1000, pool.GetMaxBuffers(MessageSize.B16));

        var notPoolable = new Dictionary<MessageSize, int> { [(MessageSize)(FourMiB + 1)] = 3 };
        ex = Assert.Throws<ArgumentException>(() => pool.SetMaxBuffers(notPoolable));
        Assert.Equal("configuration", ex.ParamName);
        Assert.StartsWith("Size 4194305 (4194305 bytes) is not poolable (max: 4194304 bytes)", ex.Message);

        pool.SetMaxBuffers(new Dictionary<MessageSize, int> { [MessageSize.B16] = 3, [MessageSize.M4] = 4 });
        Assert.Equal(3, pool.GetMaxBuffers(MessageSize.B16));
        Assert.Equal(4, pool.GetMaxBuffers(MessageSize.M4));
    }

    [Fact]
    public void SetMaxBuffers_NullConfiguration_ThrowsArgumentNull()
    {
        var ex = Assert.Throws<ArgumentNullException>(() => new MessagePool().SetMaxBuffers(null!));
        Assert.Equal("configuration", ex.ParamName);
    }

    [Fact]
    public void GetMaxBuffers_NotPoolable_ThrowsArgumentException()
    {
        var ex = Assert.Throws<ArgumentException>(() => new MessagePool().GetMaxBuffers((MessageSize)(FourMiB + 1)));
        Assert.Equal("size", ex.ParamName);
    }

    [Fact]
    public void Return_OnOtherThread_IsCountedAndReusable()
    {
        var pool = new MessagePool();
        Message message = pool.Rent(100);
        var returning = BackgroundCall.Start(message.Dispose);
        Assert.True(returning.Wait(ThreadLimit), "the return on another thread did not finish");
        PoolStatistics stats = pool.GetStatistics();
        Assert.Equal(1, stats.TotalReturns);
        Assert.Equal(0, stats.OutstandingBuffers);
    }

    [Fact]
    public void RentAndReturn_ManyThreads_CountersBalance()
    {
        var pool = new MessagePool();
        const int ThreadCount = 8;
        const int Iterations = 2000;
        using var start = new Barrier(ThreadCount);
        var threads = Enumerable.Range(0, ThreadCount).Select(t => BackgroundCall.Start(() =>
        {
            Assert.True(start.SignalAndWait(ThreadLimit), "not every thread reached the start");
            var held = new List<Message>();
            for (int i = 0; i < Iterations; i++)
            {
                Message message = pool.Rent((i * 37 + t) % 5000);
                message.Data.Fill((byte)t);
                held.Add(message);
                if (held.Count == 20)
                {
                    foreach (Message m in held)
                    {
                        Assert.True(m.Data.IndexOfAnyExcept((byte)t) < 0);
                        m.Dispose();
                    }

                    held.Clear();
                }
            }

            foreach (Message m in held)
            {
                m.Dispose();
            }
        })).ToList();
        threads.ForEach(t => Assert.True(t.Wait(ThreadLimit), "a renting thread did not finish"));

        PoolStatistics stats = pool.GetStatistics();
        Assert.Equal(ThreadCount * Iterations, stats.TotalRents);
        Assert.Equal(stats.TotalRents, stats.TotalReturns);
        Assert.Equal(stats.TotalRents, stats.PoolHits + stats.PoolMisses);
        Assert.Equal(0, stats.OutstandingBuffers);
        Assert.True(stats.PoolHits > 0);
    }

    [Fact]
    public void RentOnOneThreadReturnOnAnother_Concurrently_CountersBalance()
    {
        var pool = new MessagePool();
        const int Count = 5000;
        using var queue = new System.Collections.Concurrent.BlockingCollection<Message>(64);
        var consumer = BackgroundCall.Start(() =>
        {
            foreach (Message m in queue.GetConsumingEnumerable())
            {
                m.Dispose();
            }
        });
        for (int i = 0; i < Count; i++)
        {
            // Bounded: a consumer that died or hung would otherwise leave this thread waiting for room for ever.
            if (!queue.TryAdd(pool.Rent(i % 300), ThreadLimit))
            {
                // Rethrows what ended the consumer, if something did.
                consumer.Wait(0);
                Assert.Fail("the consumer stopped taking messages");
            }
        }

        queue.CompleteAdding();
        Assert.True(consumer.Wait(ThreadLimit), "the consumer did not finish");
        PoolStatistics stats = pool.GetStatistics();
        Assert.Equal(Count, stats.TotalReturns);
        Assert.Equal(0, stats.OutstandingBuffers);
    }

    [Fact]
    public void Type_Shape_IsSealed() => Assert.True(typeof(MessagePool).IsSealed);

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static void RentAndAbandon(MessagePool pool) => _ = pool.Rent(100);

    [Fact]
    public void Type_PublicSurface_Has13MembersAsInApiTable() => Assert.Equal(13, ApiSurface.CountPublicMembers(typeof(MessagePool)));
}
