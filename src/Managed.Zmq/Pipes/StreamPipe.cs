using System.Diagnostics;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using Managed.Zmq.Buffers;
using Managed.Zmq.Wire;
using Managed.Zmq.Internal;

namespace Managed.Zmq.Pipes;

/// <summary>
/// A pipe carried by a connection engine (tcp, ipc): a <see cref="FrameQueue"/> each way, holding frames in
/// their wire encoding so the write loop sends them as they are and the read loop decodes them in place.
/// The encoding is <see cref="QueuedFrame"/>'s; this carrier is the only pipe that calls it.
/// </summary>
/// <remarks>
/// The socket (user thread) is the producer of <see cref="Outbound"/> and the consumer of
/// <see cref="Inbound"/>; the engine currently serving the pipe (I/O thread) is the other side of each.
/// </remarks>
internal sealed partial class StreamPipe : Pipe
{
    /// <summary>The frame last returned by <see cref="TryPeekFrame"/> has its bytes outside the queue (a large message).</summary>
    private bool _peekedExternal;

    /// <summary>The peeked external frame's buffer was taken by a Message (<see cref="TakePeekedPayload"/>).</summary>
    private bool _peekedPayloadTaken;

    /// <summary>Socket side: the queue reached the send HWM and has not yet drained to the resume level.</summary>
    private bool _sendHeld;

    public StreamPipe(IPipeOwner owner, int sendHwm, int receiveHwm, bool fromConnect)
        : base(owner, sendHwm, receiveHwm, fromConnect)
    {
        Outbound = new FrameQueue();
        Inbound = new FrameQueue { Consumer = this };
    }

    /// <summary>What the socket sends, for the write loop.</summary>
    public FrameQueue Outbound { get; }

    /// <summary>What the read loop decoded, for the socket.</summary>
    public FrameQueue Inbound { get; }

    /// <summary>Peer's ZMTP minor version (0 or 1); decides the subscription form (RFC 37 §The Publish-Subscribe Pattern).</summary>
    public byte PeerMinorVersion { get; set; } = 1;

    /// <summary>True after the writer consumed part of a message whose rest is still queued (see <see cref="FrameQueue"/>).</summary>
    public bool OutboundMidMessage { get; set; }

    public override long InboundQueuedMessages => Inbound.QueuedMessages;

    public override bool OutboundHasData => Outbound.HasData;

    public override bool InboundHasData => Inbound.HasData;

    /// <remarks>
    /// Once the queue reached the HWM it counts as full until it has drained to <see cref="ResumeLevel"/>,
    /// as a libzmq pipe stays inactive until its reader reports a batch of reads. So a blocked send,
    /// DontWait and POLLOUT all agree with when a parked sender is woken (<see cref="OutboundAtLowWater"/>).
    /// </remarks>
    private protected override bool HasRoom()
    {
        if (SendHwm <= 0)
        {
            return true;
        }

        long queued = Outbound.QueuedMessages;
        if (_sendHeld)
        {
            if (queued > ResumeLevel(SendHwm))
            {
                return false;
            }

            _sendHeld = false;
            return true;
        }

        if (queued < SendHwm)
        {
            return true;
        }

        _sendHeld = true;
        return false;
    }

    /// <summary>
    /// Where a sender held at <paramref name="hwm"/> may go on: libzmq's low-water mark, the HWM less
    /// half of it (or less 1024 above 2048), never less than one message of room.
    /// </summary>
    internal static long ResumeLevel(int hwm) => hwm - (hwm > 2 * Tuning.Pipes.SendLowWaterMaxDelta ? Tuning.Pipes.SendLowWaterMaxDelta : (hwm + 1) / 2);

    /// <summary>
    /// Engine, after consuming outbound messages: whether a sender held at the HWM may go on, so is
    /// worth waking. Only at the resume level (see <see cref="HasRoom"/>), so a sender at the HWM
    /// wakes once per half HWM of messages rather than once per message.
    /// </summary>
    public bool OutboundAtLowWater => SendHwm <= 0 || Outbound.QueuedMessages <= ResumeLevel(SendHwm);

    /// <summary>Engine: the payload of the next external outbound frame, left queued until it went out.</summary>
    public OutboundPayload PeekPayload() => Outbound.PeekPayload();

    /// <summary>Engine: takes the payload of the next external outbound frame.</summary>
    public OutboundPayload TakePayload() => Outbound.TakePayload();

    public override void ReleasePayloads() => Outbound.ReleasePayloads();

    public override void WriteFrame(in OutboundFrame frame)
    {
        if (frame.Payload is { } payload)
        {
            WriteExternalFrame(payload, frame.More);
            return;
        }

        var data = frame.Bytes;
        var span = Outbound.GetSpan(QueuedFrame.GetLength(data.Length));
        Outbound.Advance(QueuedFrame.Write(span, data, frame.More));
        Outbound.PrefetchNextWrite();
        if (!frame.More)
        {
            Publish(1);
        }
    }

    /// <summary>Queues only the header of a large frame; its bytes go to the wire from where they lie.</summary>
    private void WriteExternalFrame(OutboundPayload payload, bool more)
    {
        var span = Outbound.GetSpan(QueuedFrame.GetExternalLength(payload.Length));
        int headerLength = QueuedFrame.WriteExternal(span, payload.Length, more);
        if (!payload.HasHeadroom && payload.Length < Tuning.Frames.CopyCallerMemoryBelow)
        {
            // Caller memory: a copy with headroom leaves in one send (see CopyCallerMemoryBelow); this connection
            // then holds no reference to the caller's memory, whose callback runs once Send let go of it.
            Outbound.EnqueuePayload(HeadroomCopy.Create(payload.Span), committedNext: !more);
        }
        else
        {
            payload.AddReference();
            Outbound.EnqueuePayload(payload, committedNext: !more);
        }

        Outbound.Advance(headerLength);
        if (!more)
        {
            Publish(1, endsInLargeFrame: true);
        }
    }

    /// <remarks>
    /// Queued as a SUBSCRIBE/CANCEL command, the 3.1 form (RFC 37 §The Publish-Subscribe Pattern); the engine rewrites it
    /// as a 0x01/0x00 message when the peer turns out to speak 3.0 (docs/libzmq-behaviour.md L12), since the
    /// peer's version is unknown until the handshake.
    /// </remarks>
    public override void WriteSubscription(bool subscribe, ReadOnlySpan<byte> topic)
    {
        int length = QueuedFrame.GetSubscriptionLength(subscribe, topic.Length);
        var span = Outbound.GetSpan(length);
        Outbound.Advance(QueuedFrame.WriteSubscription(span, subscribe, topic));
        Publish(0);
    }

    private protected override bool TryReadSubscriptionCommand(ReadOnlySpan<byte> body, out bool subscribe, out ReadOnlySpan<byte> topic)
        => QueuedFrame.TryReadSubscriptionCommand(body, out subscribe, out topic);

    /// <remarks>Queued as the JOIN or LEAVE command frame, which goes out as it is to every ZMTP 3 peer (RFC 37; libzmq 4.3 does the same).</remarks>
    public override void WriteGroupCommand(bool join, ReadOnlySpan<byte> group)
    {
        int length = QueuedFrame.GetGroupCommandLength(join, group.Length);
        var span = Outbound.GetSpan(length);
        Outbound.Advance(QueuedFrame.WriteGroupCommand(span, join, group));
        Publish(0);
    }

    private protected override bool TryReadGroupCommandBody(ReadOnlySpan<byte> body, out bool join, out ReadOnlySpan<byte> group)
        => QueuedFrame.TryReadGroupCommand(body, out join, out group);

    /// <summary>
    /// Commits what was written and wakes the engine's write loop if it is parked. The commit is a
    /// full fence, which the wake-up check needs.
    /// </summary>
    private void Publish(int messages, bool endsInLargeFrame = false)
    {
        Outbound.Commit(messages);
        WakeWriter(endsInLargeFrame);
    }

    public override bool TryPeekFrame(out InboundFrame frame)
    {
        var span = Inbound.Peek();
        if (span.IsEmpty)
        {
            frame = default;
            return false;
        }

        var queued = QueuedFrame.Decode(span);
        var flags = (queued.More ? FrameFlags.More : FrameFlags.None) | (queued.IsCommand ? FrameFlags.Command : FrameFlags.None);

        // A large frame's bytes were received into a buffer of their own, which a Message may take.
        _peekedExternal = queued.IsExternal;
        if (_peekedExternal)
        {
            frame = new InboundFrame(Inbound.PeekPayload().Span, flags, Metadata, queued.QueuedLength, this);
            return true;
        }

        frame = new InboundFrame(span.Slice(queued.HeaderLength, queued.BodyLength), flags, Metadata, queued.QueuedLength, payloadOwner: null);
        return true;
    }

    /// <summary>
    /// Gives the pooled buffer of the large frame just peeked (<paramref name="body"/>) to the caller, which then
    /// owns it: consuming the frame no longer releases it. Null unless <paramref name="body"/> is exactly that
    /// buffer and, when <paramref name="bucket"/> is not -1, the buffer is from that pool bucket.
    /// </summary>
    internal override OutboundPayload? TakePeekedPayload(ReadOnlySpan<byte> body, int bucket)
    {
        if (!_peekedExternal || _peekedPayloadTaken)
        {
            return null;
        }

        var payload = Inbound.PeekPayload();
        var bytes = payload.Span;
        if (bytes.Length != body.Length || !Unsafe.AreSame(ref MemoryMarshal.GetReference(bytes), ref MemoryMarshal.GetReference(body))
            || !payload.IsSolePooledBuffer || (bucket != -1 && payload.PooledBucket != bucket))
        {
            return null;
        }

        _peekedPayloadTaken = true;
        return payload;
    }

    public override void PrefetchNextRead() => Inbound.PrefetchNextRead();

    public override void ConsumeFrame(in InboundFrame frame)
    {
        Inbound.Consume(frame.CarrierLength);
        if (_peekedExternal)
        {
            _peekedExternal = false;
            var payload = Inbound.TakePayload();
            if (_peekedPayloadTaken)
            {
                // A Message owns the buffer now (TakePeekedPayload).
                _peekedPayloadTaken = false;
            }
            else
            {
                payload.Release();
            }
        }

        // A command left in the queue (a subscription, between messages) was counted as a message by the engine.
        if (frame.IsCommand || !frame.More)
        {
            Inbound.MessagesConsumed(1);
            if (Volatile.Read(ref _readerPaused) != 0 && Inbound.QueuedMessages <= ReceiveHwm / LowWaterDivisor
                && Interlocked.Exchange(ref _readerPaused, 0) != 0)
            {
                _engine?.WakeReader();
            }
        }
    }

    public override void DiscardInbound()
    {
        if (IsTerminated)
        {
            // Large payloads nobody will send any more: release them (zero-copy callbacks run now).
            ReleasePayloads();
        }

        // A frame peeked but never delivered (a poll, a routing-id peek) goes with the rest: no
        // later receive may ask this pipe for its buffer (TakePeekedPayload).
        _peekedExternal = false;
        _peekedPayloadTaken = false;
        Inbound.ConsumeAll();
        if (Interlocked.Exchange(ref _readerPaused, 0) != 0)
        {
            _engine?.WakeReader();
        }
    }
}
