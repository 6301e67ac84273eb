using System.Buffers.Binary;
using System.Text;

namespace Managed.Zmq.Tests.Support;

/// <summary>
/// Hand-built ZMTP 3.x octets for scripted raw peers (RFC 23/37 §Formal Grammar), written here byte
/// by byte rather than with the library's own encoder, so a bug in the encoder cannot hide one in
/// the decoder it is meant to test.
/// </summary>
internal static class ZmtpBytes
{
    public const byte FlagMore = 0x01;
    public const byte FlagLong = 0x02;
    public const byte FlagCommand = 0x04;

    /// <summary>A 64-octet greeting: signature, version, 20-octet NUL-padded mechanism, as-server, filler.</summary>
    public static byte[] Greeting(byte major = 3, byte minor = 1, string mechanism = "NULL", bool asServer = false)
    {
        var greeting = new byte[64];
        greeting[0] = 0xFF;
        greeting[9] = 0x7F;
        greeting[10] = major;
        greeting[11] = minor;
        Encoding.ASCII.GetBytes(mechanism).AsSpan(0, Math.Min(20, mechanism.Length)).CopyTo(greeting.AsSpan(12));
        greeting[32] = asServer ? (byte)1 : (byte)0;
        return greeting;
    }

    /// <summary>One frame; a long header whenever the body exceeds 255 octets.</summary>
    public static byte[] Frame(byte flags, ReadOnlySpan<byte> body)
    {
        if (body.Length <= 255)
        {
            var shortFrame = new byte[2 + body.Length];
            shortFrame[0] = flags;
            shortFrame[1] = (byte)body.Length;
            body.CopyTo(shortFrame.AsSpan(2));
            return shortFrame;
        }

        var longFrame = new byte[9 + body.Length];
        longFrame[0] = (byte)(flags | FlagLong);
        BinaryPrimitives.WriteUInt64BigEndian(longFrame.AsSpan(1), (ulong)body.Length);
        body.CopyTo(longFrame.AsSpan(9));
        return longFrame;
    }

    /// <summary>A long frame header announcing <paramref name="size"/> octets, without any body.</summary>
    public static byte[] LongHeader(ulong size, byte flags = 0)
    {
        var header = new byte[9];
        header[0] = (byte)(flags | FlagLong);
        BinaryPrimitives.WriteUInt64BigEndian(header.AsSpan(1), size);
        return header;
    }

    public static byte[] Message(string text, bool more = false) => Frame(more ? FlagMore : (byte)0, Encoding.UTF8.GetBytes(text));

    /// <summary>A command frame: name length, name, data.</summary>
    public static byte[] Command(string name, ReadOnlySpan<byte> data)
    {
        var body = new byte[1 + name.Length + data.Length];
        body[0] = (byte)name.Length;
        Encoding.ASCII.GetBytes(name).CopyTo(body, 1);
        data.CopyTo(body.AsSpan(1 + name.Length));
        return Frame(FlagCommand, body);
    }

    /// <summary>A metadata property: 1-octet name length, name, 4-octet value length, value.</summary>
    public static byte[] Property(string name, ReadOnlySpan<byte> value)
    {
        var property = new byte[1 + name.Length + 4 + value.Length];
        property[0] = (byte)name.Length;
        Encoding.ASCII.GetBytes(name).CopyTo(property, 1);
        BinaryPrimitives.WriteUInt32BigEndian(property.AsSpan(1 + name.Length), (uint)value.Length);
        value.CopyTo(property.AsSpan(1 + name.Length + 4));
        return property;
    }

    /// <summary>READY with Socket-Type (and any extra properties appended as they are).</summary>
    public static byte[] Ready(string socketType, params byte[][] extraProperties)
    {
        var metadata = new List<byte>(Property("Socket-Type", Encoding.ASCII.GetBytes(socketType)));
        foreach (var extra in extraProperties)
        {
            metadata.AddRange(extra);
        }

        return Command("READY", metadata.ToArray());
    }

    /// <summary>PING with a TTL in deciseconds and a context (RFC 37 §Connection Heartbeating).</summary>
    public static byte[] Ping(ushort ttlDeciseconds, ReadOnlySpan<byte> context)
    {
        var data = new byte[2 + context.Length];
        BinaryPrimitives.WriteUInt16BigEndian(data, ttlDeciseconds);
        context.CopyTo(data.AsSpan(2));
        return Command("PING", data);
    }

    public static byte[] Concat(params byte[][] parts)
    {
        var all = new byte[parts.Sum(p => p.Length)];
        int offset = 0;
        foreach (var part in parts)
        {
            part.CopyTo(all, offset);
            offset += part.Length;
        }

        return all;
    }
}
