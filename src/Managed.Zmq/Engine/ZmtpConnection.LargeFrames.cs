using System.Runtime.CompilerServices;
using Managed.Zmq.Wire;
using Managed.Zmq.Buffers;
using Managed.Zmq.Pipes;
using Managed.Zmq.Internal;

namespace Managed.Zmq.Engine;

internal sealed partial class ZmtpConnection
{
    internal const int DirectFrameThreshold = Tuning.Frames.LargeFrame;

    private const int ReadAfterLargeFrame = Tuning.Engine.ReadAfterLargeFrame;

    /// <summary>The last message published ended in a large frame (<see cref="ReceivesLargeFrames"/>); cleared by a small one.</summary>
    private bool _receivesLargeFrames;

    /// <inheritdoc cref="IPipeEngine.ReceivesLargeFrames"/>
    /// <remarks>
    /// Only where a Recv could read on the turn: a transport that lends its receive side, a clear ZMTP 3.x connection
    /// that is not a DISH's (a large frame under CURVE, or from a ZMTP 1.0 peer, is not queued here and never sets it).
    /// </remarks>
    public bool ReceivesLargeFrames => Volatile.Read(ref _receivesLargeFrames) && !_expectsGroupFrames && _transport.LendsReceive;

    /// <summary>Set once a large frame is in: the next receive is kept short (<see cref="ReadAfterLargeFrame"/>).</summary>
    private bool _followsLargeFrame;

    private const int AnnounceAfterBytes = Tuning.Engine.AnnounceAfterBytes;

    /// <summary>Bytes of large messages published but not yet announced through the socket's signal.</summary>
    private int _unannouncedBytes;

    /// <summary>What a large frame's last receive brought beyond the frame, on its way into the queue; made on first use.</summary>
    private byte[]? _afterLargeFrame;

    /// <summary>
    /// Native buffers for large received frames; private, so applications' pool statistics stay
    /// theirs. A buffer goes back when the socket has handed the frame to the application.
    /// </summary>
    private static readonly BufferPool s_largeFrames = new();

    /// <summary>
    /// True when the frame waiting at the parse offset is a large message frame: its header is in
    /// the queue, and its body should be read straight into a buffer of its own rather than into a
    /// queue segment as large as the frame. Such segments are too big for any pool to keep, so
    /// each one would be a new array on the large-object heap and a gen-2 collection now and then.
    /// </summary>
    private bool IsDirectFrameWaiting(StreamPipe pipe, out ZmtpFrameHeader header)
    {
        header = default;
        if (_pendingFrameBytes < DirectFrameThreshold)
        {
            return false;
        }

        var inbound = pipe.Inbound;
        if (ZmtpFrame.TryReadHeader(inbound.WriteBuffer.AsSpan(_parseOffset, inbound.WriteOffset - _parseOffset), out header) != ZmtpStatus.Done)
        {
            // Left default, so the caller reads no command into an incomplete or malformed header.
            header = default;
            return false;
        }

        return !header.IsCommand && header.BodyLength <= BufferPool.MaxBucketSize;
    }

    /// <summary>
    /// Reads the rest of a large frame into a pooled buffer and queues it as an external frame
    /// (header in the queue, body by reference, as an inproc peer's large frames are), then
    /// publishes the message if the frame ends one. False when the connection ended.
    /// </summary>
    // Pooled builder: this await completes asynchronously for nearly every large frame, and a
    // fresh state-machine box per frame would be the only allocation left on this path.
    [AsyncMethodBuilder(typeof(PoolingAsyncValueTaskMethodBuilder<>))]
    private async ValueTask<bool> ReceiveDirectFrameAsync(StreamPipe pipe, ZmtpFrameHeader header)
    {
        if (_expectsGroupFrames && !IsGroupFramed(header))
        {
            // A DISH's message is a group frame then a body frame; a large frame is only ever the body (see ParseReceived).
            Close(DisconnectReason.ProtocolError);
            return false;
        }

        int bodyLength = (int)header.BodyLength;
        var payload = StartLargeFrame(pipe.Inbound, header, out int received);

        // While the rest waits on the peer, a Recv may take it over (ZmtpConnection.LentLargeFrames.cs): in a stream whose
        // segments do not end where messages end, every receive of the loop's is the rest of a body, and the receiving
        // thread would otherwise never get its turn back.
        bool offer = _transport.LendsReceive && !_expectsGroupFrames;
        bool owned = true;
        try
        {
            while (received < bodyLength)
            {
                if (offer)
                {
                    OfferLargeFrame(payload, received);
                    owned = false;
                }

                int read = await ReceiveOrAnnounceAsync(payload.WritableMemory[received..], offer).ConfigureAwait(true);
                if (offer)
                {
                    if (!TryTakeBackOffer(out payload, out received))
                    {
                        // A borrower took the body: it either queued the frame, and this receive, if the reactor served it,
                        // went where the turn's return left it, into the queue; or it handed the body back (HandedBack),
                        // and the loop goes on from it.
                        return TakePlainReceive(pipe, read, 0);
                    }

                    owned = true;
                }

                if (read <= 0)
                {
                    payload.Release();
                    owned = false;
                    Close(DisconnectReason.ConnectionLost);
                    return false;
                }

                received += read;
                OnTrafficReceived();
            }
        }
        catch
        {
            // An offer not taken is still the loop's (the borrower's part, if it took it, is queued or handed back).
            if (!owned && TryTakeBackOffer(out payload, out _))
            {
                owned = true;
            }

            if (owned)
            {
                payload.Release();
            }

            throw;
        }

        if (!QueueLargeFrame(pipe, header, payload, received, lent: false))
        {
            Close(DisconnectReason.ProtocolError);
            return false;
        }

        return true;
    }

    /// <summary>
    /// The buffer a large frame's body is read into, with the part of the body already received in it
    /// (<paramref name="received"/> bytes): the bytes after the header in the queue, which leaves the queue ending at the
    /// header, or, if a borrower began the body (ZmtpConnection.LentLargeFrames.cs), its buffer.
    /// </summary>
    private OutboundPayload StartLargeFrame(FrameQueue inbound, ZmtpFrameHeader header, out int received)
    {
        int bodyStart = _parseOffset + header.HeaderLength;
        if (TakeLentLargeFrame(out received) is { } begun)
        {
            // Whoever began it moved what the queue held after the header into its buffer, and no receive into the queue
            // was served since (a borrower's hand-back, or the loop's offer taken over): the queue ends at the header.
            return begun;
        }

        int bodyLength = (int)header.BodyLength;
        received = inbound.WriteOffset - bodyStart;
        var payload = RentFrameBuffer(bodyLength);
        inbound.WriteBuffer.AsSpan(bodyStart, received).CopyTo(payload.WritableSpan);
        inbound.Truncate(bodyStart);

        // The reads may run on into the buffer's tailroom: in a stream the last bytes of this frame come with the
        // next frame's header (and a little of its body), one system call where there would be two.
        payload.SetReceiveWindow(bodyLength + FrameHeadroom.Tailroom);
        return payload;
    }

    /// <summary>
    /// A large frame's body is in <paramref name="payload"/> (with <paramref name="received"/> - its length bytes of what
    /// follows it): queues it as an external frame, publishes the message if the frame ends one, and puts what followed
    /// where a receive's bytes go. The read loop (<paramref name="lent"/> false) parses those too, and batches the
    /// receiving thread's wake-up (<see cref="AnnounceLarge"/>); false on a protocol error in them. A borrower leaves them
    /// unparsed (it may parse plain data only) and wakes the receiving thread at once, since it is that thread.
    /// </summary>
    private bool QueueLargeFrame(StreamPipe pipe, ZmtpFrameHeader header, OutboundPayload payload, int received, bool lent)
    {
        var inbound = pipe.Inbound;
        int bodyLength = (int)header.BodyLength;
        int bodyStart = _parseOffset + header.HeaderLength;

        // What came after the frame is copied out before the frame is queued: once the receiver has it, its
        // buffer may go back to a pool and be reused at any moment.
        int beyond = received - bodyLength;
        if (beyond > 0)
        {
            _afterLargeFrame ??= new byte[FrameHeadroom.Tailroom];
            payload.WritableSpan.Slice(bodyLength, beyond).CopyTo(_afterLargeFrame);
        }

        payload.SetReceiveWindow(bodyLength);
        inbound.WriteBuffer[_parseOffset] |= QueuedFrame.ExternalMarker;
        inbound.EnqueuePayload(payload, committedNext: !header.More);
        inbound.Truncate(bodyStart);
        _parseOffset = bodyStart;
        _pendingFrameBytes = 0;
        _followsLargeFrame = true;
        _inMessage = header.More;
        if (!header.More)
        {
            _receivesLargeFrames = true;
            inbound.CommitAt(bodyStart, 1);
            if (lent)
            {
                AnnounceAll();
            }
            else
            {
                AnnounceLarge(bodyLength);
            }
        }

        // The bytes read past the frame go where a receive would have put them, and are parsed as it would.
        if (beyond <= 0)
        {
            return true;
        }

        if (lent)
        {
            StorePlainLeftover(inbound, _afterLargeFrame.AsSpan(0, beyond));
            return true;
        }

        return TryStoreLeftover(_afterLargeFrame.AsSpan(0, beyond));
    }

    /// <summary>
    /// Starts a receive (<paramref name="lendable"/>: one the socket's thread may serve, see ZmtpConnection.DirectRead.cs);
    /// when it has to wait for the peer, first wakes the receiving thread for the large messages published without a
    /// wake-up (the batch ends where the stream pauses).
    /// </summary>
    private ValueTask<int> ReceiveOrAnnounceAsync(Memory<byte> space, bool lendable = false)
    {
        var pending = lendable ? _transport.ReceiveLendableAsync(space) : _transport.ReceiveAsync(space);
        if (!pending.IsCompleted)
        {
            AnnouncePublished();
        }

        return pending;
    }

    /// <summary>
    /// Large messages of <paramref name="bytes"/> just published: the receiving thread is woken once
    /// <see cref="AnnounceAfterBytes"/> wait, or by the next receive that has to wait (<see cref="ReceiveOrAnnounceAsync"/>).
    /// </summary>
    private void AnnounceLarge(int bytes)
    {
        _unannouncedBytes += bytes;
        if (_unannouncedBytes >= AnnounceAfterBytes)
        {
            AnnounceAll();
        }
    }

    /// <summary>Wakes the receiving thread for large messages published since the last wake-up, if any.</summary>
    private void AnnouncePublished()
    {
        if (_unannouncedBytes != 0)
        {
            AnnounceAll();
        }
    }

    /// <summary>Wakes the receiving thread (and pollers) for everything published so far.</summary>
    private void AnnounceAll()
    {
        _unannouncedBytes = 0;
        _host.Notify();
    }

    internal static unsafe OutboundPayload RentFrameBuffer(int length)
    {
        nint buffer = s_largeFrames.RentBuffer(length, out int bucket);
        var payload = OutboundPayload.Create((byte*)buffer, length, hasHeadroom: true);
        payload.AdoptPooled(s_largeFrames, bucket);
        return payload;
    }
}
