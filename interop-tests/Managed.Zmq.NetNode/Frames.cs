using System.Text;

namespace Managed.Zmq.NetNode;

/// <summary>
/// How frames travel in the line protocol (shared with netnode.py): one token per frame, "~" for an
/// empty frame, "0x" + hex for a frame that is not plain printable ASCII, the text otherwise.
/// </summary>
public static class Frames
{
    public static string Encode(ReadOnlySpan<byte> frame)
    {
        if (frame.IsEmpty)
        {
            return "~";
        }

        bool plain = !(frame.Length >= 2 && frame[0] == (byte)'0' && frame[1] == (byte)'x') && frame[0] != (byte)'~';
        foreach (byte b in frame)
        {
            plain &= b is > 0x20 and < 0x7f;
        }

        return plain ? Encoding.ASCII.GetString(frame) : "0x" + Convert.ToHexString(frame);
    }

    public static byte[] Decode(string token) =>
        token == "~" ? [] :
        token.StartsWith("0x", StringComparison.Ordinal) ? Convert.FromHexString(token.AsSpan(2)) :
        Encoding.ASCII.GetBytes(token);
}
