using System.Diagnostics;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using Managed.Zmq.Buffers;

namespace Managed.Zmq.Pipes;

/// <summary>
/// A frame to send: its bytes, and, for a large or zero-copy Message, the <see cref="OutboundPayload"/> that
/// owns them, which pipes may queue by reference instead of copying. Passed from Send through the pattern
/// to each pipe it goes to.
/// </summary>
internal readonly ref struct OutboundFrame
{
    public OutboundFrame(ReadOnlySpan<byte> bytes, bool more)
    {
        Bytes = bytes;
        More = more;
    }

    /// <param name="bytes">The frame's bytes: <paramref name="payload"/>'s own when it is not null.</param>
    /// <param name="payload">The owner of the bytes, or null when the bytes must be copied.</param>
    /// <param name="more">More frames of the message follow.</param>
    public OutboundFrame(ReadOnlySpan<byte> bytes, OutboundPayload? payload, bool more)
    {
        Debug.Assert(payload is null || (payload.Length == bytes.Length
            && Unsafe.AreSame(ref MemoryMarshal.GetReference(bytes), ref MemoryMarshal.GetReference(payload.Span))),
            "a payload frame's bytes are the payload's");
        Bytes = bytes;
        Payload = payload;
        More = more;
    }

    public ReadOnlySpan<byte> Bytes { get; }

    /// <summary>The owner of <see cref="Bytes"/>, when they may travel by reference.</summary>
    public OutboundPayload? Payload { get; }

    public bool More { get; }

    public int Length => Bytes.Length;

    /// <summary>The same frame with another MORE flag.</summary>
    public OutboundFrame WithMore(bool more) => new(Bytes, Payload, more) { RoutingId = RoutingId, Group = Group };

    /// <summary>
    /// The peer a SERVER sends the frame to (RFC 41; libzmq's zmq_msg_routing_id): a Message's routing id, 0 for
    /// frames sent from spans or by other socket types. Pipes never carry it: it names the pipe, it is not data.
    /// </summary>
    public uint RoutingId { get; init; }

    /// <summary>
    /// The group a RADIO sends the message to (RFC 48; libzmq's zmq_msg_group): a Message's group, empty for frames
    /// sent from spans or by other socket types. The RADIO puts it on the wire as a frame of its own.
    /// </summary>
    public ReadOnlySpan<byte> Group { get; init; }
}
