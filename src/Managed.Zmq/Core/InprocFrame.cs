namespace Managed.Zmq.Core;

/// <summary>
/// One frame in an inproc channel: its bytes either in a chunk the sending pipe filled
/// (<see cref="Chunk"/> at an offset, <see cref="Length"/> bytes) or, for a large or zero-copy
/// Message, in that Message's own memory (<see cref="Payload"/>, whose reference the frame owns).
/// No ZMTP: the flags travel as fields.
/// </summary>
internal readonly struct InprocFrame
{
    private const int MoreFlag = 1;
    private const int CommandFlag = 2;

    /// <summary>The chunk (<c>byte[]</c>) or the payload: one reference, so queueing a frame costs one GC write barrier.</summary>
    private readonly object _bytes;
    private readonly int _offset;
    private readonly int _length;
    private readonly int _flags;

    public InprocFrame(byte[] chunk, int offset, int length, bool more, bool command)
    {
        _bytes = chunk;
        _offset = offset;
        _length = length;
        _flags = (more ? MoreFlag : 0) | (command ? CommandFlag : 0);
    }

    public InprocFrame(OutboundPayload payload, bool more)
    {
        _bytes = payload;
        _length = payload.Length;
        _flags = more ? MoreFlag : 0;
    }

    public byte[]? Chunk => _bytes as byte[];

    public int Length => _length;

    public OutboundPayload? Payload => _bytes as OutboundPayload;

    public bool More => (_flags & MoreFlag) != 0;

    /// <summary>A SUBSCRIBE or CANCEL command (XPUB/XSUB forwarding), which does not count against the HWM.</summary>
    public bool IsCommand => (_flags & CommandFlag) != 0;

    public ReadOnlySpan<byte> Body => _bytes is byte[] chunk ? new ReadOnlySpan<byte>(chunk, _offset, _length) : ((OutboundPayload)_bytes).Span;
}
