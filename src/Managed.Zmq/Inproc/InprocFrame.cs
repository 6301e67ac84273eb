using Managed.Zmq.Buffers;
using Managed.Zmq.Pipes;

namespace Managed.Zmq.Inproc;

/// <summary>
/// One frame of an inproc channel, as the receiver peeks it: its bytes either in a chunk the sending
/// pipe filled (at an offset, <see cref="Length"/> bytes) or, for a large or zero-copy Message, in that
/// Message's own memory (<see cref="Payload"/>, whose reference the frame owns). No ZMTP: the flags
/// are the pipes' own (<see cref="FrameFlags"/>), which the pipe hands on as they are.
/// </summary>
internal readonly struct InprocFrame
{
    /// <summary>The chunk (<c>byte[]</c>) or the payload: one reference, so storing a frame costs one GC write barrier.</summary>
    private readonly object _bytes;
    private readonly int _offset;
    private readonly int _length;
    private readonly FrameFlags _flags;

    public InprocFrame(byte[] chunk, int offset, int length, FrameFlags flags)
    {
        _bytes = chunk;
        _offset = offset;
        _length = length;
        _flags = flags;
    }

    public InprocFrame(OutboundPayload payload, FrameFlags flags)
    {
        _bytes = payload;
        _length = payload.Length;
        _flags = flags;
    }

    public int Length => _length;

    public OutboundPayload? Payload => _bytes as OutboundPayload;

    /// <summary>More and Command.</summary>
    public FrameFlags Flags => _flags;

    public bool More => (_flags & FrameFlags.More) != 0;

    /// <summary>A SUBSCRIBE or CANCEL command (XPUB/XSUB forwarding), which does not count against the HWM.</summary>
    public bool IsCommand => (_flags & FrameFlags.Command) != 0;

    public ReadOnlySpan<byte> Body => _bytes is byte[] chunk ? new ReadOnlySpan<byte>(chunk, _offset, _length) : ((OutboundPayload)_bytes).Span;
}
