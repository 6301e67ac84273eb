using System.Buffers;
using System.Threading.Channels;

namespace Managed.Zmq.Core;

/// <summary>
/// One direction of an inproc link: a <see cref="Channel{T}"/> of <see cref="InprocFrame"/>s from
/// one socket's pipe to its peer's. No ZMTP and no engine: the sending socket's thread writes,
/// the receiving socket's thread reads, and each side wakes the other through its SocketSignal.
/// </summary>
/// <remarks>
/// <para>A large or zero-copy Message travels as its own memory (the frame owns a reference);
/// smaller frames are copied once, from the caller's span, into chunks the sender fills in order
/// and the receiver hands back once it has read past them, so a busy link cycles between a few
/// buffers instead of renting one per message.</para>
/// <para>Messages are atomic (RFC 23 §Messages): the frames of a multipart message are staged on
/// the sending side and written together with the last one, and the receiver starts a message
/// only once it is committed. HWM is counted in whole messages, as libzmq does; SUBSCRIBE and
/// CANCEL commands (XPUB/XSUB) travel in order with the messages but do not count.</para>
/// </remarks>
internal sealed class InprocChannel
{
    private const int InitialChunkSize = 1024;
    private const int MaxChunkSize = 64 * 1024;

    /// <summary>Drained chunks kept for the sender's next ones; more go back to the shared pool.</summary>
    private const int MaxSpareChunks = 8;

    /// <summary>Chunks above this size (a single large frame) are not kept as spares.</summary>
    private const int MaxSpareChunkSize = 4 * 1024 * 1024;

    /// <remarks>
    /// Not declared single-reader although it is: the single-consumer channel locks the very object
    /// whose fields its reader reads on every frame, and on 2 vCPUs it moved 5.0-5.4 M msg/s of
    /// 64 B against 5.9-6.2 M for the general unbounded channel (inproc_thr).
    /// </remarks>
    private readonly Channel<InprocFrame> _frames = Channel.CreateUnbounded<InprocFrame>(
        new UnboundedChannelOptions { SingleReader = false, SingleWriter = true });

    /// <summary>Chunks the receiver has read past, for the sender to fill again.</summary>
    private readonly Stack<byte[]> _spares = new();

    // ------------------------------------------------------------ sender
    private byte[] _chunk = ArrayPool<byte>.Shared.Rent(InitialChunkSize);

    /// <summary>The sender's per-frame state, on cache lines of its own.</summary>
    private readonly InprocSendSlot _send = new();

    /// <summary>Frames of a multipart message written so far; they enter the channel with the last one.</summary>
    private readonly List<InprocFrame> _staged = [];

    // ------------------------------------------------------------ shared
    // Units are messages and commands; a unit is committed once its last frame is in the channel.
    // The sender's counts and the receiver's live on separate cache lines, so that each side's
    // per-message store does not evict the line the other side is writing. _committed.Flag is set
    // (once) when the receiver has gone: from then on the sender releases whatever it commits, as
    // nobody will read it; it sits on the sender's line, which the sender reads anyway.
    private readonly PaddedCounters _committed = new();
    private readonly PaddedCounters _consumed = new();

    // ------------------------------------------------------------ receiver
    /// <summary>The receiver's peeked frame and its view of the sender's count, padded away from the sender's fields.</summary>
    private readonly InprocPeekSlot _peek = new();

    /// <summary>The chunk the receiver last read from: handed back once a frame from a later chunk is read.</summary>
    private byte[]? _readChunk;

    /// <summary>
    /// Sender: whether one more message fits under <paramref name="hwm"/> (0: no limit). The
    /// receiver's count is read only when the sender's last view of it says full, so a sender far
    /// below the HWM does not pull the receiver's cache line on every message; the view is only
    /// ever behind, so the HWM is never exceeded.
    /// </summary>
    public bool HasRoom(int hwm)
    {
        if (hwm <= 0)
        {
            return true;
        }

        long committed = _committed.Messages;
        if (committed - _send.KnownConsumed < hwm)
        {
            return true;
        }

        _send.KnownConsumed = Volatile.Read(ref _consumed.Messages);
        return committed - _send.KnownConsumed < hwm;
    }

    /// <summary>Whole messages committed and not yet consumed.</summary>
    public long QueuedMessages => Volatile.Read(ref _committed.Messages) - Volatile.Read(ref _consumed.Messages);

    /// <summary>True while a committed message or command waits to be read to its end.</summary>
    public bool HasData => Volatile.Read(ref _committed.Units) != Volatile.Read(ref _consumed.Units);

    // ------------------------------------------------------------ sender side

    /// <summary>Copies one frame in; the last frame of a message commits it.</summary>
    public void WriteFrame(ReadOnlySpan<byte> data, bool more) => Stage(CopyToChunk(data, more, command: false), countsAsMessage: true);

    /// <summary>Queues a frame by reference; the caller has taken the reference the frame now owns.</summary>
    public void WritePayload(OutboundPayload payload, bool more) => Stage(new InprocFrame(payload, more), countsAsMessage: true);

    /// <summary>Queues a SUBSCRIBE or CANCEL command body, in order with the messages, outside the HWM.</summary>
    public void WriteCommand(ReadOnlySpan<byte> body) => Stage(CopyToChunk(body, more: false, command: true), countsAsMessage: false);

    /// <summary>Drops the frames of a message that will never be finished (the sender is going away).</summary>
    public void DiscardStaged()
    {
        foreach (var frame in _staged)
        {
            frame.Payload?.Release();
        }

        _staged.Clear();
    }

    private void Stage(in InprocFrame frame, bool countsAsMessage)
    {
        if (frame.More)
        {
            _staged.Add(frame);
            return;
        }

        var writer = _frames.Writer;
        if (_staged.Count > 0)
        {
            foreach (var staged in _staged)
            {
                writer.TryWrite(staged);
            }

            _staged.Clear();
        }

        // An unbounded channel always takes the frame; the HWM is the pipe's, counted in messages.
        writer.TryWrite(frame);
        if (countsAsMessage)
        {
            Volatile.Write(ref _committed.Messages, _committed.Messages + 1);
        }

        // A full fence: the caller then looks at whether the receiver is parked, and we at whether
        // it is gone (it sets the flag with a fence before it drains: one of us sees the other).
        Interlocked.Exchange(ref _committed.Units, _committed.Units + 1);
        if (Volatile.Read(ref _committed.Flag) != 0)
        {
            DrainUnread();
        }
    }

    /// <summary>
    /// Sender: nobody will read this channel any more (the link was never made, or the receiver is
    /// gone): releases everything in it, an unfinished message included.
    /// </summary>
    public void Abandon()
    {
        DiscardStaged();
        DrainUnread();
    }

    private InprocFrame CopyToChunk(ReadOnlySpan<byte> data, bool more, bool command)
    {
        int used = _send.ChunkUsed;
        if (_chunk.Length - used < data.Length)
        {
            NextChunk(data.Length);
            used = 0;
        }

        data.CopyTo(_chunk.AsSpan(used));
        var frame = new InprocFrame(_chunk, used, data.Length, more, command);
        _send.ChunkUsed = used + data.Length;
        return frame;
    }

    private void NextChunk(int needed)
    {
        int size = Math.Max(Math.Min(_chunk.Length * 2, MaxChunkSize), needed);
        byte[]? spare = null;
        lock (_spares)
        {
            if (_spares.TryPeek(out var top) && top.Length >= size)
            {
                spare = _spares.Pop();
            }
        }

        _chunk = spare ?? ArrayPool<byte>.Shared.Rent(size);
        _send.ChunkUsed = 0;
    }

    // ------------------------------------------------------------ receiver side

    /// <summary>The next frame of a committed message, left in place; false when none is committed.</summary>
    public bool TryPeek(out InprocFrame frame)
    {
        var peek = _peek;
        if (!peek.HasFrame)
        {
            // Units are committed after all their frames are in, so a committed count ahead of
            // ours means the message being read is complete in the channel. The sender's count is
            // read only when what we knew of it is used up: while the receiver is behind, it does
            // not pull the sender's cache line on every message.
            long consumed = _consumed.Units;
            if (peek.KnownCommitted == consumed)
            {
                peek.KnownCommitted = Volatile.Read(ref _committed.Units);
            }

            // Taken rather than peeked in the channel: a peek would make its queue keep segments.
            if (peek.KnownCommitted == consumed || !_frames.Reader.TryRead(out peek.Frame))
            {
                frame = default;
                return false;
            }

            peek.HasFrame = true;
        }

        frame = peek.Frame;
        return true;
    }

    /// <summary>Consumes the frame <see cref="TryPeek"/> returned; true when it ended a message (not a command), which frees HWM room.</summary>
    public bool Consume()
    {
        var peek = _peek;
        if (!peek.HasFrame)
        {
            return false;
        }

        var frame = peek.Frame;

        // The slot keeps its stale copy until the next read overwrites it (one GC write barrier less
        // per frame); HasFrame is what says whether it holds a frame.
        peek.HasFrame = false;
        if (frame.Payload is { } payload)
        {
            payload.Release();
        }
        else if (frame.Chunk is { } chunk && !ReferenceEquals(chunk, _readChunk))
        {
            // Chunks are filled in order, so the sender has left the previous one for good.
            if (_readChunk is { } done)
            {
                Recycle(done);
            }

            _readChunk = chunk;
        }

        if (frame.More)
        {
            return false;
        }

        bool message = !frame.IsCommand;
        if (message)
        {
            Volatile.Write(ref _consumed.Messages, _consumed.Messages + 1);
        }

        // A full fence: the caller then looks at whether the sender is parked.
        Interlocked.Exchange(ref _consumed.Units, _consumed.Units + 1);
        return message;
    }

    /// <summary>Receiver: drops everything queued, now and later (it is closing, or the link is dropped); payloads are released.</summary>
    public void DiscardAll()
    {
        Interlocked.Exchange(ref _committed.Flag, 1);
        var peek = _peek;
        if (peek.HasFrame)
        {
            peek.Frame.Payload?.Release();
            peek.Frame = default;
            peek.HasFrame = false;
        }

        DrainUnread();
    }

    /// <summary>
    /// Takes every frame left in the channel and releases its payload. Either side may call it once
    /// the receiver is gone (the channel allows concurrent readers, so each frame is taken once);
    /// the peeked slot is the receiver's and is not touched here.
    /// </summary>
    private void DrainUnread()
    {
        while (_frames.Reader.TryRead(out var frame))
        {
            frame.Payload?.Release();
        }

        RaiseTo(ref _consumed.Messages, Volatile.Read(ref _committed.Messages));
        RaiseTo(ref _consumed.Units, Volatile.Read(ref _committed.Units));
    }

    /// <summary>Sets <paramref name="counter"/> to <paramref name="value"/> unless it is already past it (two sides may drain).</summary>
    private static void RaiseTo(ref long counter, long value)
    {
        long current = Volatile.Read(ref counter);
        while (current < value)
        {
            long seen = Interlocked.CompareExchange(ref counter, value, current);
            if (seen == current)
            {
                return;
            }

            current = seen;
        }
    }

    private void Recycle(byte[] chunk)
    {
        if (chunk.Length <= MaxSpareChunkSize)
        {
            lock (_spares)
            {
                if (_spares.Count < MaxSpareChunks)
                {
                    _spares.Push(chunk);
                    return;
                }
            }
        }

        ArrayPool<byte>.Shared.Return(chunk);
    }
}
