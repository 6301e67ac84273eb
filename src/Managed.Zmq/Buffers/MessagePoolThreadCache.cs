using System.Runtime.CompilerServices;
using Managed.Zmq.Internal;

namespace Managed.Zmq.Buffers;

/// <summary>
/// Level 1 of a <see cref="MessagePool"/>: a few buffers per bucket owned by one thread, used without locks.
/// </summary>
/// <remarks>
/// Only the owning thread touches an instance, so plain fields suffice. Once the thread has ended, its pool frees the
/// buffers (and folds in the counters) when another thread first uses the pool; the finalizer frees whatever is left
/// once the pool is gone too, otherwise those native buffers would leak.
/// </remarks>
internal sealed class MessagePoolThreadCache
{
    public const int SlotsPerBucket = Tuning.Pools.SlotsPerBucket;

    /// <summary>Bucket <c>b</c> uses slots <c>b * SlotsPerBucket</c> up to its count.</summary>
    /// <remarks>
    /// Inside this object rather than in arrays of their own: a rent or return reaches the counts and slots with two
    /// dependent loads fewer, on a path whose cost is mostly such a chain of loads.
    /// </remarks>
    private SlotArray _slots;

    /// <summary>Number of buffers held per bucket.</summary>
    private CountArray _counts;

    /// <summary>The thread that owns this cache; once it has ended, its pool folds the counters in and frees the buffers.</summary>
    public readonly Thread Owner = Thread.CurrentThread;

    /// <summary>The serial of the pool this cache belongs to: a slot whose cache has another serial is a gone pool's.</summary>
    public readonly long PoolSerial;

    /// <summary>
    /// Pooled rents and returns made on the owning thread: its pool's share of <see cref="MessagePool.GetStatistics"/>,
    /// counted with plain stores (only the owner writes them) instead of a locked add on the pool per rent and return.
    /// </summary>
    public long Rents;

    /// <inheritdoc cref="Rents"/>
    public long Returns;

    public MessagePoolThreadCache(long poolSerial) => PoolSerial = poolSerial;

    /// <summary>Frees the buffers still cached when the owning thread has died.</summary>
    ~MessagePoolThreadCache() => FreeAll();

    /// <summary>Takes a cached buffer of bucket <paramref name="bucket"/>, if any.</summary>
    public bool TryPop(int bucket, out nint buffer)
    {
        int count = _counts[bucket];
        if (count == 0)
        {
            buffer = 0;
            return false;
        }

        int slot = bucket * SlotsPerBucket + count - 1;
        buffer = _slots[slot];
        _slots[slot] = 0;
        _counts[bucket] = count - 1;
        return true;
    }

    /// <summary>Caches a buffer of bucket <paramref name="bucket"/> unless its slots are full.</summary>
    public bool TryPush(int bucket, nint buffer)
    {
        int count = _counts[bucket];
        if (count == SlotsPerBucket)
        {
            return false;
        }

        _slots[bucket * SlotsPerBucket + count] = buffer;
        _counts[bucket] = count + 1;
        return true;
    }

    /// <summary>Frees every cached buffer.</summary>
    public void FreeAll()
    {
        for (int bucket = 0; bucket < BufferPool.BucketCount; bucket++)
        {
            while (TryPop(bucket, out nint buffer))
            {
                BufferPool.FreeBuffer(buffer);
            }
        }
    }

    [InlineArray(BufferPool.BucketCount * SlotsPerBucket)]
    private struct SlotArray
    {
        private nint _first;
    }

    [InlineArray(BufferPool.BucketCount)]
    private struct CountArray
    {
        private int _first;
    }
}
