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
    internal const int BucketCount = 19;

    internal const int MinBucketSize = Tuning.Pools.MinBucketSize;

    internal const int MaxBucketSize = Tuning.Pools.MaxBucketSize;

    /// <summary>Source of the ids that index <see cref="ThreadCaches.Pools"/>.</summary>
    private static int s_nextId = -1;

    /// <summary>Index of this pool in every thread's <see cref="ThreadCaches.Pools"/>.</summary>
    private readonly int _id;

    /// <summary>Level 2, one bucket per size class.</summary>
    private readonly MessagePoolBucket[] _buckets;

    /// <summary>Every thread cache of this pool, so statistics can add up their counters; guarded by itself.</summary>
    private readonly List<MessagePoolThreadCache> _threadCaches = [];

    // Every rent is a hit or a miss, so hits are counted as rents minus misses: one interlocked add less per rent.
    // Pooled rents and returns are counted by the thread caches (see MessagePoolThreadCache.Rents); these hold the
    // rest: oversize rents and their returns, and the counts of thread caches whose threads have ended.
    private long _rents;
    private long _returns;
    private long _misses;
    private long _rejects;

    /// <summary>Initializes an empty pool with the default caps and its own statistics.</summary>
    public MessagePool()
    {
        _id = Interlocked.Increment(ref s_nextId);
        _buckets = new MessagePoolBucket[BucketCount];
        for (int i = 0; i < BucketCount; i++)
        {
            _buckets[i] = new MessagePoolBucket(DefaultMaxBuffers(i));
        }
    }

    /// <summary>Frees the level-2 buffers of a pool nobody references any more.</summary>
    /// <remarks>
    /// Rented messages keep their pool reachable, so this only runs once none is left. Level-1 buffers on other
    /// threads are freed once those threads have ended: when another thread first uses the pool, or with the pool.
    /// </remarks>
    ~MessagePool()
    {
        foreach (MessagePoolBucket bucket in _buckets)
        {
            bucket.FreeAll();
        }
    }

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
        // Returns and misses are read before rents: a buffer is always counted as rented before it is counted as
        // returned or missed, so this order can never show a negative outstanding or hit count (a rent still in
        // progress may count as a hit for the moment).
        long returns;
        long rejects;
        long misses;
        long rents;
        lock (_threadCaches)
        {
            // Under the lock no thread cache is folded into the pool's own counters meanwhile (see PruneEndedThreads).
            returns = Interlocked.Read(ref _returns);
            foreach (MessagePoolThreadCache cache in _threadCaches)
            {
                returns += Volatile.Read(ref cache.Returns);
            }

            rejects = Interlocked.Read(ref _rejects);
            misses = Interlocked.Read(ref _misses);
            rents = Interlocked.Read(ref _rents);
            foreach (MessagePoolThreadCache cache in _threadCaches)
            {
                rents += Volatile.Read(ref cache.Rents);
            }
        }

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
            counts.Add(GetBucketCapacity(i), _buckets[i].Count);
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

        int index = GetBucketIndex((int)size);
        MessagePoolBucket bucket = _buckets[index];
        for (int i = 0; i < count && bucket.Count < bucket.MaxBuffers; i++)
        {
            nint buffer = AllocateBuffer(index);
            if (!bucket.TryPush(buffer))
            {
                // Another thread filled the bucket meanwhile.
                FreeBuffer(buffer);
                break;
            }
        }
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
        foreach (MessagePoolBucket bucket in _buckets)
        {
            bucket.FreeAll();
        }

        TryGetThreadCache()?.FreeAll();
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
        _buckets[GetBucketIndex((int)size)].MaxBuffers = maxBuffers;
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
            _buckets[GetBucketIndex((int)size)].MaxBuffers = maxBuffers;
        }
    }

    /// <summary>Gets the level-2 cap of the bucket that holds <paramref name="size"/>.</summary>
    /// <param name="size">The bucket.</param>
    /// <returns>The cap.</returns>
    /// <exception cref="ArgumentException"><paramref name="size"/> is above 4 MiB.</exception>
    public int GetMaxBuffers(MessageSize size)
    {
        ValidatePoolable(size, nameof(size));
        return _buckets[GetBucketIndex((int)size)].MaxBuffers;
    }

    /// <summary>Gets the bucket index for a request of <paramref name="size"/> bytes (at most 4 MiB).</summary>
    internal static int GetBucketIndex(int size) =>
        size <= MinBucketSize ? 0 : BitOperations.Log2((uint)(size - 1)) + 1 - BitOperations.Log2(MinBucketSize);

    /// <summary>Gets the capacity in bytes of bucket <paramref name="index"/>.</summary>
    internal static int GetBucketCapacity(int index) => MinBucketSize << index;

    /// <summary>Frees a pool buffer for good.</summary>
    internal static void FreeBuffer(nint buffer) => FrameHeadroom.FreePooled(buffer);

    /// <summary>Tests: when set, every pooled rent is recorded until its buffer comes back (see <see cref="PoolLeakTracker"/>).</summary>
    internal PoolLeakTracker? LeakTracker { get; set; }

    /// <summary>Takes back a buffer of bucket <paramref name="index"/> from a message that is done with it.</summary>
    internal void ReturnBuffer(int index, nint buffer) => ReturnBuffer(index, buffer, ThreadCaches.Current);

    /// <summary>Takes back a buffer of bucket <paramref name="index"/>; <paramref name="caches"/> are the calling thread's.</summary>
    internal void ReturnBuffer(int index, nint buffer, ThreadCaches caches)
    {
        LeakTracker?.Returned(buffer);
        MessagePoolThreadCache cache = GetOrCreateThreadCache(caches);

        // A release store: a reader that sees this return also sees the rent counted before it on any thread.
        Volatile.Write(ref cache.Returns, cache.Returns + 1);
        if (cache.TryPush(index, buffer) || _buckets[index].TryPush(buffer))
        {
            return;
        }

        Reject(buffer);
    }

    /// <summary>
    /// A returned buffer neither level has room for. Out of line, as is <see cref="AllocateBuffer"/>: a P/Invoke
    /// (NativeMemory) inlined into <see cref="ReturnBuffer(int, nint, ThreadCaches)"/> would set up a P/Invoke frame
    /// on every return, rejected or not.
    /// </summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    private void Reject(nint buffer)
    {
        Interlocked.Increment(ref _rejects);
        FreeBuffer(buffer);
    }

    /// <summary>Counts the release of an oversize (unpooled) rent as a return.</summary>
    internal void CountUnpooledReturn() => Interlocked.Increment(ref _returns);

    private static int DefaultMaxBuffers(int index) => GetBucketCapacity(index) switch
    {
        <= 512 => Tuning.Pools.SharedBuffersUpTo512B,
        <= 4 * 1024 => Tuning.Pools.SharedBuffersUpTo4KiB,
        <= 64 * 1024 => Tuning.Pools.SharedBuffersUpTo64KiB,
        <= 512 * 1024 => Tuning.Pools.SharedBuffersUpTo512KiB,
        _ => Tuning.Pools.SharedBuffersLarger,
    };

    /// <summary>A new buffer for bucket <paramref name="index"/>: cache-line aligned, so buffers never share a line with unrelated data, with headroom for a frame header in front.</summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    private static nint AllocateBuffer(int index) => FrameHeadroom.AllocatePooled(GetBucketCapacity(index));

    private static void ValidatePoolable(MessageSize size, string paramName)
    {
        if ((int)size > MaxBucketSize)
        {
            ThrowHelper.ThrowArgumentException(
                $"Size {size} ({(int)size} bytes) is not poolable (max: {MaxBucketSize} bytes)", paramName);
        }
    }

    /// <summary>
    /// A pooled buffer of at least <paramref name="size"/> bytes (at most 4 MiB) without a Message
    /// around it, for the socket's own copies of large span sends; returned through <see cref="ReturnBuffer(int, nint)"/>.
    /// </summary>
    internal nint RentBuffer(int size, out int bucket)
    {
        bucket = GetBucketIndex(size);
        return TakeBuffer(bucket, ThreadCaches.Current);
    }

    /// <summary>A buffer of bucket <paramref name="index"/>: from the thread's cache, else level 2, else a new one (a miss).</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private nint TakeBuffer(int index, ThreadCaches caches)
    {
        // Counted before a miss can be, as GetStatistics expects.
        MessagePoolThreadCache cache = GetOrCreateThreadCache(caches);
        Volatile.Write(ref cache.Rents, cache.Rents + 1);
        if (!cache.TryPop(index, out nint buffer) && !_buckets[index].TryPop(out buffer))
        {
            Interlocked.Increment(ref _misses);
            buffer = AllocateBuffer(index);
        }

        LeakTracker?.Rented(buffer);
        return buffer;
    }

    private Message RentCore(int size)
    {
        if (size > MaxBucketSize)
        {
            Interlocked.Increment(ref _rents);
            Interlocked.Increment(ref _misses);
            return Message.CreateUnpooledRent(this, size);
        }

        int index = GetBucketIndex(size);
        ThreadCaches caches = ThreadCaches.Current;
        return new Message(this, index, TakeBuffer(index, caches), size, caches);
    }

    /// <summary>
    /// The rent of <see cref="Message.Rebuild(MessagePool, int)"/>: as <see cref="Rent(int)"/>, into
    /// <paramref name="message"/>, whose content the caller has released; <paramref name="caches"/> are the calling
    /// thread's. <paramref name="size"/> is validated.
    /// </summary>
    internal void RentInto(Message message, int size, ThreadCaches caches)
    {
        if (size > MaxBucketSize)
        {
            Interlocked.Increment(ref _rents);
            Interlocked.Increment(ref _misses);
            message.BecomeUnpooledRent(this, size);
            return;
        }

        int index = GetBucketIndex(size);
        message.BecomePooled(this, index, TakeBuffer(index, caches), size);
    }

    private MessagePoolThreadCache? TryGetThreadCache()
    {
        MessagePoolThreadCache?[]? pools = ThreadCaches.CurrentIfCreated?.Pools;
        return pools is not null && (uint)_id < (uint)pools.Length ? pools[_id] : null;
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private MessagePoolThreadCache GetOrCreateThreadCache(ThreadCaches caches)
    {
        MessagePoolThreadCache?[] pools = caches.Pools;
        return (uint)_id < (uint)pools.Length && pools[_id] is { } cache ? cache : CreateThreadCache(caches);
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private MessagePoolThreadCache CreateThreadCache(ThreadCaches caches)
    {
        MessagePoolThreadCache?[] pools = caches.Pools;
        if (pools.Length <= _id)
        {
            Array.Resize(ref pools, Math.Max(_id + 1, pools.Length * 2));
            caches.Pools = pools;
        }

        var cache = new MessagePoolThreadCache();
        lock (_threadCaches)
        {
            PruneEndedThreads();
            _threadCaches.Add(cache);
        }

        pools[_id] = cache;
        return cache;
    }

    /// <summary>
    /// Under the lock of <see cref="_threadCaches"/>: folds the counters of caches whose threads have ended into the
    /// pool's own and frees their buffers (nothing can touch those caches any more), so the list does not grow with
    /// thread churn. Done whenever a thread first uses this pool.
    /// </summary>
    private void PruneEndedThreads()
    {
        for (int i = _threadCaches.Count - 1; i >= 0; i--)
        {
            MessagePoolThreadCache cache = _threadCaches[i];
            if (cache.Owner.IsAlive)
            {
                continue;
            }

            Interlocked.Add(ref _rents, Volatile.Read(ref cache.Rents));
            Interlocked.Add(ref _returns, Volatile.Read(ref cache.Returns));
            cache.FreeAll();
            _threadCaches.RemoveAt(i);
        }
    }
}
