using System.Buffers;
using System.Runtime.InteropServices;

namespace Managed.Zmq.Buffers;

/// <summary>
/// A Message's content handed to the socket without a copy (large messages, zero-copy messages):
/// the queue carries only the frame header and the write loop sends these bytes from where they
/// lie, then releases them. Reference counted because PUB may queue one payload to many peers.
/// </summary>
/// <remarks>
/// Release returns a pooled buffer, frees an owned one, or runs the zero-copy free callback,
/// exactly once, when the last reference goes: after the bytes were written or dropped. It never
/// runs the caller's callback inline inside Send (the caller may hold locks the callback needs);
/// such a last release is deferred to the thread pool.
/// </remarks>
internal sealed unsafe class OutboundPayload : MemoryManager<byte>
{
    private byte* _data;
    private Action<nint>? _freeCallback;
    private BufferPool? _pool;
    private int _bucket;
    private bool _owned;

    /// <summary>With <see cref="_owned"/>: the buffer's capacity, which tells <see cref="OwnedBuffers.Free"/> where it came from.</summary>
    private int _ownedCapacity;
    private bool _countReturn;
    private int _references = 1;

    /// <summary><see cref="FrameHeadroom.Size"/> when the bytes are the library's own buffer, with room in front; 0 for caller memory.</summary>
    private int _headroom;

    private OutboundPayload(byte* data, int length, int headroom)
    {
        _data = data;
        Length = length;
        _headroom = headroom;
    }

    /// <summary>
    /// A payload over a Message's bytes that does not own them yet: pipes may take references
    /// while the send is decided; the Adopt methods take ownership once it succeeded. Recycled
    /// (see <see cref="PayloadPool"/>) once its last reference has released the bytes.
    /// </summary>
    /// <param name="data">Start of the bytes.</param>
    /// <param name="length">Number of bytes.</param>
    /// <param name="hasHeadroom">The bytes are a buffer from <see cref="FrameHeadroom"/>, with room for a header in front.</param>
    public static OutboundPayload Create(byte* data, int length, bool hasHeadroom)
    {
        int headroom = hasHeadroom ? FrameHeadroom.Size : 0;
        if (PayloadPool.TryRent() is not { } payload)
        {
            return new OutboundPayload(data, length, headroom);
        }

        payload._data = data;
        payload.Length = length;
        payload._headroom = headroom;
        payload._references = 1;
        return payload;
    }

    public int Length { get; private set; }

    /// <summary>
    /// For a received large frame only, while the I/O thread that reads it is its sole holder: widens the writable
    /// window to <paramref name="length"/> bytes (the frame and the pool buffer's tailroom, see
    /// <see cref="FrameHeadroom.TailroomFor"/>) for the reads, and sets it back to the frame's length before the frame is queued.
    /// </summary>
    public void SetReceiveWindow(int length) => Length = length;

    public ReadOnlySpan<byte> Span => new(_data, Length);

    /// <summary>The bytes as memory, for the socket send (no allocation: this object is the manager).</summary>
    public new ReadOnlyMemory<byte> Memory => CreateMemory(_headroom, Length);

    /// <summary>The bytes as writable memory, for a receive straight into a pooled buffer.</summary>
    public Memory<byte> WritableMemory => CreateMemory(_headroom, Length);

    /// <summary>The bytes as a writable span, for a receive straight into a pooled buffer.</summary>
    public Span<byte> WritableSpan => new(_data, Length);

    /// <summary>True when a frame header fits in front of the bytes (see <see cref="WithHeader"/>).</summary>
    public bool HasHeadroom => _headroom != 0;

    /// <summary>
    /// Writes <paramref name="header"/> just before the bytes and returns header and bytes as one block, for one
    /// send. Only with <see cref="HasHeadroom"/>. The header may be led by the small frames of the same message
    /// before it (the engine's envelope in the headroom). PUB may send one payload to several peers at once: each
    /// writes the end of the same run of bytes (the message's frames before this one, then this frame's header,
    /// the same for every peer) into the same room, so what any send reads is right. A pattern that put a frame of
    /// its own per peer right before a shared large frame would break this.
    /// </summary>
    public ReadOnlyMemory<byte> WithHeader(ReadOnlySpan<byte> header)
    {
        System.Diagnostics.Debug.Assert(_headroom >= header.Length, "a frame header fits the headroom");
        header.CopyTo(new Span<byte>(_data - header.Length, header.Length));
        return CreateMemory(_headroom - header.Length, header.Length + Length);
    }

    /// <summary>Takes over a zero-copy Message's free callback.</summary>
    public void AdoptCallback(Action<nint>? callback) => _freeCallback = callback;

    /// <summary>Takes over a pooled buffer: it goes back to <paramref name="pool"/> on release.</summary>
    public void AdoptPooled(BufferPool pool, int bucket)
    {
        _pool = pool;
        _bucket = bucket;
    }

    /// <summary>Takes over an owned native buffer of <paramref name="capacity"/> bytes: freed on release (an oversize rent also counts as returned).</summary>
    public void AdoptOwned(BufferPool? oversizePool, int capacity)
    {
        _owned = true;
        _ownedCapacity = capacity;
        _pool = oversizePool;
        _countReturn = oversizePool is not null;
    }

    /// <summary>The bucket of a pooled buffer (see <see cref="AdoptPooled"/>).</summary>
    public int PooledBucket => _bucket;

    /// <summary>True when the bytes are a pooled buffer nobody else references: a received frame's own buffer.</summary>
    public bool IsSolePooledBuffer => _pool is not null && !_owned && _freeCallback is null && Volatile.Read(ref _references) == 1;

    /// <summary>
    /// Hands the pooled buffer to a new owner, which returns it to <paramref name="pool"/> itself, and recycles
    /// this object. Only for a payload with <see cref="IsSolePooledBuffer"/>.
    /// </summary>
    public byte* DetachPooledBuffer(out BufferPool pool, out int bucket)
    {
        System.Diagnostics.Debug.Assert(IsSolePooledBuffer, "only a received frame's own buffer changes hands");
        pool = _pool!;
        bucket = _bucket;
        byte* data = _data;
        _pool = null;
        _bucket = 0;
        _data = null;
        _headroom = 0;
        Length = 0;
        PayloadPool.Return(this);
        return data;
    }

    public void AddReference() => Interlocked.Increment(ref _references);

    /// <summary>Drops one reference; the last one releases the memory now (I/O thread or pool returns).</summary>
    public void Release()
    {
        if (Interlocked.Decrement(ref _references) == 0)
        {
            ReleaseMemory();
        }
    }

    /// <summary>
    /// The socket's own reference, dropped on the user's thread at the end of Send. When it is the last one (the
    /// write loop was quicker) and a zero-copy callback is due, the callback must not run here inside Send: it waits
    /// in this thread's <see cref="PendingReleaseRing"/>, and the ticket goes to the sent Message, whose release on
    /// this thread runs it, as for a small zero-copy frame, instead of a thread-pool dispatch (a wake-up of an idle
    /// thread) per message.
    /// </summary>
    /// <param name="mayWait">False for a DontWait send, which must not block even when the callbacks pile up.</param>
    /// <param name="ticket">Set when true is returned.</param>
    /// <returns>True when the callback waits in this thread's ring under <paramref name="ticket"/>.</returns>
    public bool ReleaseFromSend(bool mayWait, out int ticket)
    {
        ticket = 0;
        if (Interlocked.Decrement(ref _references) != 0)
        {
            return false;
        }

        if (_freeCallback is not { } callback)
        {
            ReleaseMemory();
            return false;
        }

        ticket = PendingReleaseRing.DeferOnCurrentThread(callback, (nint)_data, mayWait);
        _freeCallback = null;
        ReleaseMemory();
        return true;
    }

    private void ReleaseMemory()
    {
        if (_freeCallback is not null)
        {
            try
            {
                _freeCallback((nint)_data);
            }
            catch
            {
                // The caller's memory is theirs to manage; a failing callback must not break the write loop.
            }
        }
        else if (_owned)
        {
            OwnedBuffers.Free(_data, _ownedCapacity);
            if (_countReturn)
            {
                _pool!.CountUnpooledReturn();
            }
        }
        else if (_pool is not null)
        {
            _pool.ReturnBuffer(_bucket, (nint)_data);
        }

        _freeCallback = null;
        _pool = null;
        _bucket = 0;
        _owned = false;
        _ownedCapacity = 0;
        _countReturn = false;
        _data = null;
        _headroom = 0;
        Length = 0;
        PayloadPool.Return(this);
    }

    /// <summary>The headroom and the bytes: <see cref="Memory"/> and <see cref="WithHeader"/> are windows on it.</summary>
    public override Span<byte> GetSpan() => new(_data - _headroom, _headroom + Length);

    public override MemoryHandle Pin(int elementIndex = 0) => new(_data - _headroom + elementIndex);

    public override void Unpin()
    {
    }

    protected override void Dispose(bool disposing)
    {
    }
}
