using System.Diagnostics;
using System.Runtime.InteropServices;
using System.Text;
using Managed.Zmq.Internal;
using Managed.Zmq.Buffers;
using Managed.Zmq.Sockets;

namespace Managed.Zmq;

/// <summary>The members the socket uses to move a Message's content in and out without copies.</summary>
public sealed unsafe partial class Message
{
    /// <summary>
    /// Called by a socket after a successful send copied the bytes: releases the content (free callback, pool
    /// return, or keeps a small owned buffer for reuse) and leaves the message empty and usable. A zero-copy
    /// callback must never run inside Send on the caller's thread: it waits in this thread's
    /// <see cref="Buffers.PendingReleaseRing"/>, and the message keeps its ticket (<see cref="ContentKind.SentExternal"/>),
    /// so that releasing it later on this thread (Dispose, usually right after the send) runs it here.
    /// </summary>
    /// <param name="mayWait">False for a DontWait or asynchronous send, which must not block even when the callbacks pile up.</param>
    internal void ReleaseAfterSend(bool mayWait)
    {
        // A plain read and clear: a Message is used by one thread at a time, and the guard's finalizer cannot run
        // while this method holds the message.
        if (_kind == ContentKind.External && _freeCallback is { } callback)
        {
            _freeCallback = null;
            int ticket = Buffers.PendingReleaseRing.DeferOnCurrentThread(callback, (nint)_data, mayWait);

            // What ReleaseContent leaves, without its callback exchange: the callback is in the ring now.
            BecomeEmpty(ContentKind.SentExternal, ticket);
            return;
        }

        if (_kind == ContentKind.SentExternal)
        {
            // The empty message sent again: releasing it here would run the earlier callback inside this Send.
            _more = false;
            return;
        }

        ReleaseContent();
    }

    /// <summary>
    /// Replaces the content with a frame of <paramref name="size"/> bytes for a receive and returns the span to fill.
    /// A pooled message whose buffer fits stays pooled; otherwise the content is released and an owned buffer is
    /// used, reusing its capacity when large enough so steady-state receives do not allocate.
    /// </summary>
    internal Span<byte> PrepareReceive(int size)
    {
        Debug.Assert(!_disposed && size >= 0, "the caller validates the message and size");
        _more = false;
        if (_kind == ContentKind.Pooled && size <= MessagePool.GetBucketCapacity(_bucket))
        {
            _size = size;
            return new Span<byte>(_data, size);
        }

        if (!TryReuseOwned(size))
        {
            ReleaseContent(retainOwned: true);
            EnsureOwnedCapacity(size);
            _size = size;
        }

        return new Span<byte>(_data, size);
    }

    /// <summary>
    /// For a receive of a large frame: takes over the pooled buffer the connection read the frame into, instead of
    /// copying it. A pooled message trades buffers with the socket's pool when both come from the same bucket, so
    /// it stays pooled and each pool keeps its count (as in Net.Zmq); any other message takes the buffer as Lent content.
    /// False, with nothing changed, when its buffer cannot be taken (inproc, another bucket). Only for frames of at
    /// least <see cref="TakeOverThreshold"/> bytes: smaller ones never have a buffer of their own.
    /// </summary>
    internal bool TryTakeReceivedBuffer(in Pipes.InboundFrame frame)
    {
        Debug.Assert(!_disposed, "the caller validates the message");
        Debug.Assert(frame.Length >= TakeOverThreshold, "callers copy small frames without asking");
        bool pooled = _kind == ContentKind.Pooled;
        if (frame.TakePayload(pooled ? _bucket : -1) is not { } payload)
        {
            return false;
        }

        byte* buffer = payload.DetachPooledBuffer(out BufferPool framePool, out int frameBucket);
        if (pooled)
        {
            // Each pool's leak tracker follows the trade: the frame's buffer leaves the socket's pool for this
            // one, and this message's old buffer goes the other way (ReturnBuffer records its return there).
            nint mine = (nint)_data;
            _pool!.LeakTracker?.Returned(mine);
            _pool.LeakTracker?.Rented((nint)buffer);
            framePool.LeakTracker?.Returned((nint)buffer);
            framePool.LeakTracker?.Rented(mine);
            framePool.ReturnBuffer(frameBucket, mine);
        }
        else
        {
            // Not retained beyond the usual limit: the content is elsewhere now, a large idle block would only pin memory.
            ReleaseContent();
            _kind = ContentKind.Lent;
            _pool = framePool;
            _bucket = frameBucket;
        }

        _data = buffer;
        _size = frame.Length;
        _more = false;
        return true;
    }

    /// <summary>From this size a received frame may have a buffer of its own to take over: the large-frame threshold.</summary>
    internal const int TakeOverThreshold = Tuning.Frames.LargeFrame;

    /// <summary>Sets the MORE flag of a frame just received into this message.</summary>
    internal void SetMore(bool more) => _more = more;


    /// <summary>Points a frame just received at its connection's metadata (null for none).</summary>
    internal void SetMetadata(Wire.PeerMetadata? metadata)
    {
        // Stored only when it changes: a message received into again and again from one connection (or inproc,
        // always null) then pays a compare per frame instead of a GC write barrier.
        if (!ReferenceEquals(_metadata, metadata))
        {
            _metadata = metadata;
        }
    }

    /// <summary>A payload over the current content, not owning it yet (see <see cref="DetachInto"/>).</summary>
    internal Buffers.OutboundPayload CreatePayload() => Buffers.OutboundPayload.Create(_data, _size, hasHeadroom: _kind != ContentKind.External);

    /// <summary>
    /// After a successful send: the payload takes over the content (callback, pooled or owned
    /// buffer) and the Message is left empty, as after a copying send. An owned buffer goes with
    /// it, so the next Rebuild allocates a new one.
    /// </summary>
    internal void DetachInto(Buffers.OutboundPayload payload)
    {
        switch (_kind)
        {
            case ContentKind.External:
                payload.AdoptCallback(Interlocked.Exchange(ref _freeCallback, null));
                break;
            case ContentKind.Pooled:
            case ContentKind.Lent:
                payload.AdoptPooled(_pool!, _bucket);
                _pool = null;
                break;
            default:
                payload.AdoptOwned(_pool, _ownedCapacity);
                _pool = null;
                _owned = null;
                _ownedCapacity = 0;
                break;
        }

        BecomeEmpty(ContentKind.Owned, bucket: 0);
    }

    /// <summary>
    /// After <see cref="DetachInto"/>: the zero-copy callback of the content just sent waits in this thread's ring under
    /// <paramref name="ticket"/> (the write loop released the payload before Send returned); releasing the message on
    /// this thread runs it, as after a small zero-copy send.
    /// </summary>
    internal void HoldDeferredRelease(int ticket) => BecomeEmpty(ContentKind.SentExternal, ticket);

    /// <summary>Creates the unpooled message of an oversize rent, whose release counts as a return to <paramref name="pool"/>.</summary>
    internal static Message CreateUnpooledRent(BufferPool pool, int size)
    {
        var message = new Message(size);
        message._pool = pool;
        return message;
    }
}
