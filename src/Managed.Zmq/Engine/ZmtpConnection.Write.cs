using Managed.Zmq.Core;
using Managed.Zmq.Wire;

namespace Managed.Zmq.Engine;

internal sealed partial class ZmtpConnection
{
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
                    await _transport.SendAsync(_control.AsMemory(0, length)).ConfigureAwait(true);
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

                int messages = CountMessages(batch.Span, out bool endsMidMessage);
                await _transport.SendAsync(batch).ConfigureAwait(true);
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
