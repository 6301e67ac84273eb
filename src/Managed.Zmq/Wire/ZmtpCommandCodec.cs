using System.Diagnostics;

namespace Managed.Zmq.Wire;

/// <summary>Splits and builds command frames (RFC 37 §Commands and RFC 37 §Formal Grammar, as in RFC 23).</summary>
internal static class ZmtpCommandCodec
{
    /// <summary>The longest command name: its length travels in one octet.</summary>
    public const int MaxNameLength = byte.MaxValue;

    /// <summary>Splits a command frame's body into name and data.</summary>
    /// <returns>False when the body is empty, the name length is 0, or the name runs past the body.</returns>
    /// <remarks>
    /// The grammar restricts names to letters, but the characters are not checked: every name we
    /// act on is compared exactly anyway, and unknown commands are ignored rather than fatal after
    /// the handshake (docs/libzmq-behaviour.md L11), so a strict check would only turn an ignorable frame into an error.
    /// </remarks>
    public static bool TryParse(ReadOnlySpan<byte> body, out ZmtpCommand command)
    {
        command = default;
        if (body.IsEmpty)
        {
            return false;
        }

        // RFC 23 §Formal Grammar: command-name = short-size 1*255command-name-char.
        int nameLength = body[0];
        if (nameLength == 0 || nameLength > body.Length - 1)
        {
            return false;
        }

        command = new ZmtpCommand(body.Slice(1, nameLength), body.Slice(1 + nameLength));
        return true;
    }

    /// <summary>The body length of a command: name length octet, name and data.</summary>
    public static int GetBodyLength(int nameLength, int dataLength) => 1 + nameLength + dataLength;

    /// <summary>The whole frame length of a command: header, name length octet, name and data.</summary>
    public static int GetFrameLength(int nameLength, int dataLength)
    {
        int bodyLength = GetBodyLength(nameLength, dataLength);
        return ZmtpFrame.GetHeaderLength(bodyLength) + bodyLength;
    }

    /// <summary>Writes a command frame up to the end of its name and returns the offset where the data goes.</summary>
    /// <remarks>
    /// Lets commands whose data is built in place (READY metadata, PING's TTL) avoid a scratch
    /// buffer: the header already counts <paramref name="dataLength"/> data octets, which the
    /// caller must write at the returned offset.
    /// </remarks>
    public static int WriteFramePrefix(Span<byte> destination, ReadOnlySpan<byte> name, int dataLength)
    {
        Debug.Assert(name.Length is > 0 and <= MaxNameLength, "A command name is 1 to 255 octets.");
        Debug.Assert(dataLength >= 0, "Command data cannot have a negative length.");
        int written = ZmtpFrame.WriteHeader(destination, GetBodyLength(name.Length, dataLength), ZmtpFrameFlags.Command);
        destination[written++] = (byte)name.Length;
        name.CopyTo(destination.Slice(written));
        return written + name.Length;
    }

    /// <summary>Writes a whole command frame and returns its length.</summary>
    /// <remarks>RFC 23 §Framing: MORE is never set on a command, and LONG only above 255 body octets.</remarks>
    public static int WriteFrame(Span<byte> destination, ReadOnlySpan<byte> name, ReadOnlySpan<byte> data)
    {
        int written = WriteFramePrefix(destination, name, data.Length);
        data.CopyTo(destination.Slice(written));
        return written + data.Length;
    }
}
