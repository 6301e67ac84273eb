using System.Diagnostics;
using Managed.Zmq.Buffers;
using Managed.Zmq.Internal;

namespace Managed.Zmq.Pipes;

/// <summary>
/// A single-producer single-consumer queue of ZMTP-encoded frames (<see cref="Wire.QueuedFrame"/>): a stream pipe's
/// link between a socket (user thread) and a connection engine (I/O thread), one per direction.
/// </summary>
/// <remarks>
/// <para>Frames are stored in their wire encoding, so the write loop hands the bytes to the OS
/// as they are and the read loop decodes them in place: one copy each way at most, and many
/// messages per system call. A frame never straddles two segments; a message may.</para>
/// <para>The producer publishes whole messages only (<see cref="CommitAt"/>), which is what makes
/// multipart delivery atomic (RFC 23 §Messages). Positions are queue-wide 64-bit offsets so the
/// consumer can tell, from one volatile read of <see cref="_committed"/>, how far it may go.</para>
/// <para>Segments start small (an idle pipe costs little) and grow to <see cref="MaxSegmentSize"/>.</para>
/// </remarks>
internal sealed partial class FrameQueue
{
    public const int InitialSegmentSize = Tuning.Pipes.InitialSegmentSize;
    public const int MaxSegmentSize = Tuning.Pipes.MaxSegmentSize;

    /// <summary>
    /// The one size of segment for requests above <see cref="MaxSegmentSize"/> (a busy connection's large
    /// receives) up to this size: one size, so that spares always fit the next request and a stream of them
    /// allocates nothing (the segment pool would round each odd size up to the next power of two anyway).
    /// </summary>
    public const int LargeSegmentSize = Tuning.Pipes.LargeSegmentSize;

    /// <summary>Largest buffer kept as a spare: big enough for large messages to cycle without allocating, small enough not to hoard memory.</summary>
    public const int MaxSpareSize = Tuning.Pipes.MaxSpareSegmentSize;

    /// <summary>Producer: the segment being written.</summary>
    private FrameSegment _tail;

    /// <summary>Producer: next free byte in <see cref="_tail"/>.</summary>
    private int _writeOffset;

    /// <summary>Shared: queue-wide offset up to which whole messages are readable.</summary>
    private long _committed;

    /// <summary>Shared: messages published so far (written by the producer only).</summary>
    private long _committedMessages;

    /// <summary>Shared: messages taken so far (written by the consumer only).</summary>
    private long _consumedMessages;

    /// <summary>Consumer: the segment being read.</summary>
    private FrameSegment _head;

    /// <summary>Consumer: queue-wide read position.</summary>
    private long _readPosition;

    /// <summary>
    /// Drained full-size segments handed back by the consumer for the producer's next ones, so a
    /// busy queue cycles between a few buffers without touching a shared pool (which would give
    /// the buffer to the consumer's thread-local cache and make the producer allocate).
    /// </summary>
    private readonly Stack<FrameSegment> _spares = new();

    /// <summary>
    /// Drained segments whose buffers went back to the segment pool (beyond <see cref="SpareBudget"/>), kept so the
    /// producer's next segment from the pool needs no new <see cref="FrameSegment"/> either; at most
    /// <see cref="Tuning.Pipes.BareSegmentsKept"/>, under the <see cref="_spares"/> lock.
    /// </summary>
    private readonly Stack<FrameSegment> _bareSegments = new();

    /// <summary>Bytes held in <see cref="_spares"/>; bounded by <see cref="SpareBudget"/>.</summary>
    private long _spareBytes;

    /// <summary>
    /// How much drained memory a queue keeps for reuse. Large messages each take a segment of their
    /// own and up to HWM of them can be in flight, so a handful of spares is not enough for them to
    /// cycle; 8 MiB is (and is released as soon as the queue is dropped).
    /// </summary>
    private const long SpareBudget = Tuning.Pipes.SpareBudget;

    public FrameQueue()
    {
        _tail = _head = new FrameSegment(SegmentPool.Shared.Rent(InitialSegmentSize), 0);
    }

    // ---------------------------------------------------------------- producer

    /// <summary>The buffer the producer writes into.</summary>
    public byte[] WriteBuffer => _tail.Buffer;

    /// <summary>Where the producer writes next in <see cref="WriteBuffer"/>.</summary>
    public int WriteOffset => _writeOffset;

    /// <summary>
    /// Makes sure <paramref name="freeBytes"/> contiguous bytes are free after <see cref="WriteOffset"/>.
    /// When a new segment is needed, the bytes from <paramref name="carryFrom"/> to the write offset
    /// (an incomplete frame) move with it. Returns the new offset of the carried bytes.
    /// </summary>
    public int EnsureSpace(int freeBytes, int carryFrom)
    {
        if (_tail.Buffer.Length - _writeOffset >= freeBytes)
        {
            return carryFrom;
        }

        int carried = _writeOffset - carryFrom;
        int size = Math.Max(Math.Min(_tail.Buffer.Length * 2, MaxSegmentSize), carried + freeBytes);
        if (size is > MaxSegmentSize and < LargeSegmentSize)
        {
            size = LargeSegmentSize;
        }
        var next = NextSegment(size, _tail.BaseOffset + carryFrom);
        if (carried > 0)
        {
            Buffer.BlockCopy(_tail.Buffer, carryFrom, next.Buffer, 0, carried);
        }

        _tail.End = carryFrom;
        Volatile.Write(ref _tail.Next, next);
        _tail = next;
        _writeOffset = carried;
        return 0;
    }

    /// <summary>A span of at least <paramref name="size"/> free bytes at the write offset.</summary>
    public Span<byte> GetSpan(int size)
    {
        EnsureSpace(size, _writeOffset);
        return _tail.Buffer.AsSpan(_writeOffset);
    }

    /// <summary>Moves the write position back to <paramref name="writeOffset"/>, dropping uncommitted bytes after it.</summary>
    public void Truncate(int writeOffset)
    {
        Debug.Assert(writeOffset <= _writeOffset && _tail.BaseOffset + writeOffset >= Volatile.Read(ref _committed));
        _writeOffset = writeOffset;
    }

    public void Advance(int count)
    {
        Debug.Assert(_writeOffset + count <= _tail.Buffer.Length);
        _writeOffset += count;
    }

    /// <summary>Producer: prefetches where the next frame goes (see <see cref="QueuePrefetch"/>).</summary>
    public void PrefetchNextWrite() => QueuePrefetch.AfterWrite(_tail.Buffer, _writeOffset);

    /// <summary>Publishes everything up to <paramref name="tailOffset"/> in the current segment.</summary>
    /// <remarks>The store of the position is a full fence: the caller then checks whether the consumer is parked.</remarks>
    public void CommitAt(int tailOffset, int messages)
    {
        // The count first (a plain release store), then the position with a full fence: the one
        // fence a commit needs, before the caller looks at whether the consumer is parked.
        if (_payloads is { PendingCount: > 0 } payloads)
        {
            payloads.Publish();
        }

        Volatile.Write(ref _committedMessages, _committedMessages + messages);
        Interlocked.Exchange(ref _committed, _tail.BaseOffset + tailOffset);
        Consumer?.InboundCommitted();
    }

    /// <summary>Inbound queues: the pipe reading it, told of each commit so a reader that set it aside takes it back.</summary>
    public Pipe? Consumer { get; init; }

    public void Commit(int messages) => CommitAt(_writeOffset, messages);

    /// <summary>
    /// Drops bytes written after the last commit (a message cut short by a lost connection),
    /// so a later producer starts at a message boundary.
    /// </summary>
    public void DiscardUncommitted()
    {
        if (_payloads is { PendingCount: > 0 } payloads)
        {
            payloads.DiscardPending();
        }

        long committed = Volatile.Read(ref _committed);
        if (committed >= _tail.BaseOffset)
        {
            _writeOffset = (int)(committed - _tail.BaseOffset);
            return;
        }

        // The partial message spans segments: cut the chain at the committed point. The consumer
        // never reads past `committed`, so it cannot have seen the bytes being dropped.
        var segment = _head;
        while (segment.Next is not null && segment.BaseOffset + segment.End < committed)
        {
            segment = segment.Next;
        }

        var fresh = new FrameSegment(SegmentPool.Shared.Rent(InitialSegmentSize), committed);
        segment.End = (int)(committed - segment.BaseOffset);
        Volatile.Write(ref segment.Next, fresh);
        _tail = fresh;
        _writeOffset = 0;
    }

    // ---------------------------------------------------------------- consumer

    /// <summary>Messages committed and not yet consumed.</summary>
    public long QueuedMessages => Volatile.Read(ref _committedMessages) - Volatile.Read(ref _consumedMessages);

    /// <summary>Messages committed so far.</summary>
    public long CommittedMessages => Volatile.Read(ref _committedMessages);

    /// <summary>
    /// Octets written and not yet consumed, published or not: all the queue holds for its consumer.
    /// Exact only while neither side is moving (diagnostics and tests); a command flood must leave it at 0.
    /// </summary>
    public long BufferedBytes => Volatile.Read(ref _tail).BaseOffset + _writeOffset - _readPosition;

    /// <summary>True when committed bytes are waiting for the consumer.</summary>
    public bool HasData => Volatile.Read(ref _committed) > _readPosition;

    /// <summary>The committed bytes readable contiguously from the read position.</summary>
    public ReadOnlySpan<byte> Peek()
    {
        long committed = Volatile.Read(ref _committed);
        while (true)
        {
            if (_readPosition >= committed)
            {
                return default;
            }

            // Next is read after committed: a commit past this segment was preceded by its sealing.
            var next = Volatile.Read(ref _head.Next);
            if (next is null)
            {
                int offset = (int)(_readPosition - _head.BaseOffset);
                return _head.Buffer.AsSpan(offset, (int)(committed - _readPosition));
            }

            long end = _head.BaseOffset + _head.End;
            if (_readPosition < end)
            {
                int offset = (int)(_readPosition - _head.BaseOffset);
                return _head.Buffer.AsSpan(offset, (int)(Math.Min(end, committed) - _readPosition));
            }

            Recycle(_head);
            _head = next;
        }
    }

    /// <summary>
    /// The producer's next segment, of at least <paramref name="size"/> bytes: a spare when the top one is large
    /// enough (segments of one queue come in one or two sizes, so looking at the top is enough), else a buffer from
    /// the segment pool, in a kept bare segment when there is one.
    /// </summary>
    private FrameSegment NextSegment(int size, long baseOffset)
    {
        FrameSegment? segment = null;
        bool spare = false;
        lock (_spares)
        {
            if (_spares.TryPeek(out var top) && top.Buffer.Length >= size)
            {
                segment = _spares.Pop();
                _spareBytes -= segment.Buffer.Length;
                spare = true;
            }
            else
            {
                _bareSegments.TryPop(out segment);
            }
        }

        if (!spare)
        {
            byte[] buffer = SegmentPool.Shared.Rent(size);
            if (segment is null)
            {
                return new FrameSegment(buffer, baseOffset);
            }

            segment.Buffer = buffer;
        }

        segment!.BaseOffset = baseOffset;
        segment.End = 0;
        segment.Next = null;
        return segment;
    }

    /// <summary>
    /// Consumer: keeps a drained segment as a spare while <see cref="SpareBudget"/> allows, else gives its buffer to
    /// the segment pool and keeps the bare segment for <see cref="NextSegment"/> (up to
    /// <see cref="Tuning.Pipes.BareSegmentsKept"/>).
    /// </summary>
    private void Recycle(FrameSegment segment)
    {
        byte[] buffer = segment.Buffer;
        int length = buffer.Length;
        lock (_spares)
        {
            if (length is >= MaxSegmentSize and <= MaxSpareSize && _spareBytes + length <= SpareBudget)
            {
                _spares.Push(segment);
                _spareBytes += length;
                return;
            }

            if (_bareSegments.Count < Tuning.Pipes.BareSegmentsKept)
            {
                segment.Buffer = [];
                _bareSegments.Push(segment);
            }
        }

        SegmentPool.Shared.Return(buffer);
    }

    /// <summary>Same as <see cref="Peek"/> but as memory, for the write loop's socket send.</summary>
    public ReadOnlyMemory<byte> PeekMemory()
    {
        var span = Peek();
        if (span.IsEmpty)
        {
            return default;
        }

        int offset = (int)(_readPosition - _head.BaseOffset);
        return _head.Buffer.AsMemory(offset, span.Length);
    }

    /// <summary>Moves the read position on by <paramref name="count"/> bytes.</summary>
    public void Consume(int count) => _readPosition += count;

    /// <summary>
    /// Consumer: prefetches the line past the read position when it is committed, so the producer is done with it
    /// (see <see cref="QueuePrefetch"/>).
    /// </summary>
    public void PrefetchNextRead()
    {
        long next = _readPosition + Tuning.Pipes.QueuePrefetchDistance;
        if (next < Volatile.Read(ref _committed))
        {
            var head = _head;
            long offset = next - head.BaseOffset;
            if (offset < head.Buffer.Length)
            {
                QueuePrefetch.Line(head.Buffer, (int)offset);
            }
        }
    }

    /// <summary>Records whole messages taken, which frees HWM room for the producer.</summary>
    public void MessagesConsumed(int count) => Interlocked.Exchange(ref _consumedMessages, _consumedMessages + count);

    /// <summary>Consumer: discards everything committed (LINGER 0, a pipe dropped with its messages).</summary>
    public void ConsumeAll()
    {
        while (true)
        {
            var span = Peek();
            if (span.IsEmpty)
            {
                break;
            }

            ReleaseExternalPayloads(span);
            Consume(span.Length);
        }

        Interlocked.Exchange(ref _consumedMessages, Volatile.Read(ref _committedMessages));
    }
}
