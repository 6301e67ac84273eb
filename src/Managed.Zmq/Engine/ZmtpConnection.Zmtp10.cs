using Managed.Zmq.Wire;
using Managed.Zmq.Pipes;
using Managed.Zmq.Internal;

namespace Managed.Zmq.Engine;

/// <summary>
/// A ZMTP 1.0 peer (RFC 13) after its handshake: the same pipe and queues as any connection, but every frame is
/// translated between RFC 13's framing on the wire and the ZMTP 3.x framing the queues hold. These loops replace
/// the 3.x read and write loops for such a connection (the choice is made once, in <see cref="RunAsync"/>), so
/// the 3.x loops never test for it. The socket thread's direct write leaves such a connection alone too: its
/// peer's minor version is 0.
/// </summary>
internal sealed partial class ZmtpConnection
{
    private const int Zmtp10SendBuffer = Tuning.Engine.Zmtp10SendBuffer;

    private const int Zmtp10ReceiveBuffer = Tuning.Engine.Zmtp10ReceiveBuffer;

    private const int Zmtp10DirectBody = Tuning.Engine.Zmtp10DirectBody;

    private Zmtp10Decoder? _zmtp10Decoder;
    private byte[]? _zmtp10In;
    private byte[]? _zmtp10Out;

    /// <summary>Starts translating: the peer's "subscribe to everything" if it needs one, then what the handshake read past the identity.</summary>
    private bool StartZmtp10(StreamPipe pipe, HandshakeResult result)
    {
        _zmtp10Decoder = new Zmtp10Decoder(pipe.Inbound, _host.Options.MaxMessageSize, RentFrameBuffer);
        _zmtp10In = new byte[Zmtp10ReceiveBuffer];
        _zmtp10Out = new byte[Zmtp10SendBuffer];
        if (result.SubscribesToAll)
        {
            _zmtp10Decoder.InjectSubscribeAll();
        }

        bool ok = _zmtp10Decoder.Decode(result.Leftover.Span);
        if (_zmtp10Decoder.TakePublished())
        {
            AnnounceAll();
        }

        return ok;
    }

    private async Task ReadZmtp10LoopAsync(StreamPipe pipe)
    {
        var decoder = _zmtp10Decoder!;
        var input = _zmtp10In!;
        var inbound = pipe.Inbound;
        try
        {
            while (!_closing)
            {
                if (pipe.ReceiveHwm > 0 && inbound.QueuedMessages >= pipe.ReceiveHwm && pipe.TryPauseReader())
                {
                    // RCVHWM reached: stop reading so TCP pushes back on the sender (RFC 28 §The DEALER Socket Type, its general behavior: queue sizes constrained to a configurable limit).
                    await _readerSignal.WaitAsync().ConfigureAwait(true);
                    continue;
                }

                bool direct = decoder.BodyRemaining >= Zmtp10DirectBody;
                int read = await _transport.ReceiveAsync(direct ? decoder.BodySpace : input).ConfigureAwait(true);
                if (read <= 0)
                {
                    Close(DisconnectReason.ConnectionLost);
                    return;
                }

                bool ok = true;
                if (direct)
                {
                    decoder.BodyReceived(read);
                }
                else
                {
                    ok = decoder.Decode(input.AsSpan(0, read));
                }

                if (decoder.TakePublished())
                {
                    AnnounceAll();
                }

                if (!ok)
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
        finally
        {
            decoder.Abandon();
        }
    }

    private async Task WriteZmtp10LoopAsync(StreamPipe pipe)
    {
        _skipPartialMessage = pipe.OutboundMidMessage;
        var outbound = pipe.Outbound;
        try
        {
            while (!_closing)
            {
                var batch = outbound.PeekMemory();
                if (batch.IsEmpty)
                {
                    if (!await AwaitOutboundAsync(pipe).ConfigureAwait(true))
                    {
                        return;
                    }

                    continue;
                }

                if (_skipPartialMessage)
                {
                    // A previous connection died inside a message: its tail must not go out alone (RFC 13: all frames or none).
                    int skip = SkipToMessageEnd(batch.Span, pipe);
                    _skipPartialMessage = pipe.OutboundMidMessage;
                    outbound.Consume(skip);
                    continue;
                }

                int external = ScanBatch(batch.Span, out int messages, out bool endsMidMessage);
                if (external == 0)
                {
                    await SendZmtp10ExternalFrameAsync(pipe, batch).ConfigureAwait(true);
                    continue;
                }

                if (external > 0)
                {
                    batch = batch[..external];
                }

                await SendZmtp10FramesAsync(batch).ConfigureAwait(true);
                CompleteWrite(pipe, batch.Length, messages, endsMidMessage);
            }
        }
        catch (Exception ex) when (IsConnectionError(ex))
        {
            Close(DisconnectReason.ConnectionLost);
        }
    }

    /// <summary>
    /// Sends queued frames (whole, none external) as RFC 13 frames: a SUBSCRIBE or CANCEL command becomes a
    /// 0x01/0x00-prefixed message, as libzmq's 1.0 encoder writes it (docs/libzmq-behaviour.md L12 and docs/libzmq-behaviour.md L25); any other
    /// command has no 1.0 form and is dropped.
    /// </summary>
    private async ValueTask SendZmtp10FramesAsync(ReadOnlyMemory<byte> frames)
    {
        var output = _zmtp10Out!;
        int pending = 0;
        int offset = 0;
        while (offset < frames.Length)
        {
            ZmtpFrame.TryReadHeader(frames.Span[offset..], out var header);
            var body = frames.Slice(offset + header.HeaderLength, (int)header.BodyLength);
            offset += header.HeaderLength + (int)header.BodyLength;
            bool more = header.More;
            int prefix = -1;
            if (header.IsCommand)
            {
                if (!ZmtpCommandCodec.TryParse(body.Span, out var command) || !ZmtpSubscription.TryParseCommand(command, out bool subscribe, out var topic))
                {
                    continue;
                }

                prefix = subscribe ? 1 : 0;
                body = body[(body.Length - topic.Length)..];
                more = false;
            }

            long bodyLength = body.Length + (prefix >= 0 ? 1 : 0);
            long frameLength = Zmtp10Frame.GetHeaderLength(bodyLength) + bodyLength;
            if (output.Length - pending < frameLength && pending > 0)
            {
                await _transport.SendAsync(output.AsMemory(0, pending)).ConfigureAwait(true);
                pending = 0;
            }

            pending += Zmtp10Frame.WriteHeader(output.AsSpan(pending), bodyLength, more);
            if (prefix >= 0)
            {
                output[pending++] = (byte)prefix;
            }

            if (output.Length - pending < body.Length)
            {
                // Larger than the buffer: the header goes now, the body straight from the queue.
                await _transport.SendAsync(output.AsMemory(0, pending)).ConfigureAwait(true);
                await _transport.SendAsync(body).ConfigureAwait(true);
                pending = 0;
                continue;
            }

            body.Span.CopyTo(output.AsSpan(pending));
            pending += body.Length;
        }

        if (pending > 0)
        {
            await _transport.SendAsync(output.AsMemory(0, pending)).ConfigureAwait(true);
        }
    }

    /// <summary>Sends one frame whose payload lies outside the queue: an RFC 13 header, then the payload from its own memory.</summary>
    private async ValueTask SendZmtp10ExternalFrameAsync(StreamPipe pipe, ReadOnlyMemory<byte> batch)
    {
        int queued = QueuedFrame.Read(batch.Span, out var header, out _);
        var payload = pipe.PeekPayload();
        var output = _zmtp10Out!;
        int headerLength = Zmtp10Frame.WriteHeader(output, payload.Length, header.More);
        await _transport.SendAsync(output.AsMemory(0, headerLength)).ConfigureAwait(true);
        await _transport.SendAsync(payload.Memory).ConfigureAwait(true);
        pipe.TakePayload().Release();
        CompleteExternalWrite(pipe, queued, header.More);
    }
}
