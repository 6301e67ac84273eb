using System.Diagnostics;
using System.Runtime.CompilerServices;
using Managed.Zmq.Internal;
using Managed.Zmq.Buffers;

namespace Managed.Zmq;

/// <summary>What a Message's content is and how it is released: its own buffer, a pooled one, caller memory.</summary>
public sealed unsafe partial class Message
{
    /// <summary>
    /// Releases the content of a message that was collected without being disposed; called by its
    /// <see cref="MessageGuard"/>'s finalizer, when nothing else can reach the message any more.
    /// </summary>
    void IGuardedContent.ReleaseLostContent()
    {
        if (_disposed)
        {
            return;
        }

        switch (_kind)
        {
            case ContentKind.External:
                InvokeFreeCallback();
                break;
            case ContentKind.Pooled:
            case ContentKind.Lent:
                // Returning to the pool from the finalizer thread would race nothing, but the buffer's fate is
                // documented as lost: the pool keeps counting it outstanding and the memory is simply freed.
                BufferPool.FreeBuffer((nint)_data);
                break;
        }

        FreeOwned();
    }

    /// <summary>The kinds of content a message can hold.</summary>
    private enum ContentKind : byte
    {
        /// <summary>Empty, or the bytes live in <see cref="_owned"/>.</summary>
        Owned,

        /// <summary>Caller-owned memory released through <see cref="_freeCallback"/>.</summary>
        External,

        /// <summary>A buffer rented from <see cref="_pool"/>.</summary>
        Pooled,

        /// <summary>
        /// A received large frame's buffer, taken over instead of copied: it goes back to <see cref="_pool"/> (the
        /// socket's own pool) on release like a pooled one, but to the application the message is not pooled.
        /// </summary>
        Lent,

        /// <summary>
        /// Empty, like Owned; the zero-copy content it held was copied by a send and its free callback waits in the
        /// sending thread's <see cref="Buffers.PendingReleaseRing"/> under ticket <see cref="_bucket"/>. Releasing the
        /// message on that thread runs it there, unless the ring's timer has run it already.
        /// </summary>
        SentExternal,
    }

    /// <summary>
    /// Releases the current content and leaves an empty Owned frame with More false. The owned buffer is kept for
    /// reuse when <paramref name="retainOwned"/> is set (the caller refills it at once) or when it is small.
    /// </summary>
    /// <param name="retainOwned">Keep the owned buffer whatever its size.</param>
    /// <param name="caches">The calling thread's caches when the caller has them at hand; looked up when needed otherwise.</param>
    private void ReleaseContent(bool retainOwned = false, ThreadCaches? caches = null)
    {
        if (_kind == ContentKind.Owned && _pool is null)
        {
            // The common case, a message's own buffer (send loops, receives into one message): nothing to hand back.
            if (!retainOwned && _ownedCapacity > Tuning.Frames.MessageRetainedCapacity)
            {
                FreeOwned();
            }

            _data = _owned;
            _size = 0;
            _more = false;
            _metadata = null;
            return;
        }

        switch (_kind)
        {
            case ContentKind.External:
                InvokeFreeCallback();
                break;
            case ContentKind.Pooled:
            case ContentKind.Lent:
                BufferPool pool = _pool!;
                _pool = null;
                pool.ReturnBuffer(_bucket, (nint)_data, caches ?? ThreadCaches.Current);
                break;
            case ContentKind.SentExternal:
                (caches ?? ThreadCaches.CurrentIfCreated)?.ReleaseRing?.RunNowIfPending(_bucket);
                break;
            default:
                if (_pool is not null)
                {
                    // An oversize rent: its first release is its return.
                    _pool.CountUnpooledReturn();
                    _pool = null;
                }

                if (!retainOwned && _ownedCapacity > Tuning.Frames.MessageRetainedCapacity)
                {
                    FreeOwned();
                }

                break;
        }

        BecomeEmpty(ContentKind.Owned, bucket: 0);
    }

    /// <summary>
    /// Leaves the message empty (Size 0, More false, over its own buffer if it kept one) with content kind
    /// <paramref name="kind"/>: Owned, or SentExternal with its ring ticket in <paramref name="bucket"/>.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private void BecomeEmpty(ContentKind kind, int bucket)
    {
        _kind = kind;
        _data = _owned;
        _size = 0;
        _more = false;
        _bucket = bucket;
        _metadata = null;
    }

    /// <summary>
    /// Refills an Owned message in place when its own buffer takes <paramref name="size"/> bytes: the fast path of
    /// <see cref="Rebuild(int)"/> and of receives into one message, where there is no content to release.
    /// Unspecified bytes, More false.
    /// </summary>
    private bool TryReuseOwned(int size)
    {
        if (_kind != ContentKind.Owned || _pool is not null || !OwnedBufferFits(size))
        {
            return false;
        }

        _data = _owned;
        _size = size;
        _more = false;
        return true;
    }

    /// <summary>Makes <see cref="_owned"/> hold at least <paramref name="size"/> bytes and points the content at it.</summary>
    /// <remarks>Only for Owned content. A retained buffer is reused unless it is large and would be mostly idle.</remarks>
    private void EnsureOwnedCapacity(int size, ThreadCaches? caches = null)
    {
        Debug.Assert(_kind == ContentKind.Owned, "owned buffers back Owned content only");
        if (!OwnedBufferFits(size))
        {
            ReplaceOwnedBuffer(size, caches);
        }

        _data = _owned;
    }

    /// <summary>
    /// Frees the owned buffer and allocates one of <paramref name="size"/> bytes. Out of line, as is
    /// <see cref="FreeOwnedBuffer"/>: NativeMemory's calls are P/Invokes, and a P/Invoke inlined into a method
    /// makes its prologue set up a P/Invoke frame on every call, whichever path it takes (DOTNET_JitDisasm showed
    /// <c>CORINFO_HELP_INIT_PINVOKE_FRAME</c> in ReleaseContent, which runs on every send and receive and usually
    /// frees nothing).
    /// </summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    private void ReplaceOwnedBuffer(int size, ThreadCaches? caches)
    {
        FreeOwned(caches);
        if (size > 0)
        {
            _owned = OwnedBuffers.Allocate(size, out _ownedCapacity, caches);
        }
    }

    /// <summary>Whether the owned buffer takes <paramref name="size"/> bytes without being mostly idle (a large one for a small frame).</summary>
    private bool OwnedBufferFits(int size) => size <= _ownedCapacity && (_ownedCapacity <= Tuning.Frames.MessageRetainedCapacity || size >= _ownedCapacity / 4);

    /// <summary>Frees the owned buffer, if any; <paramref name="caches"/> are the calling thread's when the caller has them.</summary>
    private void FreeOwned(ThreadCaches? caches = null)
    {
        if (_owned is not null)
        {
            FreeOwnedBuffer(caches);
        }
    }

    /// <summary>Frees the owned buffer, which exists; out of line for the reason given at <see cref="ReplaceOwnedBuffer"/>.</summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    private void FreeOwnedBuffer(ThreadCaches? caches)
    {
        OwnedBuffers.Free(_owned, _ownedCapacity, caches);
        _owned = null;
        _ownedCapacity = 0;
        if (_kind == ContentKind.Owned)
        {
            _data = null;
        }
    }

    /// <summary>Runs the free callback at most once and swallows what it throws: release must never fail.</summary>
    private void InvokeFreeCallback()
    {
        Action<nint>? callback = Interlocked.Exchange(ref _freeCallback, null);
        if (callback is null)
        {
            return;
        }

        try
        {
            callback((nint)_data);
        }
        catch
        {
            // The caller's memory is theirs to manage; a failing callback must not break sends, receives or disposal.
        }
    }
}
