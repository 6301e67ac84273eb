using System.Diagnostics;
using System.Runtime.InteropServices;
using System.Text;
using Managed.Zmq.Internal;
using Managed.Zmq.Buffers;

namespace Managed.Zmq;

/// <content>Reusing a Message: Rebuild, Move, Copy and the size adjustment.</content>
public sealed unsafe partial class Message
{
    /// <summary>Releases the content and re-initialises the message as an empty, non-pooled frame.</summary>
    /// <exception cref="InvalidOperationException">The message is disposed.</exception>
    public void Rebuild()
    {
        EnsureInitialized();
        ReleaseContent();
        _metadata = null;
    }

    /// <summary>Releases the content and re-initialises the message as <paramref name="size"/> unspecified bytes.</summary>
    /// <param name="size">The new size.</param>
    /// <exception cref="InvalidOperationException">The message is disposed.</exception>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="size"/> is negative.</exception>
    public void Rebuild(int size)
    {
        EnsureInitialized();
        if (size < 0)
        {
            ThrowHelper.ThrowArgumentOutOfRangeException(nameof(size), "Size cannot be negative");
        }

        _metadata = null;
        if (!TryReuseOwned(size))
        {
            ReleaseContent(retainOwned: true);
            EnsureOwnedCapacity(size);
            _size = size;
        }
    }

    /// <summary>
    /// Releases the content and re-initialises the message as <paramref name="size"/> unspecified bytes in a buffer
    /// rented from <paramref name="pool"/>: the message becomes pooled, as one from <see cref="MessagePool.Rent(int)"/>.
    /// </summary>
    /// <remarks>
    /// <para>With it one Message object serves a whole send loop: rebuild from the pool, fill <see cref="Data"/>, send,
    /// repeat. A send gives the buffer back to its pool, as it does for a rented message, so in steady state the loop
    /// allocates nothing, not even the Message object that <see cref="MessagePool.Rent(int)"/> creates each time.</para>
    /// <para>It counts as a rent of <paramref name="pool"/>, and the buffer goes back exactly once, by the same rules as
    /// a rented message's: after a successful send, or on the next <c>Dispose</c>, <c>Rebuild</c> or <c>Move</c> into
    /// this message, or a receive of a frame that does not fit. Whatever the message held before (its own buffer, a
    /// pooled buffer, zero-copy memory) is released first, as by <see cref="Rebuild()"/>. A size above 4 MiB gives an
    /// unpooled buffer of exactly that size, which counts as a rent and a miss, and its release as a return.</para>
    /// </remarks>
    /// <param name="pool">The pool to rent from, for example <see cref="MessagePool.Shared"/>.</param>
    /// <param name="size">The new size.</param>
    /// <exception cref="InvalidOperationException">The message is disposed.</exception>
    /// <exception cref="ArgumentNullException"><paramref name="pool"/> is null.</exception>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="size"/> is negative.</exception>
    public void Rebuild(MessagePool pool, int size)
    {
        EnsureInitialized();
        if (pool is null)
        {
            ThrowHelper.ThrowArgumentNullException(nameof(pool));
        }

        if (size < 0)
        {
            ThrowHelper.ThrowArgumentOutOfRangeException(nameof(size), "Size cannot be negative");
        }

        // One thread-static read for the release and the rent together (see ThreadCaches).
        ThreadCaches caches = ThreadCaches.Current;
        ReleaseContent(caches: caches);
        pool.RentInto(this, size, caches);
    }

    /// <summary>
    /// <see cref="Rebuild(MessagePool, int)"/>, after the release: the content becomes <paramref name="size"/> bytes of
    /// the pooled <paramref name="buffer"/> of bucket <paramref name="bucket"/>, which returns to <paramref name="pool"/>.
    /// </summary>
    internal void BecomePooled(BufferPool pool, int bucket, nint buffer, int size)
    {
        Debug.Assert(_kind == ContentKind.Owned && _pool is null, "the previous content is released first");
        Debug.Assert(size <= MessagePool.GetBucketCapacity(bucket), "the bucket must hold the frame");
        _kind = ContentKind.Pooled;
        _pool = pool;
        _bucket = bucket;
        _data = (byte*)buffer;
        _size = size;
    }

    /// <summary>
    /// <see cref="Rebuild(MessagePool, int)"/> above 4 MiB, after the release: an owned buffer of <paramref name="size"/>
    /// bytes whose first release counts as a return to <paramref name="pool"/>, as an oversize rent's.
    /// </summary>
    internal void BecomeUnpooledRent(BufferPool pool, int size)
    {
        Debug.Assert(_kind == ContentKind.Owned && _pool is null, "the previous content is released first");
        EnsureOwnedCapacity(size);
        _size = size;
        _pool = pool;
    }

    /// <summary>Takes over the content, MORE flag and pool ownership of <paramref name="source"/>, which becomes empty.</summary>
    /// <param name="source">The message to move from; moving a message into itself does nothing.</param>
    /// <exception cref="ArgumentNullException"><paramref name="source"/> is null.</exception>
    /// <exception cref="InvalidOperationException">Either message is disposed.</exception>
    public void Move(Message source)
    {
        if (source is null)
        {
            ThrowHelper.ThrowArgumentNullException(nameof(source));
        }

        EnsureInitialized();
        source.EnsureInitialized();
        if (ReferenceEquals(source, this))
        {
            return;
        }

        ReleaseContent();
        FreeOwned();

        _kind = source._kind;
        _data = source._data;
        _size = source._size;
        _more = source._more;
        CopyAddressingFrom(source);
        _owned = source._owned;
        _ownedCapacity = source._ownedCapacity;
        _freeCallback = source._freeCallback;
        _pool = source._pool;
        _bucket = source._bucket;
        _metadata = source._metadata;

        // The source hands everything over without releasing it.
        source._kind = ContentKind.Owned;
        source._data = null;
        source._size = 0;
        source._more = false;
        source.ClearAddressing();
        source._owned = null;
        source._ownedCapacity = 0;
        source._freeCallback = null;
        source._pool = null;
        source._bucket = 0;
        source._metadata = null;
    }

    /// <summary>Replaces the content with an independent, non-pooled copy of <paramref name="source"/>'s bytes and MORE flag.</summary>
    /// <param name="source">The message to copy; it is not changed.</param>
    /// <exception cref="ArgumentNullException"><paramref name="source"/> is null.</exception>
    /// <exception cref="InvalidOperationException">Either message is disposed.</exception>
    public void Copy(Message source)
    {
        if (source is null)
        {
            ThrowHelper.ThrowArgumentNullException(nameof(source));
        }

        EnsureInitialized();
        source.EnsureInitialized();
        if (ReferenceEquals(source, this))
        {
            return;
        }

        int size = source._size;
        bool more = source._more;
        if (_kind == ContentKind.Owned && _pool is null)
        {
            // Our own buffer cannot alias the source, so it can be refilled in place.
            EnsureOwnedCapacity(size);
            source.Content.CopyTo(new Span<byte>(_owned, size));
        }
        else
        {
            // Copy before releasing: zero-copy content of both messages may wrap the same caller memory, which the
            // free callback could release.
            int copyCapacity = 0;
            byte* copy = size == 0 ? null : OwnedBuffers.Allocate(size, out copyCapacity);
            source.Content.CopyTo(new Span<byte>(copy, size));
            ReleaseContent();
            FreeOwned();
            _owned = copy;
            _ownedCapacity = copyCapacity;
        }

        _kind = ContentKind.Owned;
        _data = _owned;
        _size = size;
        _more = more;

        // zmq_msg_copy copies the routing id with the rest of the message.
        CopyAddressingFrom(source);

        // zmq_msg_copy shares the source's metadata, as it is immutable.
        _metadata = source._metadata;
    }

    /// <summary>Sets <see cref="Size"/> of a pooled message after the caller has written into <see cref="Data"/>.</summary>
    /// <param name="size">The new size, from 0 to <see cref="BufferSize"/>.</param>
    /// <exception cref="ObjectDisposedException">The message is disposed.</exception>
    /// <exception cref="InvalidOperationException">The message is not pooled.</exception>
    /// <exception cref="ArgumentException"><paramref name="size"/> exceeds <see cref="BufferSize"/> or is negative.</exception>
    public void SetActualDataSize(int size)
    {
        if (_disposed)
        {
            ThrowHelper.ThrowObjectDisposedException(nameof(Message));
        }

        if (_kind != ContentKind.Pooled)
        {
            ThrowHelper.ThrowInvalidOperationException("SetActualDataSize can only be called on pooled messages");
        }

        int bufferSize = MessagePool.GetBucketCapacity(_bucket);
        if (size > bufferSize)
        {
            ThrowHelper.ThrowArgumentException($"Actual size ({size}) cannot exceed buffer size ({bufferSize})");
        }

        if (size < 0)
        {
            ThrowHelper.ThrowArgumentException("Size cannot be negative", nameof(size));
        }

        _size = size;
    }
}
