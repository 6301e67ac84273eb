using System.Globalization;
using System.Text;

namespace Managed.Zmq.Tests.Wire.Support;

/// <summary>
/// Builds byte vectors from the notation the RFC diagrams use, so a golden vector in a test reads
/// like the spec: <c>"04 29 05 'READY' 00*16"</c>.
/// </summary>
/// <remarks>
/// Tokens are separated by spaces: a two-digit hex octet, a hex octet repeated with <c>*count</c>,
/// or ASCII text in single quotes (which may not itself contain a quote or a space).
/// </remarks>
internal static class WireBytes
{
    public static byte[] Parse(string notation)
    {
        var bytes = new List<byte>();
        foreach (string token in notation.Split(' ', StringSplitOptions.RemoveEmptyEntries))
        {
            if (token.Length >= 2 && token[0] == '\'' && token[^1] == '\'')
            {
                bytes.AddRange(Encoding.ASCII.GetBytes(token[1..^1]));
                continue;
            }

            int star = token.IndexOf('*', StringComparison.Ordinal);
            byte value = byte.Parse(star < 0 ? token : token[..star], NumberStyles.HexNumber, CultureInfo.InvariantCulture);
            int count = star < 0 ? 1 : int.Parse(token[(star + 1)..], CultureInfo.InvariantCulture);
            for (int i = 0; i < count; i++)
            {
                bytes.Add(value);
            }
        }

        return bytes.ToArray();
    }

    /// <summary>Renders octets as spaced hex so that failed comparisons of wire output are readable.</summary>
    public static string ToHex(ReadOnlySpan<byte> bytes) => Convert.ToHexString(bytes);

    /// <summary>Renders octets as ASCII where printable, for result strings.</summary>
    public static string Show(ReadOnlySpan<byte> bytes)
    {
        var text = new StringBuilder(bytes.Length + 2);
        text.Append('[');
        foreach (byte b in bytes)
        {
            if (b is >= 0x20 and < 0x7F && b != (byte)'\\')
            {
                text.Append((char)b);
            }
            else
            {
                text.Append(CultureInfo.InvariantCulture, $"\\x{b:X2}");
            }
        }

        text.Append(']');
        return text.ToString();
    }

    /// <summary>An array of <paramref name="length"/> octets with recognisable contents.</summary>
    public static byte[] Pattern(int length)
    {
        var bytes = new byte[length];
        for (int i = 0; i < length; i++)
        {
            bytes[i] = (byte)('a' + (i % 26));
        }

        return bytes;
    }

    /// <summary>Prepends the frame header the encoder would use, so malformed-body vectors need no hand-counted sizes.</summary>
    public static byte[] Frame(byte flags, string bodyNotation)
    {
        byte[] body = Parse(bodyNotation);
        var frame = new byte[Managed.Zmq.Wire.ZmtpFrame.GetHeaderLength(body.Length) + body.Length];
        int written = Managed.Zmq.Wire.ZmtpFrame.WriteHeader(frame, body.Length, (Managed.Zmq.Wire.ZmtpFrameFlags)flags);
        body.CopyTo(frame, written);
        return frame;
    }
}
