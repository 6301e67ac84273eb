namespace Managed.Zmq.Pipes;

/// <summary>One buffer of a <see cref="FrameQueue"/>: whole ZMTP frames laid end to end.</summary>
internal sealed class FrameSegment
{
    public FrameSegment(byte[] buffer, long baseOffset)
    {
        Buffer = buffer;
        BaseOffset = baseOffset;
    }

    /// <summary>The bytes; rented from <see cref="Buffers.SegmentPool"/>. Replaced only while the segment is out of its queue's chain.</summary>
    public byte[] Buffer { get; set; }

    /// <summary>Queue-wide position of <c>Buffer[0]</c>; set again when the segment is reused.</summary>
    public long BaseOffset { get; set; }

    /// <summary>Where the last frame of this segment ends. Valid once <see cref="Next"/> is set.</summary>
    public int End;

    /// <summary>The following segment; written (release) after <see cref="End"/>.</summary>
    public FrameSegment? Next;
}
