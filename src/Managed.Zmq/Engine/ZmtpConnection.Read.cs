using System.Runtime.CompilerServices;
using Managed.Zmq.Wire;
using Managed.Zmq.Pipes;
using Managed.Zmq.Internal;
using Managed.Zmq.Transports;

namespace Managed.Zmq.Engine;

internal sealed partial class ZmtpConnection
{
    private const int MinReceiveSpace = Tuning.Engine.MinReceiveSpace;

    private const int MaxReceiveSpace = Tuning.Engine.MaxReceiveSpace;

    /// <summary>
    /// Free space asked for before the next receive. It doubles while receives come back full (the kernel held
    /// more than we asked for: a stream is running ahead of us) and halves while they come back mostly empty, so
    /// a busy stream is read in large batches and an idle or request-reply connection keeps a small buffer.
    /// </summary>
    private int _receiveSpace = MinReceiveSpace;

    /// <summary>Frames larger than this cannot be held in one array and end the connection.</summary>
    internal const long LargestFrame = int.MaxValue - 1024;

    /// <summary>Start, in the inbound write buffer, of the first frame not yet parsed.</summary>
    private int _parseOffset;

    /// <summary>True while the frames parsed so far end inside a multipart message.</summary>
    private bool _inMessage;

    /// <summary>A DISH's connection: every message must be a group frame then a body frame (<see cref="IsGroupFramed"/>).</summary>
    private bool _expectsGroupFrames;

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

        if (_cipher is not null)
        {
            EnsureCipherSpace(leftover.Length);
            leftover.CopyTo(_cipherIn.AsSpan(_cipherEnd));
            _cipherEnd += leftover.Length;
            return DecryptAndParse(_pipe);
        }

        StorePlainLeftover(inbound, leftover);
        return ParseReceived(_pipe);
    }

    /// <summary>Puts <paramref name="leftover"/> into the queue where a receive would have put it, unparsed.</summary>
    private void StorePlainLeftover(FrameQueue inbound, ReadOnlySpan<byte> leftover)
    {
        _parseOffset = inbound.EnsureSpace(leftover.Length, _parseOffset);
        leftover.CopyTo(inbound.WriteBuffer.AsSpan(inbound.WriteOffset));
        inbound.Advance(leftover.Length);
    }

    private async Task ReadLoopAsync(StreamPipe pipe)
    {
        var inbound = pipe.Inbound;
        try
        {
            while (!_closing)
            {
                if (pipe.ReceiveHwm > 0 && inbound.QueuedMessages >= pipe.ReceiveHwm && pipe.TryPauseReader())
                {
                    // RCVHWM reached: stop reading so TCP pushes back on the sender (RFC 28 §The DEALER Socket Type, its general behavior: queue sizes constrained to a configurable limit).
                    AnnouncePublished();
                    await _readerSignal.WaitAsync().ConfigureAwait(true);
                    continue;
                }

                if (_cipher is not null)
                {
                    if (!await ReadEncryptedAsync(pipe).ConfigureAwait(true))
                    {
                        return;
                    }

                    continue;
                }

                if (IsDirectFrameWaiting(pipe, out var largeFrame))
                {
                    if (!await ReceiveDirectFrameAsync(pipe, largeFrame).ConfigureAwait(true))
                    {
                        return;
                    }

                    continue;
                }

                long discard = 0;
                // largeFrame is the header IsDirectFrameWaiting read: a complete large frame's, else default.
                var largeCommand = largeFrame.IsCommand ? ExamineLargeCommand(pipe, largeFrame, out discard) : LargeCommand.None;
                if (largeCommand == LargeCommand.Discard)
                {
                    if (!await DiscardCommandAsync(pipe, discard).ConfigureAwait(true))
                    {
                        return;
                    }

                    continue;
                }

                // Large frames tend to come in streams: a full-size read right after one would take most of
                // the next one's body into the queue, only to copy it into that frame's own buffer.
                // A frame too big for a grown receive (only when MAXMSGSIZE lets one through) asks for what it
                // still lacks: a grown request on top would copy the whole partial frame into a new segment.
                // A large command not yet known to be kept gets no room for its whole body.
                // The flag stays set while the receive is pending: a borrower reads short too (ZmtpConnection.DirectRead.cs).
                bool shortened = _followsLargeFrame;
                int wanted = shortened ? ReadAfterLargeFrame : _pendingFrameBytes > MaxReceiveSpace ? MinReceiveSpace : _receiveSpace;
                int lacking = largeCommand == LargeCommand.NeedPrefix ? 0 : _pendingFrameBytes - (inbound.WriteOffset - _parseOffset);
                _parseOffset = inbound.EnsureSpace(Math.Max(wanted, lacking), _parseOffset);
                var space = inbound.WriteBuffer.AsMemory(inbound.WriteOffset);
                if (shortened)
                {
                    space = space[..Math.Min(space.Length, ReadAfterLargeFrame)];
                }

                // A plain receive may be served by the socket's thread meanwhile (ZmtpConnection.DirectRead.cs), the short
                // one after a large frame too: a large reply's successor may be one as well, and the borrower reads it whole.
                bool lendable = largeCommand == LargeCommand.None && !_expectsGroupFrames;
                int read = await ReceiveOrAnnounceAsync(space, lendable).ConfigureAwait(true);
                if (!TakePlainReceive(pipe, read, shortened ? 0 : space.Length))
                {
                    return;
                }
            }
        }
        catch (TransportProtocolException)
        {
            // The transport's own framing broke (ws://): libzmq's engine takes that as a protocol error, so the session
            // ends without a reconnect, as for a bad ZMTP frame (docs/libzmq-behaviour.md L15).
            Close(DisconnectReason.ProtocolError);
        }
        catch (Exception ex) when (IsConnectionError(ex))
        {
            Close(LostAfterHandBack(pipe));
        }
        finally
        {
            // Whatever ends the loop, an engine bug included, messages already published must reach the receiver.
            AnnouncePublished();
            ReleaseLentLargeFrame();
        }
    }

    /// <summary>
    /// Read loop: a plain receive into the queue completed with <paramref name="read"/> (its bytes, a hand-back, or the
    /// end): parses what came. <paramref name="asked"/> is the space it asked for, to adapt the next one to; 0 when it
    /// was short on purpose (after a large frame) and says nothing of how busy the stream is. False once the connection
    /// is closed.
    /// </summary>
    private bool TakePlainReceive(StreamPipe pipe, int read, int asked)
    {
        if (TookHandBackOrEnd(pipe, read, out bool goOn))
        {
            return goOn;
        }

        // A borrower that read a large frame meanwhile left this receive a short buffer (LendingSpace): no sign of
        // how busy the stream is either.
        bool afterLargeFrame = asked == 0 || _followsLargeFrame;
        pipe.Inbound.Advance(read);
        _followsLargeFrame = false;
        if (!afterLargeFrame)
        {
            AdaptReceiveSpace(read, asked);
        }

        OnTrafficReceived();

        // A hand-back leaves the turn busy, so the reactor does not serve a receive before the loop takes it
        // (ReactorSocketTransport.ReturnLent); were one served first all the same, its bytes would follow the
        // handed-back ones in the queue, and one parse takes both in order.
        if (_handBackPending ? !TakeHandBack(pipe) : !ParseReceived(pipe))
        {
            Close(DisconnectReason.ProtocolError);
            return false;
        }

        return true;
    }

    /// <summary>
    /// Read loop: true when a receive completed with no bytes to take, and then took what it brought instead: a borrower's
    /// hand-back (parsed; <paramref name="goOn"/> false and the connection closed on a protocol error in it) or the end of
    /// the stream (closed; <paramref name="goOn"/> false). False when <paramref name="read"/> is a count of bytes received.
    /// </summary>
    private bool TookHandBackOrEnd(StreamPipe pipe, int read, out bool goOn)
    {
        goOn = true;
        if (read == IByteTransport.HandedBack)
        {
            if (!TakeHandBack(pipe))
            {
                goOn = false;
                Close(DisconnectReason.ProtocolError);
            }

            return true;
        }

        if (read <= 0)
        {
            goOn = false;
            Close(LostAfterHandBack(pipe));
            return true;
        }

        return false;
    }

    /// <summary>Grows or shrinks <see cref="_receiveSpace"/> from how much of the <paramref name="asked"/> bytes a receive got.</summary>
    private void AdaptReceiveSpace(int read, int asked)
    {
        if (read == asked)
        {
            _receiveSpace = Math.Min(_receiveSpace * 2, MaxReceiveSpace);
        }
        else if (read < _receiveSpace / 4)
        {
            _receiveSpace = Math.Max(_receiveSpace / 2, MinReceiveSpace);
        }
    }

    /// <summary>
    /// Walks the frames received so far, answers engine commands, and publishes every whole
    /// message to the socket. Payloads are not touched: the socket decodes them in place.
    /// </summary>
    /// <remarks>
    /// Only a publisher's SUBSCRIBE and CANCEL between messages stay in the queue, each counted as one
    /// message so that RCVHWM stops the reads as libzmq's pipe does (docs/libzmq-behaviour.md L11). Every other command is taken
    /// out of the stream here, wherever it comes: libzmq sends PING when its timer fires, between the
    /// frames of a message too, and a command must neither split a message nor reach the application
    /// (RFC 37 §Connection Heartbeating), nor take queue space the application never frees.
    /// </remarks>
    private bool ParseReceived(StreamPipe pipe)
    {
        var inbound = pipe.Inbound;
        var buffer = inbound.WriteBuffer;
        int end = inbound.WriteOffset;
        int offset = _parseOffset;
        int publishAt = -1;
        int messages = 0;
        long maxMessageSize = _host.Options.MaxMessageSize;

        // Octets of commands dropped so far in this pass: every later frame moves down by as many.
        int dropped = 0;

        while (true)
        {
            var status = ZmtpFrame.TryReadHeader(buffer.AsSpan(offset, end - offset), out var header);
            if (status == ZmtpStatus.NeedMoreData)
            {
                _pendingFrameBytes = 0;
                break;
            }

            // docs/libzmq-behaviour.md L10: MAXMSGSIZE is checked per frame, commands included, before the body is buffered.
            if (status == ZmtpStatus.Malformed || header.BodyLength > LargestFrame
                || (maxMessageSize >= 0 && header.BodyLength > maxMessageSize))
            {
                // The whole messages before the bad frame are delivered, as libzmq delivers them (docs/libzmq-behaviour.md L15).
                Publish(inbound, publishAt, messages);
                return false;
            }

            int frameLength = header.HeaderLength + (int)header.BodyLength;
            if (end - offset < frameLength)
            {
                _pendingFrameBytes = frameLength;
                break;
            }

            if (header.IsCommand && !HandleCommand(buffer.AsSpan(offset + header.HeaderLength, (int)header.BodyLength)))
            {
                dropped += frameLength;
                offset += frameLength;
                continue;
            }

            if (dropped != 0)
            {
                buffer.AsSpan(offset, frameLength).CopyTo(buffer.AsSpan(offset - dropped));
            }

            // The frame stays in the queue as it came, but its reserved flag bits (RFC 23) were the
            // peer's to set and are ours to ignore: the queue marks frames held by reference with one.
            buffer[offset - dropped] &= (byte)ZmtpFrame.DefinedFlags;

            if (_expectsGroupFrames && !header.IsCommand && !IsGroupFramed(header))
            {
                // A DISH takes only a group frame (MORE, at most 255 bytes) then one body frame: libzmq's DISH ends
                // the connection on anything else.
                Publish(inbound, publishAt, messages);
                return false;
            }

            if (header.IsCommand)
            {
                messages++;
                publishAt = offset + frameLength - dropped;
            }
            else if (header.More)
            {
                _inMessage = true;
            }
            else
            {
                _inMessage = false;
                messages++;
                publishAt = offset + frameLength - dropped;
            }

            offset += frameLength;
        }

        if (dropped != 0)
        {
            // The partial frame at the end, if any, moves down with the rest.
            buffer.AsSpan(offset, end - offset).CopyTo(buffer.AsSpan(offset - dropped));
            offset -= dropped;
            inbound.Truncate(end - dropped);
        }

        _parseOffset = offset;
        Publish(inbound, publishAt, messages);
        return true;
    }

    /// <summary>Publishes the <paramref name="messages"/> whole messages that end at <paramref name="publishAt"/> (none when it is negative).</summary>
    private void Publish(FrameQueue inbound, int publishAt, int messages)
    {
        if (publishAt >= 0)
        {
            _receivesLargeFrames = false;
            inbound.CommitAt(publishAt, messages);
            if (_heldLargeBytes > 0)
            {
                // Large CURVE messages: told as large clear frames are.
                AnnounceLarge(_heldLargeBytes);
                _heldLargeBytes = 0;
            }
            else
            {
                AnnounceAll();
            }
        }
    }

    /// <summary>
    /// A command after the handshake (docs/libzmq-behaviour.md L11): PING is answered, and true is returned only for what must
    /// stay in the queue, a SUBSCRIBE or CANCEL to a publisher between messages. PONG only counted as
    /// traffic; everything else (unknown or malformed commands, READY or ERROR again) is dropped without
    /// closing the connection, as libzmq drops it.
    /// </summary>
    /// <remarks>
    /// A subscription between the frames of a message breaks RFC 23's grammar (commands come between
    /// messages) and no libzmq sends one (only its PINGs interrupt a message); it is dropped rather than
    /// let it reach the publisher's socket as a frame of that message.
    /// </remarks>
    private bool HandleCommand(ReadOnlySpan<byte> body)
    {
        if (!ZmtpCommandCodec.TryParse(body, out var command))
        {
            return false;
        }

        if (command.Is(ZmtpCommandNames.Ping))
        {
            if (ZmtpHeartbeat.TryParsePing(command.Data, out ushort ttl, out var context))
            {
                OnPing(ttl, context);
            }

            return false;
        }

        if (_inMessage)
        {
            return false;
        }

        if (_host.SocketType == SocketType.Radio)
        {
            // A DISH's JOIN and LEAVE stay in the queue for the RADIO (RFC 37 §The Radio-Dish Pattern). A group longer
            // than any message can carry would match nothing; libzmq aborts on one, we drop it.
            return ZmtpGroupCommand.TryParse(command, out _, out var group) && group.Length <= Tuning.RadioDish.MaxGroupLength;
        }

        return _host.AcceptsSubscriptions && ZmtpSubscription.TryParseCommand(command, out _, out _);
    }

    /// <summary>
    /// DISH: true when <paramref name="header"/> fits the two-frame form of a RADIO message (libzmq 4.3's
    /// dish_session): first a group of at most 255 bytes with MORE, then a body without it.
    /// </summary>
    private bool IsGroupFramed(in ZmtpFrameHeader header) =>
        _inMessage ? !header.More : header.More && header.BodyLength <= Tuning.RadioDish.MaxGroupLength;
}
