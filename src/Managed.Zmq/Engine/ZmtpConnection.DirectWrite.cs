using System.Diagnostics;
using System.Numerics;
using System.Runtime.CompilerServices;
using Managed.Zmq.Wire;
using Managed.Zmq.Buffers;
using Managed.Zmq.Internal;
using Managed.Zmq.Pipes;

namespace Managed.Zmq.Engine;

/// <summary>The direct write: the user thread sends a reply itself when the write loop is parked (see docs/ARCHITECTURE.md, the write turn).</summary>
internal sealed partial class ZmtpConnection
{
    /// <summary>Bytes at the head of the queue that a direct write already sent (see <see cref="TryWriteDirect"/>).</summary>
    private int _directSentPrefix;

    /// <summary>Bytes of the large frame at the head of the queue (header and body) that a direct write already sent.</summary>
    private int _directSentExternal;

    /// <summary>CURVE: where a direct write encrypts the reply (the write loop's own buffer may hold a batch it is still sending).</summary>
    private byte[]? _cipherDirect;

    /// <summary>CURVE: the buffer holding the ciphertext a direct write could not send at once.</summary>
    private byte[]? _cipherTail;

    /// <summary>CURVE: where in <see cref="_cipherTail"/> that ciphertext begins.</summary>
    private int _cipherTailOffset;

    /// <summary>CURVE: bytes of a direct write's ciphertext still to send; the write loop sends them first.</summary>
    private int _cipherTailLength;

    /// <summary>Largest queue a direct write takes on; more is the write loop's (a reply is usually small).</summary>
    private const int DirectWriteLimit = Tuning.Engine.DirectWriteLimit;

    /// <summary>
    /// Runs on the socket's user thread while the pipe's writer state is direct: the write loop is
    /// parked and touches neither the queue's read side nor the OS socket's send side until the
    /// state moves on. Writes the committed messages with one non-blocking system call, which saves
    /// the wake-up of the I/O thread a reply would otherwise wait for; with CURVE it encrypts them first
    /// (<see cref="TryWriteDirectEncrypted"/>). A large frame (and the small frames before it) goes as the write loop
    /// sends it (<see cref="TryWriteDirectExternal"/>), not under CURVE. Anything unusual (a peer of minor version 0:
    /// ZMTP 3.0 and 2.0 need their subscriptions converted, 1.0 every frame; a pending command, zero-copy callbacks
    /// waiting in the overflow list, a full kernel buffer) is left to the write loop.
    /// </summary>
    public bool TryWriteDirect(StreamPipe pipe)
    {
        if (_closing || _raw || !ReferenceEquals(Volatile.Read(ref _pipe), pipe) || _controlLength != 0 || _cipherTailLength != 0
            || _skipPartialMessage || pipe.OutboundMidMessage || pipe.PeerMinorVersion == 0 || DeferredReleases.HasPending)
        {
            return false;
        }

        var outbound = pipe.Outbound;
        var batch = outbound.Peek();
        if (batch.IsEmpty)
        {
            return true;
        }

        if (batch.Length > DirectWriteLimit)
        {
            return false;
        }

        int external = ScanBatch(batch, out _, out _);
        if (external >= 0)
        {
            // Not under CURVE. Small frames before the large one (an envelope: REQ's delimiter, ROUTER's identity) go
            // in the large frame's headroom with its header where they fit, else first, as the write loop sends them.
            if (_cipher is not null)
            {
                return false;
            }

            if (external > 0 && !FitsInHeadroom(pipe, batch[..external]))
            {
                return TryWriteDirectFrames(pipe, batch[..external]) && TryWriteDirectExternal(pipe, batch[external..], 0);
            }

            return TryWriteDirectExternal(pipe, batch, external);
        }

        if (_cipher is not null)
        {
            return TryWriteDirectEncrypted(pipe, batch);
        }

        return TryWriteDirectFrames(pipe, batch);
    }

    /// <summary>
    /// Sends <paramref name="batch"/>, whole frames from the head of the queue, with one non-blocking system call and
    /// consumes them; true when all went out.
    /// </summary>
    private bool TryWriteDirectFrames(StreamPipe pipe, ReadOnlySpan<byte> batch)
    {
        int sent = _transport.TrySendNow(batch);
        if (sent < batch.Length)
        {
            KeepUnsent(pipe, batch, sent);
            return false;
        }

        ConsumeSent(pipe, batch);
        return true;
    }

    /// <summary>
    /// Only <paramref name="sent"/> bytes of <paramref name="batch"/> (whole frames from the head of the queue) went
    /// out, or none (0 or less): the write loop sends the rest (or meets the error). The messages that went out whole
    /// are consumed now, so a connection lost before the rest goes out resends only the message that was cut, whole,
    /// on the next connection.
    /// </summary>
    private void KeepUnsent(StreamPipe pipe, ReadOnlySpan<byte> batch, int sent)
    {
        var outbound = pipe.Outbound;
        int whole = WholeMessagesIn(batch[..Math.Max(sent, 0)], out int wholeMessages);
        if (whole > 0)
        {
            outbound.Consume(whole);
            if (wholeMessages > 0)
            {
                outbound.MessagesConsumed(wholeMessages);
            }
        }

        _directSentPrefix = Math.Max(sent, 0) - whole;
    }

    /// <summary>The whole of <paramref name="batch"/>, from the head of the queue, went out: consumes it and its messages.</summary>
    private static void ConsumeSent(StreamPipe pipe, ReadOnlySpan<byte> batch)
    {
        // No frame held by reference in it (the direct write sends those apart), so the scan covers all of it.
        ScanBatch(batch, out int messages, out bool endsMidMessage);
        var outbound = pipe.Outbound;
        outbound.Consume(batch.Length);
        pipe.OutboundMidMessage = endsMidMessage;
        outbound.MessagesConsumed(messages);
    }

    /// <summary>
    /// The direct write of a large frame, without CURVE, as the write loop sends it: from a buffer of the library's
    /// own with the header in its headroom (one non-blocking system call), or from caller memory after its header
    /// (two). The <paramref name="envelope"/> bytes at the head of <paramref name="batch"/> are small frames of the
    /// same message that go in the headroom before the header (<see cref="FitsInHeadroom"/>); the large frame
    /// follows them. Sent in part: the write loop sends the rest (<see cref="_directSentPrefix"/> or
    /// <see cref="_directSentExternal"/>) before anything else. Releasing the payload here drops only the queue's
    /// reference: Send still holds its own, so a zero-copy free callback never runs here but once Send lets go
    /// (deferred, as for a small frame).
    /// </summary>
    private bool TryWriteDirectExternal(StreamPipe pipe, ReadOnlySpan<byte> batch, int envelope)
    {
        var payload = pipe.PeekPayload();
        Span<byte> headerBytes = stackalloc byte[FrameHeadroom.Size];
        int queued = CopyEnvelopeAndHeader(batch, envelope, headerBytes, out var header) - envelope;
        int sent;
        int length;
        if (payload.HasHeadroom)
        {
            var frame = payload.WithHeader(headerBytes[..(envelope + queued)]);
            length = frame.Length;
            sent = _transport.TrySendNow(frame.Span);
        }
        else
        {
            Debug.Assert(envelope == 0, "An envelope goes in a headroom only.");
            length = queued + payload.Length;
            sent = _transport.TrySendNow(headerBytes[..queued]);
            if (sent == queued)
            {
                sent += Math.Max(_transport.TrySendNow(payload.Span), 0);
            }
        }

        if (envelope > 0)
        {
            if (sent < envelope)
            {
                KeepUnsent(pipe, batch[..envelope], sent);
                return false;
            }

            ConsumeSent(pipe, batch[..envelope]);
            sent -= envelope;
            length -= envelope;
        }

        if (sent <= 0)
        {
            return false;
        }

        if (sent < length)
        {
            _directSentExternal = sent;
            return false;
        }

        pipe.TakePayload().Release();
        CompleteExternalWrite(pipe, queued, header.More);
        return true;
    }

    /// <summary>
    /// The direct write under CURVE: encrypts the committed frames into <see cref="_cipherDirect"/> (each a MESSAGE
    /// with the next short nonce, RFC 26) and sends them with one non-blocking system call. Nothing sent (a full
    /// kernel buffer, an error, a failed mechanism): the plaintext stays queued and the write loop encrypts it again
    /// with later nonces, which the peer accepts (nonces must only increase). Sent in part: the messages are
    /// consumed, as sealed they can only go out as they are, and the rest of the ciphertext waits in
    /// <see cref="_cipherTailLength"/> for the write loop, which sends it before anything else so that the nonces
    /// reach the peer in order.
    /// </summary>
    private bool TryWriteDirectEncrypted(StreamPipe pipe, ReadOnlySpan<byte> batch)
    {
        // Read once: the I/O thread drops both when the connection ends (ReleaseState), possibly meanwhile.
        if (_cipher is not { } cipher)
        {
            return false;
        }

        int needed = 0;
        int offset = 0;
        while (offset < batch.Length)
        {
            ZmtpFrame.TryReadHeader(batch[offset..], out var header);
            needed += cipher.GetEncodedLength((int)header.BodyLength);
            offset += header.HeaderLength + (int)header.BodyLength;
        }

        byte[]? output = _cipherDirect;
        if (output is null || output.Length < needed)
        {
            // Grows to the largest reply seen, at most once per size class: replies then encrypt without allocating.
            output = new byte[(int)BitOperations.RoundUpToPowerOf2((uint)needed)];
            _cipherDirect = output;
        }

        int length = 0;
        offset = 0;
        while (offset < batch.Length)
        {
            ZmtpFrame.TryReadHeader(batch[offset..], out var header);
            int frameLength = header.HeaderLength + (int)header.BodyLength;
            int encoded = cipher.Encode(batch.Slice(offset, frameLength), output.AsSpan(length));
            if (encoded < 0)
            {
                // The mechanism failed and wiped its keys: the write loop meets the same and stops.
                return false;
            }

            length += encoded;
            offset += frameLength;
        }

        int sent = _transport.TrySendNow(output.AsSpan(0, length));
        if (sent <= 0)
        {
            return false;
        }

        ConsumeSent(pipe, batch);
        if (sent < length)
        {
            _cipherTail = output;
            _cipherTailOffset = sent;
            _cipherTailLength = length - sent;
            return false;
        }

        return true;
    }

    /// <summary>
    /// Length of the whole messages (and commands) at the start of <paramref name="sent"/>, a message
    /// cut short excluded; <paramref name="messages"/> counts the messages among them.
    /// </summary>
    internal static int WholeMessagesIn(ReadOnlySpan<byte> sent, out int messages)
    {
        messages = 0;
        int offset = 0;
        int end = 0;
        while (sent.Length - offset >= 2)
        {
            if (ZmtpFrame.TryReadHeader(sent[offset..], out var header) != ZmtpStatus.Done || header.FrameLength > sent.Length - offset)
            {
                break;
            }

            offset += (int)header.FrameLength;
            if (!header.More)
            {
                end = offset;
                messages += header.IsCommand ? 0 : 1;
            }
        }

        return end;
    }
}
