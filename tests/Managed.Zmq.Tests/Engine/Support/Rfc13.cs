using System.Buffers.Binary;
using System.Text;
using Managed.Zmq.Tests.Support;

namespace Managed.Zmq.Tests.Engine.Support;

/// <summary>
/// RFC 13's bytes, written out by hand for a scripted ZMTP 1.0 peer (independent of the library's own encoder):
/// a frame is its length (body + the flags octet; one octet below 255, else 0xFF and 8 octets big-endian), the
/// flags octet (bit 0 MORE), the body.
/// </summary>
internal static class Rfc13
{
    /// <summary>What libzmq and we send first, before knowing the peer's version: FF, routing id length + 1, 7F.</summary>
    public static byte[] Signature(int routingIdLength = 0)
    {
        var signature = new byte[10];
        signature[0] = 0xFF;
        BinaryPrimitives.WriteUInt64BigEndian(signature.AsSpan(1, 8), (ulong)routingIdLength + 1);
        signature[9] = 0x7F;
        return signature;
    }

    public static byte[] Frame(string text, bool more = false) => Frame(Encoding.ASCII.GetBytes(text), more);

    public static byte[] Frame(byte[] body, bool more = false)
    {
        long length = body.Length + 1L;
        byte flags = more ? (byte)1 : (byte)0;
        byte[] header = length < 255 ? [(byte)length, flags] : [0xFF, .. BigEndian(length), flags];
        return [.. header, .. body];
    }

    /// <summary>A whole message: every frame but the last with MORE.</summary>
    public static byte[] Message(params string[] frames) =>
        [.. frames.SelectMany((frame, i) => Frame(frame, more: i < frames.Length - 1))];

    /// <summary>Reads one RFC 13 frame from the peer: (MORE, body).</summary>
    public static (bool More, byte[] Body) ReadFrame(RawPeer peer)
    {
        long length = peer.ReadExactly(1)[0];
        if (length == 0xFF)
        {
            length = (long)BinaryPrimitives.ReadUInt64BigEndian(peer.ReadExactly(8));
        }

        byte flags = peer.ReadExactly(1)[0];
        return ((flags & 1) != 0, peer.ReadExactly((int)length - 1));
    }

    /// <summary>Reads one whole message as text frames.</summary>
    public static List<string> ReadMessage(RawPeer peer)
    {
        var frames = new List<string>();
        bool more = true;
        while (more)
        {
            (more, byte[] body) = ReadFrame(peer);
            frames.Add(Encoding.ASCII.GetString(body));
        }

        return frames;
    }

    /// <summary>Every frame of the next message a socket receives, as text.</summary>
    public static List<string> Receive(Socket socket)
    {
        var frames = new List<string> { socket.RecvString() };
        while (socket.HasMore)
        {
            frames.Add(socket.RecvString());
        }

        return frames;
    }

    private static byte[] BigEndian(long value)
    {
        var bytes = new byte[8];
        BinaryPrimitives.WriteUInt64BigEndian(bytes, (ulong)value);
        return bytes;
    }
}
