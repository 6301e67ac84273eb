using Managed.Zmq.Core;
using Managed.Zmq.Wire;

namespace Managed.Zmq.Engine;

internal sealed partial class ZmtpConnection
{
    /// <summary>Free space asked of the inbound queue before each receive: many frames per system call.</summary>
    private const int ReceiveSpace = 16 * 1024;

    /// <summary>Frames larger than this cannot be held in one array and end the connection.</summary>
    private const long LargestFrame = int.MaxValue - 1024;

    /// <summary>Start, in the inbound write buffer, of the first frame not yet parsed.</summary>
    private int _parseOffset;

    /// <summary>True while the frames parsed so far end inside a multipart message.</summary>
    private bool _inMessage;

    /// <summary>Bytes the next receive must make room for: a partial frame's full size.</summary>
    private int _pendingFrameBytes;

    private bool TryStoreLeftover(ReadOnlySpan<byte> leftover)
    {
        var inbound = _pipe!.Inbound;
        _parseOffset = inbound.WriteOffset;
        if (leftover.IsEmpty)
        {
            return true;
        }

        _parseOffset = inbound.EnsureSpace(leftover.Length, _parseOffset);
        leftover.CopyTo(inbound.WriteBuffer.AsSpan(inbound.WriteOffset));
        inbound.Advance(leftover.Length);
        return ParseReceived(_pipe);
    }

    private async Task ReadLoopAsync(Pipe pipe)
    {
        var inbound = pipe.Inbound;
        try
        {
            while (!_closing)
            {
                if (pipe.ReceiveHwm > 0 && inbound.QueuedMessages >= pipe.ReceiveHwm && pipe.TryPauseReader())
                {
                    // RCVHWM reached: stop reading so TCP pushes back on the sender (RFC 28 §General behavior).
                    await _readerSignal.WaitAsync().ConfigureAwait(true);
                    continue;
                }

                _parseOffset = inbound.EnsureSpace(Math.Max(ReceiveSpace, _pendingFrameBytes - (inbound.WriteOffset - _parseOffset)), _parseOffset);
                int read = await _transport.ReceiveAsync(inbound.WriteBuffer.AsMemory(inbound.WriteOffset)).ConfigureAwait(true);
                if (read <= 0)
                {
                    Close(DisconnectReason.ConnectionLost);
                    return;
                }

                inbound.Advance(read);
                if (!ParseReceived(pipe))
                {
                    Close(DisconnectReason.ProtocolError);
                    return;
                }
            }
        }
        catch (Exception ex) when (IsConnectionError(ex))
        {
            Close(DisconnectReason.ConnectionLost);
        }
    }

    /// <summary>
    /// Walks the frames received so far, answers engine commands, and publishes every whole
    /// message to the socket. Payloads are not touched: the socket decodes them in place.
    /// </summary>
    private bool ParseReceived(Pipe pipe)
    {
        var inbound = pipe.Inbound;
        var buffer = inbound.WriteBuffer;
        int end = inbound.WriteOffset;
        int offset = _parseOffset;
        int publishAt = -1;
        int messages = 0;
        long maxMessageSize = _socket.Options.MaxMessageSize;

        while (true)
        {
            var status = ZmtpFrame.TryReadHeader(buffer.AsSpan(offset, end - offset), out var header);
            if (status == ZmtpStatus.NeedMoreData)
            {
                _pendingFrameBytes = 0;
                break;
            }

            // L10: MAXMSGSIZE is checked per frame, before the body is buffered.
            if (status == ZmtpStatus.Malformed || header.BodyLength > LargestFrame
                || (maxMessageSize >= 0 && header.BodyLength > maxMessageSize))
            {
                return false;
            }

            int frameLength = header.HeaderLength + (int)header.BodyLength;
            if (end - offset < frameLength)
            {
                _pendingFrameBytes = frameLength;
                break;
            }

            if (header.IsCommand)
            {
                if (!_inMessage)
                {
                    HandleCommand(buffer.AsSpan(offset + header.HeaderLength, (int)header.BodyLength));
                    publishAt = offset + frameLength;
                }
            }
            else if (header.More)
            {
                _inMessage = true;
            }
            else
            {
                _inMessage = false;
                messages++;
                publishAt = offset + frameLength;
            }

            offset += frameLength;
        }

        _parseOffset = offset;
        if (publishAt >= 0)
        {
            inbound.CommitAt(publishAt, messages);
            _socket.Signal.Notify();
        }

        return true;
    }

    /// <summary>
    /// Commands after the handshake (L11): PING is answered here; SUBSCRIBE and CANCEL stay in the
    /// stream for the socket; everything else is ignored without closing the connection.
    /// </summary>
    private void HandleCommand(ReadOnlySpan<byte> body)
    {
        if (!ZmtpCommandCodec.TryParse(body, out var command))
        {
            return;
        }

        if (command.Is(ZmtpCommandNames.Ping) && ZmtpHeartbeat.TryParsePing(command.Data, out _, out var context))
        {
            // RFC 37 §Connection Heartbeating: reply with PONG carrying the same context.
            _control ??= new byte[64];
            if (_control.Length - _controlLength >= 32)
            {
                _controlLength += ZmtpHeartbeat.WritePong(_control.AsSpan(_controlLength), context);
                _writerSignal.Set();
            }
        }
    }
}
