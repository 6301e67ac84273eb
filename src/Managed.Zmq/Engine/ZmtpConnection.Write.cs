using Managed.Zmq.Core;
using Managed.Zmq.Wire;

namespace Managed.Zmq.Engine;

internal sealed partial class ZmtpConnection
{
    /// <summary>CURVE: where encrypted frames are assembled before a send.</summary>
    private byte[]? _cipherOut;

    /// <summary>True until the remains of a message cut by a previous connection are dropped.</summary>
    private bool _skipPartialMessage;

    /// <summary>
    /// Sends whatever the socket has committed, as it lies in the queue: up to a segment
    /// (64 KiB, hundreds of small messages) per system call.
    /// </summary>
    private async Task WriteLoopAsync(Pipe pipe)
    {
        _skipPartialMessage = pipe.OutboundMidMessage;
        var outbound = pipe.Outbound;
        try
        {
            while (!_closing)
            {
                if (_controlLength > 0 && !pipe.OutboundMidMessage)
                {
                    int length = _controlLength;
                    _controlLength = 0;
                    await SendFramesAsync(_control.AsMemory(0, length)).ConfigureAwait(true);
                    continue;
                }

                var batch = outbound.PeekMemory();
                if (batch.IsEmpty)
                {
                    if (_closeWhenDrained)
                    {
                        Close(DisconnectReason.LocalClose);
                        return;
                    }

                    if (pipe.TryParkWriter())
                    {
                        await _writerSignal.WaitAsync().ConfigureAwait(true);
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
                    // A 3.0 peer knows no SUBSCRIBE/CANCEL commands: they go as 0x01/0x00 messages (L12).
                    int command = FindCommand(batch.Span);
                    if (command == 0)
                    {
                        await SendDowngradedCommandAsync(outbound, batch).ConfigureAwait(true);
                        continue;
                    }

                    if (command > 0)
                    {
                        batch = batch[..command];
                    }
                }

                int messages = CountMessages(batch.Span, out bool endsMidMessage);
                await SendFramesAsync(batch).ConfigureAwait(true);
                outbound.Consume(batch.Length);
                pipe.OutboundMidMessage = endsMidMessage;
                if (messages > 0)
                {
                    outbound.MessagesConsumed(messages);
                    _socket.Signal.Notify();
                }
            }
        }
        catch (Exception ex) when (IsConnectionError(ex))
        {
            Close(DisconnectReason.ConnectionLost);
        }
    }

    /// <summary>Sends whole ZMTP frames: as they are, or each encrypted into a MESSAGE (CURVE, RFC 26).</summary>
    private ValueTask SendFramesAsync(ReadOnlyMemory<byte> frames)
        => _cipher is null ? _transport.SendAsync(frames) : SendEncryptedAsync(frames);

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
                }

                if (_cipherOut.Length < needed)
                {
                    _cipherOut = new byte[needed];
                }
            }

            pending += _cipher.Encode(frames.Span.Slice(offset, frameLength), _cipherOut.AsSpan(pending));
            offset += frameLength;
        }

        if (pending > 0)
        {
            await _transport.SendAsync(_cipherOut.AsMemory(0, pending)).ConfigureAwait(true);
        }
    }

    /// <summary>Counts the messages that end in <paramref name="frames"/> (frames are whole by construction).</summary>
    private static int CountMessages(ReadOnlySpan<byte> frames, out bool endsMidMessage)
    {
        int messages = 0;
        endsMidMessage = false;
        while (!frames.IsEmpty)
        {
            ZmtpFrame.TryReadHeader(frames, out var header);
            if (!header.IsCommand)
            {
                endsMidMessage = header.More;
                if (!header.More)
                {
                    messages++;
                }
            }

            frames = frames.Slice(header.HeaderLength + (int)header.BodyLength);
        }

        return messages;
    }

    /// <summary>Offset of the first command frame in <paramref name="frames"/>, or -1.</summary>
    private static int FindCommand(ReadOnlySpan<byte> frames)
    {
        int offset = 0;
        while (offset < frames.Length)
        {
            ZmtpFrame.TryReadHeader(frames[offset..], out var header);
            if (header.IsCommand)
            {
                return offset;
            }

            offset += header.HeaderLength + (int)header.BodyLength;
        }

        return -1;
    }

    /// <summary>Sends the command frame at the start of <paramref name="batch"/> in its 3.0 form, or drops it if it has none.</summary>
    private async ValueTask SendDowngradedCommandAsync(Core.FrameQueue outbound, ReadOnlyMemory<byte> batch)
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

        outbound.Consume(frameLength);
    }

    private static int SkipToMessageEnd(ReadOnlySpan<byte> frames, Pipe pipe)
    {
        int skipped = 0;
        while (skipped < frames.Length)
        {
            ZmtpFrame.TryReadHeader(frames.Slice(skipped), out var header);
            skipped += header.HeaderLength + (int)header.BodyLength;
            if (!header.More && !header.IsCommand)
            {
                pipe.OutboundMidMessage = false;
                pipe.Outbound.MessagesConsumed(1);
                break;
            }
        }

        return skipped;
    }
}
