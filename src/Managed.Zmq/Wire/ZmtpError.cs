using System.Diagnostics;

namespace Managed.Zmq.Wire;

/// <summary>Builds and reads the ERROR command (RFC 23 §The NULL Security Mechanism: error = ... error-reason).</summary>
internal static class ZmtpError
{
    /// <summary>The longest reason: its length travels in one octet.</summary>
    public const int MaxReasonLength = byte.MaxValue;

    /// <summary>The whole ERROR frame length for a reason of <paramref name="reasonLength"/> octets.</summary>
    public static int GetFrameLength(int reasonLength) =>
        ZmtpCommandCodec.GetFrameLength(ZmtpCommandNames.Error.Length, 1 + reasonLength);

    /// <summary>Writes a whole ERROR command frame and returns its length.</summary>
    public static int WriteFrame(Span<byte> destination, ReadOnlySpan<byte> reason)
    {
        Debug.Assert(reason.Length <= MaxReasonLength, "An error reason is at most 255 octets.");
        int written = ZmtpCommandCodec.WriteFramePrefix(destination, ZmtpCommandNames.Error, 1 + reason.Length);

        // RFC 23 §The NULL Security Mechanism: error-reason = short-size 0*255VCHAR.
        destination[written++] = (byte)reason.Length;
        reason.CopyTo(destination.Slice(written));
        return written + reason.Length;
    }

    /// <summary>Reads the reason from an ERROR command's data.</summary>
    /// <returns>False when the data is empty or the reason runs past it.</returns>
    /// <remarks>
    /// Octets after the reason are tolerated: the reason is only ever logged or matched against
    /// ZAP status codes, and refusing the frame would hide why the peer gave up.
    /// </remarks>
    public static bool TryParse(ReadOnlySpan<byte> commandData, out ReadOnlySpan<byte> reason)
    {
        reason = default;
        if (commandData.IsEmpty)
        {
            return false;
        }

        int reasonLength = commandData[0];
        if (reasonLength > commandData.Length - 1)
        {
            return false;
        }

        reason = commandData.Slice(1, reasonLength);
        return true;
    }
}
