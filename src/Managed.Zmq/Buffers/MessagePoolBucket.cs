namespace Managed.Zmq.Buffers;

/// <summary>
/// Level 2 of a <see cref="MessagePool"/> bucket: a bounded LIFO of native buffers shared by all threads.
/// </summary>
/// <remarks>
/// A lock around an array rather than a <c>ConcurrentStack</c>: pushes must not allocate a node each time, and the
/// cap check and the push must be one atomic step. The lock is held for a few instructions only.
/// </remarks>
internal sealed class MessagePoolBucket
{
    /// <summary>Guards <see cref="_items"/> and <see cref="_count"/>.</summary>
    private readonly Lock _lock = new();

    /// <summary>The pooled buffers; slots at and above <see cref="_count"/> are stale.</summary>
    private nint[] _items = [];

    /// <summary>Number of buffers held; written under the lock, read without it for statistics.</summary>
    private int _count;

    /// <summary>The cap checked by every push; changing it never evicts buffers already held.</summary>
    private volatile int _maxBuffers;

    /// <summary>Initializes a new instance with the given cap.</summary>
    public MessagePoolBucket(int maxBuffers) => _maxBuffers = maxBuffers;

    /// <summary>Gets the number of buffers currently held.</summary>
    public int Count => Volatile.Read(ref _count);

    /// <summary>Gets or sets the cap on <see cref="Count"/> for later pushes.</summary>
    public int MaxBuffers
    {
        get => _maxBuffers;
        set => _maxBuffers = value;
    }

    /// <summary>Adds a buffer unless the bucket is at its cap.</summary>
    public bool TryPush(nint buffer)
    {
        lock (_lock)
        {
            int count = _count;
            if (count >= _maxBuffers)
            {
                return false;
            }

            if (count == _items.Length)
            {
                // Grows only while the bucket fills for the first time; steady state reuses the array.
                Array.Resize(ref _items, Math.Max(16, count * 2));
            }

            _items[count] = buffer;
            Volatile.Write(ref _count, count + 1);
            return true;
        }
    }

    /// <summary>Takes the most recently added buffer, if any.</summary>
    public bool TryPop(out nint buffer)
    {
        lock (_lock)
        {
            int count = _count;
            if (count == 0)
            {
                buffer = 0;
                return false;
            }

            buffer = _items[count - 1];
            _items[count - 1] = 0;
            Volatile.Write(ref _count, count - 1);
            return true;
        }
    }

    /// <summary>Frees every buffer held and empties the bucket.</summary>
    public void FreeAll()
    {
        lock (_lock)
        {
            for (int i = 0; i < _count; i++)
            {
                BufferPool.FreeBuffer(_items[i]);
                _items[i] = 0;
            }

            Volatile.Write(ref _count, 0);
        }
    }
}
