using System.Buffers.Binary;
using System.Security.Cryptography;
using Managed.Zmq.Wire;

namespace Managed.Zmq.Transports.Ws;

/// <summary>
/// ZWS 2.0 (RFC 45) under the ZMTP engine: an <see cref="IByteTransport"/> over a TCP one that
/// performs the WebSocket upgrade (RFC 6455 §4), then translates ZMTP frames to WebSocket binary
/// messages and back, so the engine runs unchanged and the tcp path is untouched.
/// </summary>
/// <remarks>
/// <para>ZWS has no ZMTP greeting: the mechanism is chosen by Sec-WebSocket-Protocol. The engine's
/// outgoing greeting is dropped and a greeting naming the agreed mechanism is handed to it. That
/// greeting says ZMTP 3.0, so the engine sends subscriptions as 0x01/0x00 messages, as RFC 45
/// §Publish-Subscribe asks. Under CURVE too: libzmq's ws engine does not read SUBSCRIBE/CANCEL
/// commands (its own SUB sends them inside CURVE MESSAGEs, which we accept), but takes the
/// message form (docs/libzmq-behaviour.md L22).</para>
/// <para>Heartbeats use WebSocket ping and pong, as libzmq's ws engine does: the engine's PING
/// command goes out as a ping frame, a pong comes back to the engine as a PONG command, and a
/// peer's ping is answered here with a pong. A close frame is echoed and ends the stream.</para>
/// <para>Each ZMTP frame is one unfragmented message; libzmq refuses fragments (a FIN-less frame),
/// and so do we. Everything runs on the connection's I/O thread, like the engine's two loops.</para>
/// </remarks>
internal sealed class WsTransport : IByteTransport
{
    /// <summary>Room for the synthesized greeting, a ZMTP frame header or a PONG command.</summary>
    private const int SynthesizedCapacity = 128;

    /// <summary>A command frame up to this body length is gathered whole, so PING and PONG can be told apart.</summary>
    private const int MaxInspectedCommandBody = 64;

    private readonly IByteTransport _inner;
    private readonly bool _client;
    private readonly ZmtpMechanism _mechanism;
    private readonly string _protocol;
    private readonly string _host;
    private readonly string _path;

    private bool _upgraded;

    // Receive side: raw socket octets, then ZMTP octets made from them.
    private readonly byte[] _in = new byte[WsLimits.ReceiveBufferSize];
    private int _inStart;
    private int _inEnd;
    private readonly byte[] _synth = new byte[SynthesizedCapacity];
    private int _synthStart;
    private int _synthEnd;
    private long _inBodyLeft;
    private bool _inMasked;
    private uint _inMaskKey;
    private long _inMaskOffset;
    private bool _peerClosed;

    // Send side: the engine's ZMTP octets, then WebSocket frames made from them.
    private int _greetingLeft = ZmtpGreeting.Length;
    private readonly byte[] _out = new byte[WsLimits.SendBufferSize];
    private int _outLength;
    private readonly byte[] _frameHead = new byte[ZmtpFrame.MaxHeaderLength + MaxInspectedCommandBody];
    private int _frameHeadFill;
    private long _outBodyLeft;
    private uint _outMaskKey;
    private long _outMaskOffset;
    private bool _inSend;
    private uint _maskState;

    // Control frames (pong, close echo) from the receive side, sent between data frames.
    private readonly byte[] _control = new byte[WsLimits.MaxQueuedControlOctets];
    private int _controlLength;
    private Task? _controlSend;

    private WsTransport(IByteTransport inner, bool client, ZmtpMechanism mechanism, string host, string path)
    {
        _inner = inner;
        _client = client;
        _mechanism = mechanism;
        _protocol = WsProtocols.For(mechanism);
        _host = host;
        _path = path;
        _maskState = (uint)RandomNumberGenerator.GetInt32(1, int.MaxValue);
    }

    /// <summary>The connecting side: sends the upgrade request for <paramref name="host"/> and <paramref name="path"/>, masks its frames.</summary>
    public static WsTransport ForClient(IByteTransport inner, ZmtpMechanism mechanism, string host, string path) =>
        new(inner, client: true, mechanism, host, path);

    /// <summary>The accepting side: answers the upgrade request, expects masked frames.</summary>
    public static WsTransport ForServer(IByteTransport inner, ZmtpMechanism mechanism) =>
        new(inner, client: false, mechanism, string.Empty, string.Empty);

    public string PeerAddress => _inner.PeerAddress;

    public string LocalEndpoint => AsWs(_inner.LocalEndpoint);

    public string RemoteEndpoint => AsWs(_inner.RemoteEndpoint);

    public int Handle => _inner.Handle;

    private static string AsWs(string endpoint) =>
        endpoint.StartsWith("tcp://", StringComparison.Ordinal) ? "ws://" + endpoint["tcp://".Length..] : endpoint;

    public void Dispose() => _inner.Dispose();

    private static TransportProtocolException ProtocolError(string what) =>
        new(ZmqConstants.ZMQ_PROTOCOL_ERROR_WS_UNSPECIFIED, "ws: " + what);

    // ---------------------------------------------------------------- upgrade

    private async ValueTask UpgradeAsync()
    {
        _upgraded = true;
        if (_client)
        {
            string key = WsUpgrade.CreateKey();
            await _inner.SendAsync(WsUpgrade.BuildRequest(_host, _path, key, _protocol)).ConfigureAwait(true);
            int head = await ReadHeadAsync().ConfigureAwait(true);
            if (!WsUpgrade.TryAcceptResponse(_in.AsSpan(0, head), key, _protocol))
            {
                throw ProtocolError("the upgrade response was refused");
            }

            _inStart = head;
        }
        else
        {
            int head = await ReadHeadAsync().ConfigureAwait(true);
            if (!WsUpgrade.TryAcceptRequest(_in.AsSpan(0, head), _protocol, out string key))
            {
                // libzmq answers nothing and closes.
                throw ProtocolError("the upgrade request was refused");
            }

            _inStart = head;
            await _inner.SendAsync(WsUpgrade.BuildResponse(WsUpgrade.ComputeAccept(key), _protocol)).ConfigureAwait(true);
        }

        // The greeting the engine would have had from a ZMTP peer of this mechanism (see remarks).
        ZmtpGreeting.Write(_synth, _mechanism, asServer: false);
        _synth[ZmtpGreeting.VersionPrefixLength] = 0;

        _synthStart = 0;
        _synthEnd = ZmtpGreeting.Length;
    }

    /// <summary>Reads until the HTTP head is complete; returns its length. Octets after it stay in the buffer.</summary>
    private async ValueTask<int> ReadHeadAsync()
    {
        while (true)
        {
            int end = WsUpgrade.FindHeadEnd(_in.AsSpan(0, _inEnd));
            if (end >= 0)
            {
                return end;
            }

            if (_inEnd >= WsLimits.MaxHttpHeadLength)
            {
                throw ProtocolError("the upgrade head is too long");
            }

            int read = await _inner.ReceiveAsync(_in.AsMemory(_inEnd, WsLimits.MaxHttpHeadLength - _inEnd)).ConfigureAwait(true);
            if (read == 0)
            {
                throw new IOException("ws: the peer closed during the upgrade");
            }

            _inEnd += read;
        }
    }

    // ---------------------------------------------------------------- receive

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

            if (_inBodyLeft > 0 && _inStart == _inEnd)
            {
                // A body with nothing buffered: read straight into the engine's buffer, never past the body's end.
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
                var target = destination.Slice(written, n);
                _in.AsSpan(_inStart, n).CopyTo(target);
                _inStart += n;
                TakeBody(target);
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
                // RFC 6455 §5.5.3: the pong echoes the ping's data.
                QueueControl(WsOpcode.Pong, payload);
                break;
            case WsOpcode.Pong:
                // The answer to the engine's PING. Under CURVE every command the engine reads must be
                // encrypted, so there the pong only counts as traffic on the wire (libzmq's ws engine
                // answers CURVE heartbeats the same unencrypted way).
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

    // ---------------------------------------------------------------- send

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
                    await WriteBodyAsync(data[..n]).ConfigureAwait(true);
                    _outBodyLeft -= n;
                    data = data[n..];
                    AppendQueuedControl();
                    continue;
                }

                data = await TakeFrameHeadAsync(data).ConfigureAwait(true);
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
    }

    /// <summary>Gathers a ZMTP frame header (and a small command's body) from <paramref name="data"/>; writes the WebSocket frame's start once known.</summary>
    private async ValueTask<ReadOnlyMemory<byte>> TakeFrameHeadAsync(ReadOnlyMemory<byte> data)
    {
        // First the ZMTP header.
        var status = ZmtpFrame.TryReadHeader(_frameHead.AsSpan(0, _frameHeadFill), out var header);
        while (status == ZmtpStatus.NeedMoreData)
        {
            if (data.IsEmpty)
            {
                return data;
            }

            _frameHead[_frameHeadFill++] = data.Span[0];
            data = data[1..];
            status = ZmtpFrame.TryReadHeader(_frameHead.AsSpan(0, _frameHeadFill), out header);
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
        source.CopyTo(target);
        MaskOut(target);
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

    // ---------------------------------------------------------------- control frames from the receive side

    /// <summary>Queues a pong or close for the wire; sends it now when no data frame is half written.</summary>
    private void QueueControl(WsOpcode opcode, ReadOnlySpan<byte> payload)
    {
        int length = WsFrame.GetHeaderLength(payload.Length, _client) + payload.Length;
        if (_control.Length - _controlLength < length)
        {
            // A flood of pings: RFC 6455 §5.5.3 allows answering only the latest.
            return;
        }

        uint key = _client ? NextMaskKey() : 0;
        int written = WsFrame.WriteHeader(_control.AsSpan(_controlLength), opcode, payload.Length, _client, key);
        var target = _control.AsSpan(_controlLength + written, payload.Length);
        payload.CopyTo(target);
        if (_client)
        {
            WsFrame.Mask(target, key, 0);
        }

        _controlLength += written + payload.Length;
        if (_controlSend is { IsCompleted: true } done)
        {
            // Its failure, if any, also ends the receive side; nothing more to learn from it.
            _ = done.Exception;
            _controlSend = null;
        }

        if (!_inSend && _controlSend is null && _frameHeadFill == 0 && _outBodyLeft == 0 && _upgraded)
        {
            _controlSend = SendControlAsync();
        }
    }

    private async Task SendControlAsync()
    {
        while (_controlLength > 0 && !_inSend)
        {
            byte[] frames = _control.AsSpan(0, _controlLength).ToArray();
            _controlLength = 0;
            await _inner.SendAsync(frames).ConfigureAwait(true);
        }
    }

    /// <summary>At a frame boundary inside a send: moves queued control frames into the send buffer.</summary>
    private void AppendQueuedControl()
    {
        // Never inside a data frame: a control frame may only come between frames (RFC 6455 §5.4).
        if (_controlLength == 0 || _frameHeadFill != 0 || _outBodyLeft != 0 || _out.Length - _outLength < _controlLength)
        {
            return;
        }

        _control.AsSpan(0, _controlLength).CopyTo(_out.AsSpan(_outLength));
        _outLength += _controlLength;
        _controlLength = 0;
    }
}
