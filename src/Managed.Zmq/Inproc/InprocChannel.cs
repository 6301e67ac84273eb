using System.Diagnostics;
using System.Buffers.Binary;
using System.Threading.Channels;
using Managed.Zmq.Buffers;
using Managed.Zmq.Pipes;
using Managed.Zmq.Internal;

namespace Managed.Zmq.Inproc;

/// <summary>
/// One direction of an inproc link, from one socket's pipe to its peer's. No ZMTP and no engine: the sending socket's
/// thread writes, the receiving socket's thread reads, and each side wakes the other through its SocketSignal.
/// </summary>
/// <remarks>
/// <para>Small frames are copied once, from the caller's span, into chunks the sender fills in order, each frame
/// behind an 8-byte header of our own (length, flags); the receiver reads them in place and hands a chunk back once
/// it has read past it, so a busy link cycles between a few buffers. Only whole chunks go through a
/// <see cref="Channel{T}"/>, not each frame: a channel write per frame took a lock and a queue slot per message,
/// and the cache lines of both travelled between the two threads every time. A large or zero-copy Message travels
/// as its own memory: its header in the chunk says so, and the reference goes through a second channel.</para>
/// <para>Messages are atomic (RFC 23 §Messages): the receiver reads only whole committed units (messages and
/// commands), counted after their last frame is written, so it never parses a header the sender is still writing.
/// Chunks and payloads a unit begins are handed over when it commits, so an unfinished message can be taken back.
/// HWM is counted in whole messages, as libzmq does; SUBSCRIBE and CANCEL commands (XPUB/XSUB) travel in order with
/// the messages but do not count.</para>
/// </remarks>
internal sealed partial class InprocChannel
{
    private const int InitialChunkSize = Tuning.Pipes.InprocInitialChunkSize;
    private const int MaxChunkSize = Tuning.Pipes.InprocMaxChunkSize;

    /// <summary>Drained chunks kept for the sender's next ones; more go back to the shared pool.</summary>
    private const int MaxSpareChunks = Tuning.Pipes.InprocMaxSpareChunks;

    /// <summary>Chunks above this size (a single large frame) are not kept as spares.</summary>
    private const int MaxSpareChunkSize = Tuning.Pipes.InprocMaxSpareChunkSize;

    /// <summary>A frame's header in a chunk: its length, then its flags, 32 bits each.</summary>
    private const int HeaderSize = 8;

    /// <summary>The frame's More and Command bits, which the frame hands on as they are (<see cref="InprocFrame.Flags"/>).</summary>
    private const int MoreFlag = (int)FrameFlags.More;
    private const int CommandFlag = (int)FrameFlags.Command;
    private const int FrameFlagBits = MoreFlag | CommandFlag;

    /// <summary>The frame's bytes are the next <see cref="_payloads"/> entry's, not in the chunk.</summary>
    private const int PayloadFlag = 0x10;

    /// <summary>Nothing more in this chunk: the next frame is at the start of the next <see cref="_chunks"/> entry.</summary>
    private const int ChunkEndFlag = 0x20;

    /// <summary>Chunks in the order the sender fills them; the receiver reads, and either side drains once it is gone.</summary>
    private readonly Channel<byte[]> _chunks = Channel.CreateUnbounded<byte[]>(
        new UnboundedChannelOptions { SingleReader = false, SingleWriter = true });

    /// <summary>Frames that travel by reference, in order; the receiver reads, and either side drains once it is gone.</summary>
    private readonly Channel<OutboundPayload> _payloads = Channel.CreateUnbounded<OutboundPayload>(
        new UnboundedChannelOptions { SingleReader = false, SingleWriter = true });

    /// <summary>Chunks the receiver has read past, for the sender to fill again.</summary>
    private readonly Stack<byte[]> _spares = new();

    // ------------------------------------------------------------ sender
    private byte[] _chunk;

    /// <summary>The sender's per-frame state, on cache lines of its own.</summary>
    private readonly InprocSendSlot _send = new();

    /// <summary>Chunks begun by the unit being written; handed to the receiver when it commits.</summary>
    private readonly List<byte[]> _stagedChunks = [];

    /// <summary>Payloads of the unit being written; handed to the receiver when it commits.</summary>
    private readonly List<OutboundPayload> _stagedPayloads = [];

    /// <summary>The chunk the unit being written began in, when it has moved on to a staged one since.</summary>
    private byte[]? _unitStartChunk;

    /// <summary>Commands written while a message was half written; they follow it.</summary>
    private List<byte[]>? _deferredCommands;

    // ------------------------------------------------------------ shared
    // Units are messages and commands; a unit is committed once its last frame is written.
    // The sender's counts and the receiver's live on separate cache lines, so that each side's
    // per-message store does not evict the line the other side is writing. _committed.Flag is set
    // (once) when the receiver has gone: from then on the sender releases whatever it commits, as
    // nobody will read it; it sits on the sender's line, which the sender reads anyway.
    private readonly PaddedCounters _committed = new();
    private readonly PaddedCounters _consumed = new();

    // ------------------------------------------------------------ receiver
    /// <summary>The receiver's peeked frame, read position and view of the sender's count, padded away from the sender's fields.</summary>
    private readonly InprocPeekSlot _peek = new();

    /// <summary>The chunk the receiver reads from (null before the first frame).</summary>
    private byte[]? _readChunk;

    /// <summary>The chunk the receiver just left; handed back once a frame from the next one is consumed.</summary>
    private byte[]? _leftChunk;

    public InprocChannel()
    {
        _chunk = SegmentPool.Shared.Rent(InitialChunkSize);
        _chunks.Writer.TryWrite(_chunk);
    }

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

    /// <summary>Whole messages committed so far (statistics).</summary>
    public long CommittedMessages => Volatile.Read(ref _committed.Messages);

    /// <summary>Whole messages consumed so far (statistics).</summary>
    public long ConsumedMessages => Volatile.Read(ref _consumed.Messages);

    /// <summary>Message octets written so far, approximate while the sender moves (statistics).</summary>
    public long WrittenBytes => Volatile.Read(ref _send.Bytes);

    /// <summary>Message octets consumed so far, approximate while the receiver moves (statistics).</summary>
    public long ConsumedBytes => Volatile.Read(ref _peek.Bytes);

    /// <summary>True while a committed message or command waits to be read to its end.</summary>
    public bool HasData => Volatile.Read(ref _committed.Units) != Volatile.Read(ref _consumed.Units);

    // ------------------------------------------------------------ sender side

    /// <summary>Copies one frame in; the last frame of a message commits it.</summary>
    public void WriteFrame(ReadOnlySpan<byte> data, bool more)
    {
        Append(data, more ? MoreFlag : 0);
        _send.Bytes += data.Length;
        if (!more)
        {
            Commit(countsAsMessage: true);
        }
    }

    /// <summary>Queues a frame by reference; the caller has taken the reference the frame now owns.</summary>
    public void WritePayload(OutboundPayload payload, bool more)
    {
        AppendHeader(payload.Length, PayloadFlag | (more ? MoreFlag : 0));
        _stagedPayloads.Add(payload);
        _send.Bytes += payload.Length;
        if (!more)
        {
            Commit(countsAsMessage: true);
        }
    }

    /// <summary>Queues a command (a subscription change) body, in order with the messages, outside the HWM.</summary>
    public void WriteCommand(ReadOnlySpan<byte> body)
    {
        if (_send.UnitOpen)
        {
            // A message is half written: the command follows it, so the message stays whole (RFC 23 §Messages).
            (_deferredCommands ??= []).Add(body.ToArray());
            return;
        }

        Append(body, CommandFlag);
        Commit(countsAsMessage: false);
    }

    /// <summary>Takes back the frames of a message that will never be finished (the sender is going away).</summary>
    public void DiscardStaged()
    {
        var send = _send;
        if (!send.UnitOpen)
        {
            return;
        }

        foreach (var payload in _stagedPayloads)
        {
            payload.Release();
        }

        _stagedPayloads.Clear();
        if (_stagedChunks.Count > 0)
        {
            foreach (var chunk in _stagedChunks)
            {
                Recycle(chunk);
            }

            _stagedChunks.Clear();
            _chunk = _unitStartChunk!;
            _unitStartChunk = null;
        }

        // Nothing past the unit's start was committed, so the receiver has not read there.
        send.ChunkUsed = send.UnitStart;
        send.UnitOpen = false;
        WriteDeferredCommands();
    }

    /// <summary>
    /// Sender: nobody will read this channel any more (the link was never made, or the receiver is
    /// gone): releases everything in it, an unfinished message included.
    /// </summary>
    public void Abandon()
    {
        // As if a receiver had gone: anything committed later is released at once too.
        Interlocked.Exchange(ref _committed.Flag, 1);
        DiscardStaged();
        DrainUnread();
    }

    private void Append(ReadOnlySpan<byte> data, int flags)
    {
        int start = AppendHeader(data.Length, flags);
        data.CopyTo(_chunk.AsSpan(start));
    }

    /// <summary>
    /// Writes a frame header, with room after it for the frame's <paramref name="length"/> bytes unless they travel
    /// as a payload; returns where the bytes go.
    /// </summary>
    private int AppendHeader(int length, int flags)
    {
        var send = _send;
        int used = send.ChunkUsed;
        if (!send.UnitOpen)
        {
            send.UnitOpen = true;
            send.UnitStart = used;
        }

        // A chunk always keeps room for the header that ends it.
        int inChunk = (flags & PayloadFlag) != 0 ? 0 : length;
        if (_chunk.Length - used < (long)HeaderSize + inChunk + HeaderSize)
        {
            NextChunk(inChunk);
            used = 0;
        }

        var header = _chunk.AsSpan(used, HeaderSize);
        BinaryPrimitives.WriteInt32LittleEndian(header, length);
        BinaryPrimitives.WriteInt32LittleEndian(header[4..], flags);
        int start = used + HeaderSize;
        send.ChunkUsed = start + inChunk;
        return start;
    }

    /// <summary>Ends the current chunk and moves to one with room for <paramref name="length"/> more bytes after a header, written from its start.</summary>
    private void NextChunk(int length)
    {
        var old = _chunk;
        int used = _send.ChunkUsed;
        BinaryPrimitives.WriteInt32LittleEndian(old.AsSpan(used), 0);
        BinaryPrimitives.WriteInt32LittleEndian(old.AsSpan(used + 4), ChunkEndFlag);
        if (_stagedChunks.Count == 0)
        {
            _unitStartChunk = old;
        }

        int size = Math.Max(Math.Min(old.Length * 2, MaxChunkSize), HeaderSize + length + HeaderSize);
        byte[]? spare = null;
        lock (_spares)
        {
            // Spares smaller than what the sender needs now would stay on top for good and hide the rest.
            while (_spares.TryPop(out var top))
            {
                if (top.Length >= size)
                {
                    spare = top;
                    break;
                }

                SegmentPool.Shared.Return(top);
            }
        }

        _chunk = spare ?? SegmentPool.Shared.Rent(size);
        _stagedChunks.Add(_chunk);
    }

    /// <summary>The pipe reading this channel, told of each commit so a reader that set it aside takes it back.</summary>
    private Pipe? _consumer;

    /// <summary>Set by the reading pipe when it is made; the sender may already be writing (connect before bind).</summary>
    public Pipe? Consumer
    {
        get => Volatile.Read(ref _consumer);
        set => Volatile.Write(ref _consumer, value);
    }

    private void Commit(bool countsAsMessage)
    {
        if (_stagedChunks.Count > 0)
        {
            foreach (var chunk in _stagedChunks)
            {
                _chunks.Writer.TryWrite(chunk);
            }

            _stagedChunks.Clear();
            _unitStartChunk = null;
        }

        if (_stagedPayloads.Count > 0)
        {
            foreach (var payload in _stagedPayloads)
            {
                _payloads.Writer.TryWrite(payload);
            }

            _stagedPayloads.Clear();
        }

        _send.UnitOpen = false;
        if (countsAsMessage)
        {
            Volatile.Write(ref _committed.Messages, _committed.Messages + 1);
        }

        // Publishes the unit's bytes, and is a full fence: the caller then looks at whether the receiver is parked,
        // and we at whether it is gone (it sets the flag with a fence before it drains: one of us sees the other).
        Interlocked.Exchange(ref _committed.Units, _committed.Units + 1);
        Volatile.Read(ref _consumer)?.InboundCommitted();
        if (Volatile.Read(ref _committed.Flag) != 0)
        {
            // Nobody reads any more: release what was committed and write over the chunk again, so that a sender that
            // has not yet heard of it does not fill new chunks for nobody.
            DrainUnread();
            _send.ChunkUsed = 0;
        }

        if (_deferredCommands is not null)
        {
            WriteDeferredCommands();
        }
    }

    private void WriteDeferredCommands()
    {
        if (_deferredCommands is not { Count: > 0 } commands)
        {
            return;
        }

        _deferredCommands = null;
        foreach (var body in commands)
        {
            WriteCommand(body);
        }
    }
}
