using System.Buffers.Binary;
using System.Security.Cryptography;
using Managed.Zmq.Wire;

namespace Managed.Zmq.Transports.Ws;

/// <summary>Receive side: WebSocket frames from the socket become the ZMTP octets the engine reads.</summary>
internal sealed partial class WsTransport
{
    public async ValueTask<int> ReceiveAsync(Memory<byte> buffer)
    {
        if (!_upgraded)
        {
            await UpgradeAsync().ConfigureAwait(true);
        }

        while (true)
        {
            int produced = Produce(buffer.Span);
            if (produced > 0)
            {
                return produced;
            }

            if (_peerClosed)
            {
                return 0;
            }

            if (_inBodyLeft >= WsLimits.DirectReceiveThreshold && _inStart == _inEnd)
            {
                // A long body with nothing buffered: read straight into the engine's buffer, never past the body's
                // end. A short rest goes through our buffer with what follows it, in the same read.
                int want = (int)Math.Min(_inBodyLeft, buffer.Length);
                int direct = await _inner.ReceiveAsync(buffer[..want]).ConfigureAwait(true);
                if (direct == 0)
                {
                    return 0;
                }

                TakeBody(buffer.Span[..direct]);
                return direct;
            }

            if (_inStart > 0)
            {
                // Keep the partial frame header at the front, so the buffer always has room.
                _in.AsSpan(_inStart, _inEnd - _inStart).CopyTo(_in);
                _inEnd -= _inStart;
                _inStart = 0;
            }

            int read = await _inner.ReceiveAsync(_in.AsMemory(_inEnd)).ConfigureAwait(true);
            if (read == 0)
            {
                return 0;
            }

            _inEnd += read;
            if (_inEnd == _in.Length && _in.Length < WsLimits.MaxReceiveBufferSize)
            {
                // A full read: a busy stream. Keep what is buffered, in a buffer twice as long.
                byte[] larger = new byte[Math.Min(_in.Length * 2, WsLimits.MaxReceiveBufferSize)];
                _in.AsSpan(0, _inEnd).CopyTo(larger);
                _in = larger;
            }
        }
    }

    /// <summary>Unmasks body octets just placed in the engine's buffer and counts them off.</summary>
    private void TakeBody(Span<byte> body)
    {
        if (_inMasked)
        {
            WsFrame.Mask(body, _inMaskKey, _inMaskOffset);
            _inMaskOffset += body.Length;
        }

        _inBodyLeft -= body.Length;
    }

    /// <summary>Copies body octets from our buffer into the engine's, unmasking them on the way, and counts them off.</summary>
    private void CopyBody(ReadOnlySpan<byte> source, Span<byte> target)
    {
        if (_inMasked)
        {
            WsFrame.Mask(source, target, _inMaskKey, _inMaskOffset);
            _inMaskOffset += source.Length;
        }
        else
        {
            source.CopyTo(target);
        }

        _inBodyLeft -= source.Length;
    }

    /// <summary>Fills <paramref name="destination"/> with ZMTP octets from what is buffered; 0 when more input is needed.</summary>
    private int Produce(Span<byte> destination)
    {
        int written = 0;
        while (written < destination.Length)
        {
            if (_synthStart < _synthEnd)
            {
                int n = Math.Min(_synthEnd - _synthStart, destination.Length - written);
                _synth.AsSpan(_synthStart, n).CopyTo(destination[written..]);
                _synthStart += n;
                written += n;
                continue;
            }

            int available = _inEnd - _inStart;
            if (_inBodyLeft > 0)
            {
                if (available == 0)
                {
                    break;
                }

                int n = (int)Math.Min(Math.Min(_inBodyLeft, available), destination.Length - written);
                CopyBody(_in.AsSpan(_inStart, n), destination.Slice(written, n));
                _inStart += n;
                written += n;
                continue;
            }

            if (_peerClosed || !TryTakeFrame())
            {
                break;
            }
        }

        return written;
    }

    /// <summary>Decodes the next WebSocket frame's header (and a control frame's payload); false when more input is needed.</summary>
    private bool TryTakeFrame()
    {
        var source = _in.AsSpan(_inStart, _inEnd - _inStart);
        var status = WsFrame.TryReadHeader(source, out var header);
        if (status == ZmtpStatus.NeedMoreData)
        {
            return false;
        }

        if (status == ZmtpStatus.Malformed)
        {
            throw ProtocolError("malformed frame header");
        }

        // RFC 6455 §5.1: a client masks every frame, a server none; libzmq drops a connection that does otherwise.
        if (header.Masked == _client)
        {
            throw ProtocolError("wrong masking");
        }

        switch (header.Opcode)
        {
            case WsOpcode.Binary:
                // libzmq supports neither fragmented nor empty messages: ZWS needs at least the flags octet.
                if (!header.Final || header.PayloadLength == 0)
                {
                    throw ProtocolError(header.Final ? "empty message" : "fragmented message");
                }

                if (source.Length < header.HeaderLength + 1)
                {
                    return false;
                }

                byte flags = source[header.HeaderLength];
                if (header.Masked)
                {
                    flags ^= (byte)header.MaskKey;
                }

                _inStart += header.HeaderLength + 1;
                _inBodyLeft = header.PayloadLength - 1;
                _inMasked = header.Masked;
                _inMaskKey = header.MaskKey;
                _inMaskOffset = 1;
                _synthStart = 0;
                _synthEnd = ZmtpFrame.WriteHeader(_synth, _inBodyLeft, WsFrame.FromZwsFlags(flags));
                return true;

            case WsOpcode.Ping or WsOpcode.Pong or WsOpcode.Close:
                int total = header.HeaderLength + (int)header.PayloadLength;
                if (source.Length < total)
                {
                    return false;
                }

                var payload = source.Slice(header.HeaderLength, (int)header.PayloadLength);
                if (header.Masked)
                {
                    WsFrame.Mask(payload, header.MaskKey, 0);
                }

                _inStart += total;
                OnControl(header.Opcode, payload);
                return true;

            default:
                // Text and continuation frames have no place in ZWS 2.0; libzmq refuses them too.
                throw ProtocolError("unexpected opcode");
        }
    }

    private void OnControl(WsOpcode opcode, ReadOnlySpan<byte> payload)
    {
        switch (opcode)
        {
            case WsOpcode.Ping:
                // RFC 6455 §5.5.3: the pong echoes the ping's data. Like any frame, a sign of life (libzmq counts it so).
                _keepAlivesReceived++;
                QueueControl(WsOpcode.Pong, payload);
                break;
            case WsOpcode.Pong:
                // The answer to a ping. Under CURVE every command the engine reads must be encrypted, so
                // there the pong reaches the engine only as a keep-alive it counts (libzmq's ws engine
                // heartbeats the same unencrypted way under every mechanism).
                _keepAlivesReceived++;
                if (_mechanism != ZmtpMechanism.Curve)
                {
                    _synthStart = 0;
                    _synthEnd = ZmtpHeartbeat.WritePong(_synth, default);
                }

                break;
            default:
                // RFC 6455 §5.5.1: answer a close with a close (its status code echoed), then the stream ends.
                QueueControl(WsOpcode.Close, payload.Length >= 2 ? payload[..2] : default);
                _peerClosed = true;
                break;
        }
    }
}
