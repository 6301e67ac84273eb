using System.Numerics;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using Managed.Zmq.Internal;
using Managed.Zmq.Buffers;

namespace Managed.Zmq;

/// <summary>A pool of reusable native message buffers in 19 size classes, from 16 bytes to 4 MiB.</summary>
/// <remarks>
/// <para>
/// A rent is served from the calling thread's level-1 cache (8 buffers per bucket, lock-free), then from the shared
/// level-2 stack of the bucket, and otherwise allocates (a miss). A buffer coming back goes to the returning thread's
/// level 1, else to level 2 while that is under its cap, and is otherwise freed (a reject).
/// </para>
/// <para>
/// A rented <see cref="Message"/> gives its buffer back by itself, exactly once: after a successful send, or on
/// <c>Dispose</c>, <c>Rebuild</c>, <c>Move</c> into it, or a receive of a frame that does not fit. Buffers are
/// 64-byte aligned native memory, so transports can use them without pinning. A reused buffer is not cleared.
/// </para>
/// <para>
/// Default level-2 caps: 1000 for 16–512 B, 500 for 1–4 KiB, 250 for 8–64 KiB, 100 for 128–512 KiB and 50 for
/// 1–4 MiB. All members are thread-safe; rented messages are ordinary, non-thread-safe messages.
/// </para>
/// </remarks>
public sealed class MessagePool
{
    /// <summary>Number of size classes.</summary>
    internal const int BucketCount = BufferPool.BucketCount;

    /// <summary>Capacity of the smallest bucket.</summary>
    internal const int MinBucketSize = BufferPool.MinBucketSize;

    /// <summary>Capacity of the largest bucket; larger rents are not pooled.</summary>
    internal const int MaxBucketSize = BufferPool.MaxBucketSize;

    /// <summary>Initializes an empty pool with the default caps and its own statistics.</summary>
    public MessagePool()
    {
    }

    /// <summary>The buffers, caches and counters; messages and payloads hold this rather than the facade.</summary>
    internal BufferPool Buffers { get; } = new();

    /// <summary>Gets the process-wide pool.</summary>
    public static MessagePool Shared { get; } = new();

    /// <summary>Rents a pooled message holding a copy of <paramref name="data"/>.</summary>
    /// <param name="data">The bytes to copy.</param>
    /// <returns>A message whose <c>Size</c> is <c>data.Length</c> and whose <c>BufferSize</c> is the bucket capacity;
    /// above 4 MiB, an unpooled message of exactly that size.</returns>
    public Message Rent(ReadOnlySpan<byte> data)
    {
        Message message = RentCore(data.Length);
        data.CopyTo(message.Data);
        return message;
    }

    /// <summary>Rents a pooled message of <paramref name="size"/> bytes with unspecified content.</summary>
    /// <param name="size">The message size.</param>
    /// <returns>A message whose <c>Size</c> is <paramref name="size"/> and whose <c>BufferSize</c> is the bucket
    /// capacity; above 4 MiB, an unpooled message of exactly that size.</returns>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="size"/> is negative.</exception>
    public Message Rent(int size)
    {
        if (size < 0)
        {
            ThrowHelper.ThrowArgumentOutOfRangeException(nameof(size), "Size cannot be negative");
        }

        return RentCore(size);
    }

    /// <summary>Takes a consistent snapshot of the counters.</summary>
    /// <returns>The snapshot.</returns>
    public PoolStatistics GetStatistics()
    {
        Buffers.ReadStatistics(out long rents, out long returns, out long misses, out long rejects);
        long hits = rents - misses;
        return new PoolStatistics
        {
            TotalRents = rents,
            TotalReturns = returns,
            PoolHits = hits,
            PoolMisses = misses,
            PoolRejects = rejects,
            OutstandingBuffers = rents - returns,
        };
    }

    /// <summary>Gets the number of buffers in level 2 of each bucket (thread caches excluded).</summary>
    /// <returns>A map from each bucket's capacity in bytes to its level-2 count.</returns>
    public Dictionary<int, int> GetPoolCounts()
    {
        var counts = new Dictionary<int, int>(BucketCount);
        for (int i = 0; i < BucketCount; i++)
        {
            counts.Add(GetBucketCapacity(i), Buffers.LevelTwoCount(i));
        }

        return counts;
    }

    /// <summary>Allocates buffers into level 2 of one bucket ahead of use, up to its cap.</summary>
    /// <param name="size">The bucket; a value that is not a power of two selects the bucket that contains it.</param>
    /// <param name="count">How many buffers to add; 0 or less does nothing.</param>
    /// <remarks>These allocations are not rents. A size above 4 MiB is not poolable and is ignored.</remarks>
    public void Prewarm(MessageSize size, int count)
    {
        if (count <= 0 || (int)size > MaxBucketSize)
        {
            return;
        }

        Buffers.Prewarm(GetBucketIndex((int)size), count);
    }

    /// <summary>Prewarms each of <paramref name="sizes"/> with <paramref name="count"/> buffers.</summary>
    /// <param name="sizes">The buckets.</param>
    /// <param name="count">How many buffers to add to each.</param>
    /// <exception cref="ArgumentNullException"><paramref name="sizes"/> is null.</exception>
    public void Prewarm(MessageSize[] sizes, int count)
    {
        if (sizes is null)
        {
            ThrowHelper.ThrowArgumentNullException(nameof(sizes));
        }

        foreach (MessageSize size in sizes)
        {
            Prewarm(size, count);
        }
    }

    /// <summary>Prewarms each bucket with its count, after validating every entry.</summary>
    /// <param name="configuration">Bucket to buffer count.</param>
    /// <exception cref="ArgumentNullException"><paramref name="configuration"/> is null.</exception>
    /// <exception cref="ArgumentException">A count is negative.</exception>
    public void Prewarm(Dictionary<MessageSize, int> configuration)
    {
        if (configuration is null)
        {
            ThrowHelper.ThrowArgumentNullException(nameof(configuration));
        }

        foreach ((MessageSize size, int count) in configuration)
        {
            if (count < 0)
            {
                ThrowHelper.ThrowArgumentException($"Buffer count must be non-negative for size {size}", nameof(configuration));
            }
        }

        foreach ((MessageSize size, int count) in configuration)
        {
            Prewarm(size, count);
        }
    }

    /// <summary>Frees every buffer in level 2 and in the calling thread's level 1.</summary>
    /// <remarks>Rented messages are unaffected and pool normally when they come back.</remarks>
    public void Clear()
    {
        Buffers.Clear();
    }

    /// <summary>Sets the level-2 cap of one bucket; it governs every later return, and nothing is evicted.</summary>
    /// <param name="size">The bucket.</param>
    /// <param name="maxBuffers">The new cap.</param>
    /// <exception cref="ArgumentException"><paramref name="maxBuffers"/> is not positive, or
    /// <paramref name="size"/> is above 4 MiB.</exception>
    public void SetMaxBuffers(MessageSize size, int maxBuffers)
    {
        if (maxBuffers <= 0)
        {
            ThrowHelper.ThrowArgumentException("maxBuffers must be positive", nameof(maxBuffers));
        }

        ValidatePoolable(size, nameof(size));
        Buffers.SetMaxBuffers(GetBucketIndex((int)size), maxBuffers);
    }

    /// <summary>Sets several level-2 caps, after validating every entry.</summary>
    /// <param name="configuration">Bucket to cap.</param>
    /// <exception cref="ArgumentNullException"><paramref name="configuration"/> is null.</exception>
    /// <exception cref="ArgumentException">A cap is not positive, or a size is above 4 MiB.</exception>
    public void SetMaxBuffers(Dictionary<MessageSize, int> configuration)
    {
        if (configuration is null)
        {
            ThrowHelper.ThrowArgumentNullException(nameof(configuration));
        }

        foreach ((MessageSize size, int maxBuffers) in configuration)
        {
            if (maxBuffers <= 0)
            {
                ThrowHelper.ThrowArgumentException($"maxBuffers must be positive for size {size}", nameof(configuration));
            }

            ValidatePoolable(size, nameof(configuration));
        }

        foreach ((MessageSize size, int maxBuffers) in configuration)
        {
            Buffers.SetMaxBuffers(GetBucketIndex((int)size), maxBuffers);
        }
    }

    /// <summary>Gets the level-2 cap of the bucket that holds <paramref name="size"/>.</summary>
    /// <param name="size">The bucket.</param>
    /// <returns>The cap.</returns>
    /// <exception cref="ArgumentException"><paramref name="size"/> is above 4 MiB.</exception>
    public int GetMaxBuffers(MessageSize size)
    {
        ValidatePoolable(size, nameof(size));
        return Buffers.GetMaxBuffers(GetBucketIndex((int)size));
    }

    /// <summary>Gets the bucket index for a request of <paramref name="size"/> bytes (at most 4 MiB).</summary>
    internal static int GetBucketIndex(int size) => BufferPool.GetBucketIndex(size);

    /// <summary>Gets the capacity in bytes of bucket <paramref name="index"/>.</summary>
    internal static int GetBucketCapacity(int index) => BufferPool.GetBucketCapacity(index);

    /// <summary>Tests: when set, every pooled rent is recorded until its buffer comes back (see <see cref="PoolLeakTracker"/>).</summary>
    internal PoolLeakTracker? LeakTracker
    {
        get => Buffers.LeakTracker;
        set => Buffers.LeakTracker = value;
    }

    private static void ValidatePoolable(MessageSize size, string paramName)
    {
        if ((int)size > MaxBucketSize)
        {
            ThrowHelper.ThrowArgumentException(
                $"Size {size} ({(int)size} bytes) is not poolable (max: {MaxBucketSize} bytes)", paramName);
        }
    }

    private Message RentCore(int size)
    {
        BufferPool buffers = Buffers;
        if (size > MaxBucketSize)
        {
            buffers.CountUnpooledRent();
            return Message.CreateUnpooledRent(buffers, size);
        }

        int index = GetBucketIndex(size);
        ThreadCaches caches = ThreadCaches.Current;
        return new Message(buffers, index, buffers.TakeBuffer(index, caches), size, caches);
    }

    /// <summary>
    /// The rent of <see cref="Message.Rebuild(MessagePool, int)"/>: as <see cref="Rent(int)"/>, into
    /// <paramref name="message"/>, whose content the caller has released; <paramref name="caches"/> are the calling
    /// thread's. <paramref name="size"/> is validated.
    /// </summary>
    internal void RentInto(Message message, int size, ThreadCaches caches)
    {
        BufferPool buffers = Buffers;
        if (size > MaxBucketSize)
        {
            buffers.CountUnpooledRent();
            message.BecomeUnpooledRent(buffers, size);
            return;
        }

        int index = GetBucketIndex(size);
        message.BecomePooled(buffers, index, buffers.TakeBuffer(index, caches), size);
    }
}
