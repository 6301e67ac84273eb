using System.Diagnostics;
using System.Runtime.CompilerServices;
using Managed.Zmq.Wire;
using Managed.Zmq.Buffers;
using Managed.Zmq.Pipes;
using Managed.Zmq.Internal;

namespace Managed.Zmq.Engine;

internal sealed partial class ZmtpConnection
{
    /// <summary>The header of a large frame, copied out of the queue with its marker cleared, after the frames of its envelope (<see cref="FitsInHeadroom"/>).</summary>
    private readonly byte[] _headerScratch = new byte[FrameHeadroom.Size];

    /// <summary>CURVE: where encrypted frames are assembled before a send.</summary>
    private byte[]? _cipherOut;

    /// <summary>
    /// The transport is corked (<see cref="Transports.IByteTransport.SetCorked"/>): set before a large frame that more
    /// bytes follow, cleared before the loop waits and before anything but a large frame or the small frames ahead of one.
    /// </summary>
    private bool _corked;

    /// <summary>True until the remains of a message cut by a previous connection are dropped.</summary>
    private bool _skipPartialMessage;

    /// <summary>
    /// Sends whatever the socket has committed, as it lies in the queue: up to a segment
    /// (64 KiB, hundreds of small messages) per system call.
    /// </summary>
    private async Task WriteLoopAsync(StreamPipe pipe)
    {
        _skipPartialMessage = pipe.OutboundMidMessage;
        var outbound = pipe.Outbound;
        try
        {
            while (!_closing)
            {
                if (_cipherTailLength > 0)
                {
                    // The rest of a CURVE direct write: sealed with earlier nonces than anything queued, so it goes first.
                    var tail = _cipherTail.AsMemory(_cipherTailOffset, _cipherTailLength);
                    _cipherTailLength = 0;
                    _cipherTail = null;
                    await _transport.SendAsync(tail).ConfigureAwait(true);
                    continue;
                }

                if (_controlLength > 0 && !pipe.OutboundMidMessage && _directSentPrefix == 0)
                {
                    // The read loop may queue another PONG while this send waits for the kernel:
                    // it then writes into the other buffer, never over bytes still going out.
                    var sending = _control!;
                    int length = _controlLength;
                    _control = _controlSpare ?? new byte[sending.Length];
                    _controlSpare = null;
                    _controlLength = 0;
                    Uncork();
                    await SendFramesAsync(sending.AsMemory(0, length)).ConfigureAwait(true);
                    _controlSpare = sending;
                    continue;
                }

                var batch = outbound.PeekMemory();
                if (batch.IsEmpty)
                {
                    // Nothing follows: what the kernel holds goes now, before the loop waits.
                    Uncork();
                    if (!await AwaitOutboundAsync(pipe).ConfigureAwait(true))
                    {
                        return;
                    }

                    continue;
                }

                int skip = 0;
                if (_skipPartialMessage)
                {
                    // A previous connection died inside a message: its head went out, so the tail
                    // must not (RFC 23 §Messages: all frames or none).
                    skip = SkipToMessageEnd(batch.Span, pipe);
                    _skipPartialMessage = pipe.OutboundMidMessage;
                    outbound.Consume(skip);
                    if (skip == batch.Length)
                    {
                        continue;
                    }

                    batch = batch.Slice(skip);
                }

                if (pipe.PeerMinorVersion == 0)
                {
                    // A 3.0 peer knows no SUBSCRIBE/CANCEL commands: they go as 0x01/0x00 messages (docs/libzmq-behaviour.md L12).
                    int command = FindCommand(batch.Span);
                    if (command == 0)
                    {
                        Uncork();
                        await SendDowngradedCommandAsync(outbound, batch).ConfigureAwait(true);
                        continue;
                    }

                    if (command > 0)
                    {
                        batch = batch[..command];
                    }
                }

                int external = ScanBatch(batch.Span, out int messages, out bool endsMidMessage);
                if (external == 0)
                {
                    await SendExternalFrameAsync(pipe, batch, 0).ConfigureAwait(true);
                    continue;
                }

                if (external > 0 && _directSentPrefix == 0 && _cipher is null && FitsInHeadroom(pipe, batch.Span[..external]))
                {
                    // The large frame's envelope goes in its headroom: one send for the two. Zero-copy callbacks that
                    // overflowed their thread's ring run here, as after any batch of small frames (CompleteWrite).
                    await SendExternalFrameAsync(pipe, batch, external).ConfigureAwait(true);
                    DeferredReleases.RunPending();
                    continue;
                }

                if (external > 0)
                {
                    // Send what precedes the large payload first; it goes out next turn.
                    batch = batch[..external];
                }
                else
                {
                    // Small frames with no large frame behind them may be all there is for a while: they go at once.
                    Uncork();
                }

                if (_directSentPrefix > 0)
                {
                    // The socket thread sent the head of this batch before the kernel's buffer filled.
                    int sentAlready = _directSentPrefix;
                    _directSentPrefix = 0;
                    await SendFramesAsync(batch[sentAlready..]).ConfigureAwait(true);
                }
                else
                {
                    await SendFramesAsync(batch).ConfigureAwait(true);
                }

                CompleteWrite(pipe, batch.Length, messages, endsMidMessage);
            }
        }
        catch (Exception ex) when (IsConnectionError(ex))
        {
            Close(DisconnectReason.ConnectionLost);
        }
    }

    /// <summary>
    /// Sends one large frame from the Message's own memory: its header from the queue (marker
    /// cleared in a copy, so a retry after a lost connection finds the queue intact), then the
    /// payload, which is released only once it went out. The <paramref name="envelope"/> bytes at
    /// the head of <paramref name="batch"/> are small frames of the same message that
    /// <see cref="FitsInHeadroom"/> found room for: they go in the headroom before the header.
    /// </summary>
    // Pooled builder: the payload send completes asynchronously for most large frames (see ReceiveDirectFrameAsync).
    [AsyncMethodBuilder(typeof(PoolingAsyncValueTaskMethodBuilder))]
    private async ValueTask SendExternalFrameAsync(StreamPipe pipe, ReadOnlyMemory<byte> batch, int envelope)
    {
        var payload = pipe.PeekPayload();
        var headerBytes = _headerScratch;
        int queued = CopyEnvelopeAndHeader(batch.Span, envelope, headerBytes, out var header);
        if (!_corked && batch.Length > queued)
        {
            // More follows this frame: its last partial segment waits to be filled by the next bytes.
            _corked = _transport.SetCorked(true);
        }

        // Less what a direct write sent already (never under CURVE).
        int sentAlready = _directSentExternal;
        _directSentExternal = 0;
        Debug.Assert(envelope == 0 || (payload.HasHeadroom && _cipher is null && sentAlready == 0), "An envelope goes in a headroom only, ahead of anything sent.");
        if (_cipher is null && payload.HasHeadroom)
        {
            // The library's own buffer: the header goes in front of the body and both leave in one send.
            await _transport.SendAsync(payload.WithHeader(headerBytes.AsSpan(0, queued))[sentAlready..]).ConfigureAwait(true);
        }
        else if (_cipher is null)
        {
            if (sentAlready < queued)
            {
                await _transport.SendAsync(headerBytes.AsMemory(sentAlready, queued - sentAlready)).ConfigureAwait(true);
            }

            await _transport.SendAsync(payload.Memory[Math.Max(sentAlready - queued, 0)..]).ConfigureAwait(true);
        }
        else
        {
            // CURVE boxes header and body together: assemble them (encryption copies anyway).
            var frame = new byte[queued + payload.Length];
            headerBytes.AsSpan(0, queued).CopyTo(frame);
            payload.Span.CopyTo(frame.AsSpan(queued));
            await SendFramesAsync(frame).ConfigureAwait(true);
        }

        pipe.TakePayload().Release();
        CompleteExternalWrite(pipe, queued, header.More);
    }

    /// <summary>
    /// Clears TCP_CORK if the loop set it: before it waits, and before anything that is not a large frame with more
    /// behind it (small frames with no large frame after them, a command), which must not wait for a segment to fill.
    /// </summary>
    private void Uncork()
    {
        if (_corked)
        {
            _corked = _transport.SetCorked(false);
        }
    }

    /// <summary>
    /// The outbound queue is empty: ends the connection if it was to close once drained (false), else parks
    /// the writer until a sender wakes it (true). Every write loop's idle path.
    /// </summary>
    private async ValueTask<bool> AwaitOutboundAsync(StreamPipe pipe)
    {
        if (_closeWhenDrained)
        {
            Close(DisconnectReason.LocalClose);
            return false;
        }

        if (pipe.TryParkWriter())
        {
            await _writerSignal.WaitAsync().ConfigureAwait(true);
            pipe.ClaimWriter();
        }

        return true;
    }

    /// <summary>
    /// Queued frames went out: frees their room, and wakes a sender held at HWM once the queue is down to its
    /// resume level. Zero-copy callbacks that overflowed their thread's ring run here rather than cost a
    /// wake-up elsewhere.
    /// </summary>
    private void CompleteWrite(StreamPipe pipe, int length, int messages, bool endsMidMessage)
    {
        DeferredReleases.RunPending();
        pipe.Outbound.Consume(length);
        pipe.OutboundMidMessage = endsMidMessage;
        if (messages > 0)
        {
            pipe.Outbound.MessagesConsumed(messages);
            if (pipe.OutboundAtLowWater)
            {
                _host.Notify();
            }
        }
    }

    /// <summary>One queued frame whose body the caller owned went out (its payload released already).</summary>
    private void CompleteExternalWrite(StreamPipe pipe, int queued, bool more)
    {
        pipe.Outbound.Consume(queued);
        pipe.OutboundMidMessage = more;
        if (!more)
        {
            pipe.Outbound.MessagesConsumed(1);
            if (pipe.OutboundAtLowWater)
            {
                _host.Notify();
            }
        }
    }

    /// <summary>Sends whole ZMTP frames: as they are, or each encrypted into a MESSAGE (CURVE, RFC 26).</summary>
    private ValueTask SendFramesAsync(ReadOnlyMemory<byte> frames)
        => _cipher is null ? _transport.SendAsync(frames) : SendEncryptedAsync(frames);

    // Pooled builder: called once per write batch, it suspends whenever the socket's send buffer is full.
    [AsyncMethodBuilder(typeof(PoolingAsyncValueTaskMethodBuilder))]
    private async ValueTask SendEncryptedAsync(ReadOnlyMemory<byte> frames)
    {
        _cipherOut ??= new byte[64 * 1024];
        int offset = 0;
        int pending = 0;
        while (offset < frames.Length)
        {
            ZmtpFrame.TryReadHeader(frames.Span[offset..], out var header);
            int frameLength = header.HeaderLength + (int)header.BodyLength;
            int needed = _cipher!.GetEncodedLength((int)header.BodyLength);
            if (_cipherOut.Length - pending < needed)
            {
                if (pending > 0)
                {
                    await _transport.SendAsync(_cipherOut.AsMemory(0, pending)).ConfigureAwait(true);
                    pending = 0;
                    if (_closing)
                    {
                        return;
                    }
                }

                if (_cipherOut.Length < needed)
                {
                    _cipherOut = new byte[needed];
                }
            }

            int encoded = _cipher.Encode(frames.Span.Slice(offset, frameLength), _cipherOut.AsSpan(pending));
            if (encoded < 0)
            {
                // The mechanism failed and wiped its keys: nothing more leaves on this connection.
                return;
            }

            pending += encoded;
            offset += frameLength;
        }

        if (pending > 0)
        {
            await _transport.SendAsync(_cipherOut.AsMemory(0, pending)).ConfigureAwait(true);
        }
    }

    /// <summary>
    /// The write loops' and the direct write's one walk over a batch: the offset of its first frame held by reference (-1 when none), and the
    /// messages that end before that offset (frames are whole by construction). One walk, not a search and then a count:
    /// the walk touches every cache line of the batch, and the producer may be writing the lines after it.
    /// </summary>
    private static int ScanBatch(ReadOnlySpan<byte> frames, out int messages, out bool endsMidMessage)
    {
        messages = 0;
        endsMidMessage = false;
        foreach (var frame in new QueuedFrames(frames))
        {
            if (frame.IsExternal)
            {
                return frame.Offset;
            }

            if (!frame.IsCommand)
            {
                endsMidMessage = frame.More;
                if (!frame.More)
                {
                    messages++;
                }
            }
        }

        return -1;
    }

    /// <summary>
    /// True when the small frames <paramref name="envelope"/>, queued before a large frame, can go in that frame's
    /// headroom in front of its header, so that both leave in one system call: the payload has headroom, and they
    /// fit in it with the header, and they are the large frame's own message (no command, no message end). One
    /// payload may be sent to several peers at once (PUB); the frames of its own message are the same bytes at the
    /// same place for every peer, as its header is (see OutboundPayload.WithHeader).
    /// </summary>
    private static bool FitsInHeadroom(StreamPipe pipe, ReadOnlySpan<byte> envelope)
    {
        if (envelope.Length + ZmtpFrame.MaxHeaderLength > FrameHeadroom.Size || !pipe.PeekPayload().HasHeadroom)
        {
            return false;
        }

        foreach (var frame in new QueuedFrames(envelope))
        {
            if (frame.IsCommand || !frame.More)
            {
                return false;
            }
        }

        return true;
    }

    /// <summary>
    /// Copies the <paramref name="envelope"/> bytes at the head of <paramref name="batch"/> (<see cref="FitsInHeadroom"/>),
    /// then the large frame's header after them with its queue marker cleared, to <paramref name="destination"/>;
    /// returns the length of both.
    /// </summary>
    private static int CopyEnvelopeAndHeader(ReadOnlySpan<byte> batch, int envelope, Span<byte> destination, out ZmtpFrameHeader header)
    {
        batch[..envelope].CopyTo(destination);
        return envelope + QueuedFrame.CopyWireHeader(batch[envelope..], destination[envelope..], out header);
    }

    /// <summary>Offset of the first command frame in <paramref name="frames"/>, or -1.</summary>
    private static int FindCommand(ReadOnlySpan<byte> frames)
    {
        foreach (var frame in new QueuedFrames(frames))
        {
            if (frame.IsCommand)
            {
                return frame.Offset;
            }
        }

        return -1;
    }

    /// <summary>Sends the command frame at the start of <paramref name="batch"/> in its 3.0 form, or drops it if it has none.</summary>
    private async ValueTask SendDowngradedCommandAsync(Pipes.FrameQueue outbound, ReadOnlyMemory<byte> batch)
    {
        ZmtpFrame.TryReadHeader(batch.Span, out var header);
        int frameLength = header.HeaderLength + (int)header.BodyLength;
        var body = batch.Span.Slice(header.HeaderLength, (int)header.BodyLength);
        byte[]? converted = null;
        if (ZmtpCommandCodec.TryParse(body, out var command) && ZmtpSubscription.TryParseCommand(command, out bool subscribe, out var topic))
        {
            converted = new byte[ZmtpSubscription.GetMessageFrameLength(topic.Length)];
            ZmtpSubscription.WriteMessageFrame(converted, subscribe, topic);
        }

        if (converted is not null)
        {
            await SendFramesAsync(converted).ConfigureAwait(true);
        }
        else if (ZmtpCommandCodec.TryParse(body, out command) && ZmtpGroupCommand.TryParse(command, out _, out _))
        {
            // JOIN and LEAVE have no 3.0 form: libzmq 4.3 sends them to a 3.0 peer as the same command frames.
            await SendFramesAsync(batch[..frameLength]).ConfigureAwait(true);
        }

        outbound.Consume(frameLength);
    }

    private static int SkipToMessageEnd(ReadOnlySpan<byte> frames, StreamPipe pipe)
    {
        int skipped = 0;
        foreach (var frame in new QueuedFrames(frames))
        {
            skipped = frame.Offset + frame.QueuedLength;
            if (frame.IsExternal)
            {
                pipe.TakePayload().Release();
            }

            if (!frame.More && !frame.IsCommand)
            {
                pipe.OutboundMidMessage = false;
                pipe.Outbound.MessagesConsumed(1);
                break;
            }
        }

        return skipped;
    }
}
