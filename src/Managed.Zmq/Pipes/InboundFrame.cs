using Managed.Zmq.Buffers;
using Managed.Zmq.Wire;

namespace Managed.Zmq.Pipes;

/// <summary>
/// A received frame, peeked where it lies (<see cref="Pipe.TryPeekFrame"/>), or a frame a pattern makes up
/// (a routing id, a notification). It carries what the receiver's sink needs: the bytes, the flags, the
/// metadata of the connection it came through, and, for a large frame with a pooled buffer of its own, the
/// means to take that buffer instead of copying it (<see cref="TakePayload"/>).
/// </summary>
internal readonly ref struct InboundFrame
{
    /// <summary>The pipe whose peeked frame has a buffer of its own a Message may take; null otherwise.</summary>
    private readonly Pipe? _payloadOwner;

    public InboundFrame(ReadOnlySpan<byte> body, FrameFlags flags, PeerMetadata? metadata = null)
    {
        Body = body;
        Flags = flags;
        Metadata = metadata;
    }

    internal InboundFrame(ReadOnlySpan<byte> body, FrameFlags flags, PeerMetadata? metadata, int carrierLength, Pipe? payloadOwner)
    {
        Body = body;
        Flags = flags;
        Metadata = metadata;
        CarrierLength = carrierLength;
        _payloadOwner = payloadOwner;
    }

    public ReadOnlySpan<byte> Body { get; }

    public FrameFlags Flags { get; }

    public int Length => Body.Length;

    public bool More => (Flags & FrameFlags.More) != 0;

    /// <summary>A command (SUBSCRIBE or CANCEL), which does not count against the HWM.</summary>
    public bool IsCommand => (Flags & FrameFlags.Command) != 0;

    /// <summary>The metadata of the connection the frame came through (null for inproc and made-up frames).</summary>
    public PeerMetadata? Metadata { get; }

    /// <summary>The carrier's own bookkeeping: what consuming the frame moves its queue on by.</summary>
    internal int CarrierLength { get; }

    /// <summary>
    /// The routing id of the peer a SERVER received the frame from (RFC 41; libzmq's zmq_msg_routing_id), which a
    /// receive into a Message hands over; 0 for every other frame.
    /// </summary>
    public uint RoutingId { get; init; }

    /// <summary>
    /// The group of a message a DISH received (RFC 48; libzmq's zmq_msg_group), which a receive into a Message hands
    /// over; empty for every other frame.
    /// </summary>
    public ReadOnlySpan<byte> Group { get; init; }

    /// <summary>The same frame stamped with the group it was sent to (DISH).</summary>
    public InboundFrame WithGroup(ReadOnlySpan<byte> group) => new(Body, Flags, Metadata, CarrierLength, _payloadOwner) { Group = group };

    /// <summary>The same frame with other flags (a pattern passing it on as a single frame).</summary>
    public InboundFrame WithFlags(FrameFlags flags) => new(Body, flags, Metadata, CarrierLength, _payloadOwner) { RoutingId = RoutingId };

    /// <summary>The same frame stamped with the routing id of the pipe it came through (SERVER).</summary>
    public InboundFrame WithRoutingId(uint routingId) => new(Body, Flags, Metadata, CarrierLength, _payloadOwner) { RoutingId = routingId };

    /// <summary>
    /// For a receive into a Message: the pooled buffer of this large frame, which the caller then owns
    /// (consuming the frame no longer releases it); null when the frame has no buffer of its own, or, when
    /// <paramref name="bucket"/> is not -1, its buffer is not from that pool bucket. The frame is copied then.
    /// </summary>
    public OutboundPayload? TakePayload(int bucket) => _payloadOwner?.TakePeekedPayload(Body, bucket);
}
