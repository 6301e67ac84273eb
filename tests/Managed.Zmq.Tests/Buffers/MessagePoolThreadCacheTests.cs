using Managed.Zmq.Buffers;

namespace Managed.Zmq.Tests.Buffers;

/// <summary>
/// Level 1 of a pool, one thread's cache: each bucket keeps its own buffers, last in first out, up to its slots;
/// a full bucket refuses more without touching the others; FreeAll empties every bucket.
/// </summary>
public sealed class MessagePoolThreadCacheTests
{
    private const int Slots = MessagePoolThreadCache.SlotsPerBucket;

    /// <summary>A value no two (bucket, slot) pairs share; never dereferenced.</summary>
    private static nint Token(int bucket, int slot) => (nint)(((bucket + 1) << 8) | (slot + 1));

    /// <summary>A cache for tokens: its finalizer would free whatever a failing test leaves in it.</summary>
    private static MessagePoolThreadCache TokenCache()
    {
        var cache = new MessagePoolThreadCache(poolSerial: 0);
        GC.SuppressFinalize(cache);
        return cache;
    }

    [Fact]
    public void TryPop_EveryBucketFilled_EachGivesBackItsOwnLastInFirstOut()
    {
        var cache = TokenCache();
        for (int bucket = 0; bucket < BufferPool.BucketCount; bucket++)
        {
            for (int slot = 0; slot < Slots; slot++)
            {
                Assert.True(cache.TryPush(bucket, Token(bucket, slot)));
            }
        }

        for (int bucket = BufferPool.BucketCount - 1; bucket >= 0; bucket--)
        {
            for (int slot = Slots - 1; slot >= 0; slot--)
            {
                Assert.True(cache.TryPop(bucket, out nint buffer));
                Assert.Equal(Token(bucket, slot), buffer);
            }

            Assert.False(cache.TryPop(bucket, out nint none));
            Assert.Equal(0, none);
        }
    }

    [Fact]
    public void TryPush_BucketFull_RefusedAndNeighboursUnaffected()
    {
        var cache = TokenCache();
        const int bucket = 3;
        for (int slot = 0; slot < Slots; slot++)
        {
            Assert.True(cache.TryPush(bucket, Token(bucket, slot)));
        }

        Assert.False(cache.TryPush(bucket, Token(bucket, Slots)));
        Assert.False(cache.TryPop(bucket - 1, out _));
        Assert.False(cache.TryPop(bucket + 1, out _));
        Assert.True(cache.TryPush(bucket + 1, Token(bucket + 1, 0)));
        Assert.True(cache.TryPop(bucket, out nint top));
        Assert.Equal(Token(bucket, Slots - 1), top);
        Assert.True(cache.TryPop(bucket + 1, out nint neighbour));
        Assert.Equal(Token(bucket + 1, 0), neighbour);
    }

    [Fact]
    public void FreeAll_BuffersInFirstAndLastBucket_EveryBucketEmpty()
    {
        var cache = new MessagePoolThreadCache(poolSerial: 0);
        int last = BufferPool.BucketCount - 1;
        Assert.True(cache.TryPush(0, FrameHeadroom.AllocatePooled(BufferPool.GetBucketCapacity(0))));
        Assert.True(cache.TryPush(last, FrameHeadroom.AllocatePooled(BufferPool.GetBucketCapacity(last))));

        cache.FreeAll();

        for (int bucket = 0; bucket < BufferPool.BucketCount; bucket++)
        {
            Assert.False(cache.TryPop(bucket, out _));
        }
    }
}
