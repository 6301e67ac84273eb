using System.Buffers.Binary;
using System.Security.Cryptography;
using Managed.Zmq.Wire;

namespace Managed.Zmq.Transports.Ws;

/// <summary>Send side: the engine's ZMTP octets become WebSocket frames, masked when this is the client.</summary>
internal sealed partial class WsTransport
{
    public async ValueTask SendAsync(ReadOnlyMemory<byte> data)
    {
        if (!_upgraded)
        {
            await UpgradeAsync().ConfigureAwait(true);
        }

        // A pong or close echo on its way out goes first; the frames stay whole on the wire.
        while (_controlSend is { } pending)
        {
            await pending.ConfigureAwait(true);
            if (ReferenceEquals(_controlSend, pending))
            {
                _controlSend = null;
            }
        }

        _inSend = true;
        try
        {
            while (!data.IsEmpty)
            {
                if (_greetingLeft > 0)
                {
                    // ZWS has no greeting: the mechanism was agreed in the upgrade.
                    int skip = Math.Min(_greetingLeft, data.Length);
                    _greetingLeft -= skip;
                    data = data[skip..];
                    continue;
                }

                if (_outBodyLeft > 0)
                {
                    int n = (int)Math.Min(_outBodyLeft, data.Length);
                    if (!TryWriteBodyNow(data.Span[..n]))
                    {
                        await WriteBodyAsync(data[..n]).ConfigureAwait(true);
                    }

                    _outBodyLeft -= n;
                    data = data[n..];
                    AppendQueuedControl();
                    continue;
                }

                if (!TryTakeDataFrameHeadNow(ref data))
                {
                    data = await TakeFrameHeadAsync(data).ConfigureAwait(true);
                }
            }

            AppendQueuedControl();
            await FlushAsync().ConfigureAwait(true);
            if (_controlLength > 0)
            {
                // The send buffer had no room for them before the flush.
                AppendQueuedControl();
                await FlushAsync().ConfigureAwait(true);
            }
        }
        finally
        {
            _inSend = false;
        }

        // A ping or pong queued while the last flush was waiting on the socket must not wait for the next send.
        if (_controlLength > 0)
        {
            SendQueuedControlIfIdle();
        }
    }

    /// <summary>
    /// The common case of <see cref="TakeFrameHeadAsync"/> without its state machine: a whole ZMTP header of a
    /// message frame (or of a command too long to inspect) at the start of <paramref name="data"/>, and room for
    /// the WebSocket frame's start. False, with nothing taken, for anything else.
    /// </summary>
    private bool TryTakeDataFrameHeadNow(ref ReadOnlyMemory<byte> data)
    {
        if (_frameHeadFill != 0 || _out.Length - _outLength < WsFrame.MaxHeaderLength + 1
            || ZmtpFrame.TryReadHeader(data.Span, out var header) != ZmtpStatus.Done
            || ((header.Flags & ZmtpFrameFlags.Command) != 0 && header.BodyLength <= MaxInspectedCommandBody))
        {
            return false;
        }

        WriteBinaryStart(header.Flags, header.BodyLength);
        _outBodyLeft = header.BodyLength;
        data = data[header.HeaderLength..];
        if (_outBodyLeft == 0)
        {
            AppendQueuedControl();
        }

        return true;
    }

    /// <summary>
    /// The common case of <see cref="WriteBodyAsync"/> without its state machine: a body chunk that goes through
    /// the send buffer (not one sent directly) and fits in it. False, with nothing written, for anything else.
    /// </summary>
    private bool TryWriteBodyNow(ReadOnlySpan<byte> chunk)
    {
        if ((!_client && chunk.Length >= WsLimits.DirectSendThreshold) || chunk.Length > _out.Length - _outLength)
        {
            return false;
        }

        WriteMaskedOut(chunk);
        return true;
    }

    /// <summary>Gathers a ZMTP frame header (and a small command's body) from <paramref name="data"/>; writes the WebSocket frame's start once known.</summary>
    private async ValueTask<ReadOnlyMemory<byte>> TakeFrameHeadAsync(ReadOnlyMemory<byte> data)
    {
        // First the ZMTP header: as much of it as there is, parsed once, the octets beyond it given back.
        var status = ZmtpFrame.TryReadHeader(_frameHead.AsSpan(0, _frameHeadFill), out var header);
        if (status == ZmtpStatus.NeedMoreData)
        {
            int before = _frameHeadFill;
            int take = Math.Min(ZmtpFrame.MaxHeaderLength - before, data.Length);
            data.Span[..take].CopyTo(_frameHead.AsSpan(before));
            status = ZmtpFrame.TryReadHeader(_frameHead.AsSpan(0, before + take), out header);
            if (status == ZmtpStatus.NeedMoreData)
            {
                _frameHeadFill = before + take;
                return data[take..];
            }

            if (status == ZmtpStatus.Done)
            {
                _frameHeadFill = header.HeaderLength;
                data = data[(header.HeaderLength - before)..];
            }
        }

        if (status == ZmtpStatus.Malformed)
        {
            throw new InvalidOperationException("ws: the engine wrote a malformed ZMTP frame header");
        }

        bool command = (header.Flags & ZmtpFrameFlags.Command) != 0;
        if (command && header.BodyLength <= MaxInspectedCommandBody)
        {
            // A small command is gathered whole: PING and PONG become WebSocket control frames.
            int needed = header.HeaderLength + (int)header.BodyLength - _frameHeadFill;
            int take = Math.Min(needed, data.Length);
            data.Span[..take].CopyTo(_frameHead.AsSpan(_frameHeadFill));
            _frameHeadFill += take;
            data = data[take..];
            if (take < needed)
            {
                return data;
            }

            await EnsureRoomAsync(WsFrameLimits.MaxControlFrameLength + MaxInspectedCommandBody).ConfigureAwait(true);
            WriteSmallCommand(header);
            _frameHeadFill = 0;
            AppendQueuedControl();
            return data;
        }

        await EnsureRoomAsync(WsFrame.MaxHeaderLength + 1).ConfigureAwait(true);
        WriteBinaryStart(header.Flags, header.BodyLength);
        _frameHeadFill = 0;
        _outBodyLeft = header.BodyLength;
        if (_outBodyLeft == 0)
        {
            AppendQueuedControl();
        }

        return data;
    }

    /// <summary>Writes a gathered command: PING and PONG as WebSocket control frames, any other as a binary message.</summary>
    private void WriteSmallCommand(ZmtpFrameHeader header)
    {
        var body = _frameHead.AsSpan(header.HeaderLength, (int)header.BodyLength);
        if (_mechanism != ZmtpMechanism.Curve && ZmtpCommandCodec.TryParse(body, out var parsed) && (parsed.Is(ZmtpCommandNames.Ping) || parsed.Is(ZmtpCommandNames.Pong)))
        {
            // libzmq's ws engine heartbeats with empty pings; a pong carries the context the engine echoes.
            bool ping = parsed.Is(ZmtpCommandNames.Ping);
            WriteFrame(ping ? WsOpcode.Ping : WsOpcode.Pong, ping ? default : parsed.Data);
        }
        else
        {
            WriteBinaryStart(header.Flags, header.BodyLength);
            WriteMaskedOut(body);
        }
    }

    /// <summary>Writes a binary frame's header and its ZWS flags octet.</summary>
    private void WriteBinaryStart(ZmtpFrameFlags flags, long bodyLength)
    {
        uint key = _client ? NextMaskKey() : 0;
        _outLength += WsFrame.WriteHeader(_out.AsSpan(_outLength), WsOpcode.Binary, bodyLength + 1, _client, key);
        _outMaskKey = key;
        _outMaskOffset = 0;
        _out[_outLength] = WsFrame.ToZwsFlags(flags);
        MaskOut(_out.AsSpan(_outLength, 1));
        _outLength++;
    }

    /// <summary>Copies <paramref name="source"/> into the send buffer at its end, masking it when we are the client.</summary>
    private void WriteMaskedOut(ReadOnlySpan<byte> source)
    {
        var target = _out.AsSpan(_outLength, source.Length);
        if (_client)
        {
            WsFrame.Mask(source, target, _outMaskKey, _outMaskOffset);
            _outMaskOffset += source.Length;
        }
        else
        {
            source.CopyTo(target);
        }

        _outLength += source.Length;
    }

    private void MaskOut(Span<byte> placed)
    {
        if (_client)
        {
            WsFrame.Mask(placed, _outMaskKey, _outMaskOffset);
            _outMaskOffset += placed.Length;
        }
    }

    /// <summary>A body chunk: large unmasked chunks go straight to the socket, the rest through the send buffer.</summary>
    private async ValueTask WriteBodyAsync(ReadOnlyMemory<byte> chunk)
    {
        if (!_client && chunk.Length >= WsLimits.DirectSendThreshold)
        {
            await FlushAsync().ConfigureAwait(true);
            await _inner.SendAsync(chunk).ConfigureAwait(true);
            return;
        }

        while (!chunk.IsEmpty)
        {
            if (_outLength == _out.Length)
            {
                await FlushAsync().ConfigureAwait(true);
            }

            int n = Math.Min(chunk.Length, _out.Length - _outLength);
            WriteMaskedOut(chunk.Span[..n]);
            chunk = chunk[n..];
        }
    }

    /// <summary>Writes a whole final frame with <paramref name="payload"/> (control frames).</summary>
    private void WriteFrame(WsOpcode opcode, ReadOnlySpan<byte> payload)
    {
        uint key = _client ? NextMaskKey() : 0;
        _outLength += WsFrame.WriteHeader(_out.AsSpan(_outLength), opcode, payload.Length, _client, key);
        var target = _out.AsSpan(_outLength, payload.Length);
        payload.CopyTo(target);
        if (_client)
        {
            WsFrame.Mask(target, key, 0);
        }

        _outLength += payload.Length;
    }

    private async ValueTask EnsureRoomAsync(int octets)
    {
        if (_out.Length - _outLength < octets)
        {
            await FlushAsync().ConfigureAwait(true);
        }
    }

    private async ValueTask FlushAsync()
    {
        if (_outLength == 0)
        {
            return;
        }

        int length = _outLength;
        _outLength = 0;
        await _inner.SendAsync(_out.AsMemory(0, length)).ConfigureAwait(true);
    }

    /// <summary>A fresh masking key per frame (RFC 6455 §5.3); xorshift from a random seed, as libzmq uses its own generator.</summary>
    private uint NextMaskKey()
    {
        uint x = _maskState;
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        _maskState = x;
        return x;
    }
}
