using System.Buffers.Binary;
using System.Diagnostics;
using Managed.Zmq.Pipes;
using Managed.Zmq.Buffers;

namespace Managed.Zmq.Inproc;

/// <summary>The receiving socket's side of an inproc channel: peek, consume, and drop what nobody will read.</summary>
internal sealed partial class InprocChannel
{
    // ------------------------------------------------------------ receiver side

    /// <summary>The next frame of a committed message, left in place; false when none is committed.</summary>
    public bool TryPeek(out InprocFrame frame)
    {
        var peek = _peek;
        if (!peek.HasFrame)
        {
            if (peek.Discarded)
            {
                // DiscardAll counted everything as read without moving the read position: nothing here is ours.
                frame = default;
                return false;
            }

            // Units are committed after all their frames are in, so a committed count ahead of
            // ours means the message being read is complete. The sender's count is read only when
            // what we knew of it is used up: while the receiver is behind, it does not pull the
            // sender's cache line on every message.
            long consumed = _consumed.Units;
            if (peek.KnownCommitted == consumed)
            {
                peek.KnownCommitted = Volatile.Read(ref _committed.Units);
                if (peek.KnownCommitted == consumed)
                {
                    frame = default;
                    return false;
                }
            }

            ReadFrame(peek);
        }

        frame = peek.Frame;
        return true;
    }

    /// <summary>Reads the frame at the receiver's position into the peek slot; one is there (a unit is committed).</summary>
    private void ReadFrame(InprocPeekSlot peek)
    {
        var chunk = _readChunk;
        int at = peek.ReadAt;
        while (true)
        {
            if (chunk is null)
            {
                chunk = NextReadChunk();
                at = 0;
            }

            int length = BinaryPrimitives.ReadInt32LittleEndian(chunk.AsSpan(at));
            int flags = BinaryPrimitives.ReadInt32LittleEndian(chunk.AsSpan(at + 4));
            at += HeaderSize;
            if ((flags & ChunkEndFlag) != 0)
            {
                _leftChunk = _readChunk;
                chunk = null;
                continue;
            }

            var frameFlags = (FrameFlags)(flags & FrameFlagBits);
            if ((flags & PayloadFlag) != 0)
            {
                bool taken = _payloads.Reader.TryRead(out var payload);
                Debug.Assert(taken, "a committed payload frame's reference was handed over before its commit");
                peek.Frame = new InprocFrame(payload!, frameFlags);
            }
            else
            {
                peek.Frame = new InprocFrame(chunk, at, length, frameFlags);
                at += length;
            }

            peek.ReadAt = at;
            peek.HasFrame = true;
            return;
        }
    }

    /// <summary>The chunk after the one the receiver finished: the sender handed it over before committing anything in it.</summary>
    private byte[] NextReadChunk()
    {
        bool taken = _chunks.Reader.TryRead(out var next);
        Debug.Assert(taken, "a chunk is handed over before anything in it is committed");
        _readChunk = next!;
        return next!;
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
        peek.Bytes += frame.Length;
        if (frame.Payload is { } payload)
        {
            payload.Release();
        }

        if (_leftChunk is { } left)
        {
            // A frame of the next chunk is consumed, so the sender may fill the previous one again.
            _leftChunk = null;
            Recycle(left);
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
        peek.Discarded = true;
        if (peek.HasFrame)
        {
            peek.Frame.Payload?.Release();
            peek.Frame = default;
            peek.HasFrame = false;
        }

        DrainUnread();
    }

    /// <summary>
    /// Releases every payload left in the channel, drops the chunks, and counts everything committed as consumed. Either
    /// side may call it once the receiver is gone (both channels allow concurrent readers, so each item is taken once);
    /// the peeked slot is the receiver's and is not touched here.
    /// </summary>
    private void DrainUnread()
    {
        while (_payloads.Reader.TryRead(out var payload))
        {
            payload.Release();
        }

        // Dropped, not recycled: the sender's current chunk is among them.
        while (_chunks.Reader.TryRead(out _))
        {
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

        SegmentPool.Shared.Return(chunk);
    }
}
