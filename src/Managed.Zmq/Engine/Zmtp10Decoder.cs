using System.Diagnostics;
using Managed.Zmq.Wire;
using Managed.Zmq.Buffers;
using Managed.Zmq.Pipes;

namespace Managed.Zmq.Engine;

/// <summary>
/// The receive side of a ZMTP 1.0 connection (RFC 13): turns the peer's frames, however the stream splits them, into
/// the ZMTP 3.x frames the inbound queue holds, so the socket reads them as it reads every other connection's.
/// </summary>
/// <remarks>
/// <para>Chosen once per connection at the handshake: a ZMTP 3.x connection never comes here, so its read path has
/// no second framing to test for. Every octet received is consumed at once (a header into a small scratch, a body
/// into the queue), so the caller keeps no partial input.</para>
/// <para>A large body goes to a pooled buffer of its own, as a 3.x connection's does, and can be received straight
/// into it (<see cref="BodySpace"/>). Messages are published in batches, at a segment change at the latest, since
/// a commit can only name a position in the segment being written.</para>
/// </remarks>
internal sealed class Zmtp10Decoder
{
    private readonly FrameQueue _inbound;
    private readonly long _maxMessageSize;
    private readonly Func<int, OutboundPayload> _rentBuffer;

    /// <summary>The header being read: 2 or 10 octets, possibly split across receives.</summary>
    private readonly byte[] _header = new byte[Zmtp10Frame.LongHeaderLength];
    private int _headerLength;

    /// <summary>Body octets still to come for the frame being read; -1 between frames.</summary>
    private long _bodyRemaining = -1;
    private bool _more;

    /// <summary>A large frame's body, being filled, or null when the body goes into the queue.</summary>
    private OutboundPayload? _payload;
    private int _payloadFilled;

    /// <summary>Whole messages written to the queue but not yet published, and where the last one ends.</summary>
    private int _pendingMessages;
    private int _publishAt;

    /// <summary>True once something was published since <see cref="TakePublished"/> last reported.</summary>
    private bool _published;

    public Zmtp10Decoder(FrameQueue inbound, long maxMessageSize, Func<int, OutboundPayload> rentBuffer)
    {
        _inbound = inbound;
        _maxMessageSize = maxMessageSize;
        _rentBuffer = rentBuffer;
    }

    /// <summary>Body octets the frame being read still lacks; 0 between frames.</summary>
    public long BodyRemaining => Math.Max(_bodyRemaining, 0);

    /// <summary>Where the rest of the current body goes, to receive it without a copy; call <see cref="BodyReceived"/> after.</summary>
    public Memory<byte> BodySpace
    {
        get
        {
            Debug.Assert(_bodyRemaining > 0, "Only a body in progress has space.");
            return _payload is not null
                ? _payload.WritableMemory.Slice(_payloadFilled)
                : _inbound.WriteBuffer.AsMemory(_inbound.WriteOffset, (int)_bodyRemaining);
        }
    }

    /// <summary>Reports (once) whether messages were published, so the caller wakes the receiving thread.</summary>
    public bool TakePublished()
    {
        bool published = _published;
        _published = false;
        return published;
    }

    /// <summary>
    /// Queues a "subscribe to everything" message from the peer, as libzmq does for an unversioned ZMTP 1.0
    /// subscriber, which never sends one (docs/libzmq-behaviour.md L2).
    /// </summary>
    public void InjectSubscribeAll()
    {
        ReadOnlySpan<byte> subscribeAll = [(byte)ZmtpFrameFlags.None, 1, 1];
        Reserve(subscribeAll.Length);
        subscribeAll.CopyTo(_inbound.WriteBuffer.AsSpan(_inbound.WriteOffset));
        _inbound.Advance(subscribeAll.Length);
        EndMessage();
        Publish();
    }

    /// <summary>Accounts for <paramref name="count"/> octets received into <see cref="BodySpace"/>.</summary>
    public void BodyReceived(int count)
    {
        Debug.Assert(count > 0 && count <= _bodyRemaining, "A direct receive fills part of the body at most.");
        AdvanceBody(count);
        Publish();
    }

    /// <summary>Consumes every octet of <paramref name="input"/>; false when the peer broke RFC 13 (the connection must end).</summary>
    public bool Decode(ReadOnlySpan<byte> input)
    {
        while (!input.IsEmpty)
        {
            if (_bodyRemaining > 0)
            {
                int take = (int)Math.Min(_bodyRemaining, input.Length);
                input[..take].CopyTo(_payload is not null ? _payload.WritableSpan[_payloadFilled..] : _inbound.WriteBuffer.AsSpan(_inbound.WriteOffset));
                input = input[take..];
                AdvanceBody(take);
                continue;
            }

            // Header octets: the first says how many there are.
            int wanted = _headerLength == 0 ? 1 : Zmtp10Frame.GetHeaderLength(_header[0]);
            int copy = Math.Min(wanted - _headerLength, input.Length);
            input[..copy].CopyTo(_header.AsSpan(_headerLength));
            _headerLength += copy;
            input = input[copy..];
            var status = Zmtp10Frame.TryReadHeader(_header.AsSpan(0, _headerLength), out long bodyLength, out bool more, out _);
            if (status == ZmtpStatus.Malformed || (status == ZmtpStatus.Done && !StartFrame(bodyLength, more)))
            {
                // The messages before the bad frame are delivered, as libzmq delivers what it decoded before the error.
                Publish();
                return false;
            }
        }

        Publish();
        return true;
    }

    /// <summary>Gives back a large frame's buffer if the connection ends while it fills.</summary>
    public void Abandon()
    {
        _payload?.Release();
        _payload = null;
    }

    /// <summary>A header is complete: checks the size and makes room for the frame.</summary>
    private bool StartFrame(long bodyLength, bool more)
    {
        _headerLength = 0;

        // docs/libzmq-behaviour.md L25: MAXMSGSIZE applies to every frame, as libzmq's 1.0 decoder applies it.
        if (bodyLength > ZmtpConnection.LargestFrame || (_maxMessageSize >= 0 && bodyLength > _maxMessageSize))
        {
            return false;
        }

        _more = more;
        _bodyRemaining = bodyLength;
        int body = (int)bodyLength;
        if (body >= ZmtpConnection.DirectFrameThreshold && body <= BufferPool.MaxBucketSize)
        {
            // The header goes into the queue when the body is in (EndFrame): nothing to publish meanwhile.
            _payload = _rentBuffer(body);
            _payloadFilled = 0;
            return true;
        }

        int header = ZmtpFrame.GetHeaderLength(body);
        Reserve(header + body);
        _inbound.Advance(ZmtpFrame.WriteHeader(_inbound.WriteBuffer.AsSpan(_inbound.WriteOffset), body, more ? ZmtpFrameFlags.More : ZmtpFrameFlags.None));
        if (body == 0)
        {
            EndFrame();
        }

        return true;
    }

    private void AdvanceBody(int count)
    {
        if (_payload is not null)
        {
            _payloadFilled += count;
        }
        else
        {
            _inbound.Advance(count);
        }

        _bodyRemaining -= count;
        if (_bodyRemaining == 0)
        {
            EndFrame();
        }
    }

    private void EndFrame()
    {
        _bodyRemaining = -1;
        if (_payload is { } payload)
        {
            // As a 3.x connection queues a large frame: its header, marked, in the queue; its body by reference.
            _payload = null;
            Publish();
            Reserve(ZmtpFrame.MaxHeaderLength);
            int at = _inbound.WriteOffset;
            _inbound.Advance(ZmtpFrame.WriteHeader(_inbound.WriteBuffer.AsSpan(at), payload.Length, _more ? ZmtpFrameFlags.More : ZmtpFrameFlags.None));
            _inbound.WriteBuffer[at] |= QueuedFrame.ExternalMarker;
            _inbound.EnqueuePayload(payload, committedNext: !_more);
            if (!_more)
            {
                // Committed at once: a payload enqueued as committed must not wait behind anything that can fail.
                EndMessage();
                Publish();
            }

            return;
        }

        if (!_more)
        {
            EndMessage();
        }
    }

    private void EndMessage()
    {
        _pendingMessages++;
        _publishAt = _inbound.WriteOffset;
    }

    /// <summary>Makes room for a whole frame; what is pending is published first if that takes a new segment.</summary>
    private void Reserve(int bytes)
    {
        if (_inbound.WriteBuffer.Length - _inbound.WriteOffset < bytes)
        {
            Publish();
        }

        // Nothing is carried: the frames before this one are whole, and a message may span segments.
        _inbound.EnsureSpace(bytes, _inbound.WriteOffset);
    }

    private void Publish()
    {
        if (_pendingMessages > 0)
        {
            _inbound.CommitAt(_publishAt, _pendingMessages);
            _pendingMessages = 0;
            _published = true;
        }
    }
}
