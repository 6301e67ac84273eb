using Managed.Zmq.Wire;

namespace Managed.Zmq.Pipes;

/// <summary>
/// How frames lie in an outbound <see cref="FrameQueue"/>: ZMTP frames, except that a large
/// payload sent without a copy is left out, its header marked with <see cref="ExternalMarker"/>
/// (a flag bit ZMTP reserves, RFC 23 §Framing, so never seen on the wire: the write loop clears it)
/// and its bytes waiting in the pipe's payload queue.
/// </summary>
internal static class QueuedFrame
{
    public const byte ExternalMarker = 0x80;

    /// <summary>Reads the frame at the start of <paramref name="frames"/>; returns how many queue bytes it takes.</summary>
    public static int Read(ReadOnlySpan<byte> frames, out ZmtpFrameHeader header, out bool external)
    {
        ZmtpFrame.TryReadHeader(frames, out header);
        external = (frames[0] & ExternalMarker) != 0;
        return external ? header.HeaderLength : header.HeaderLength + (int)header.BodyLength;
    }
}
