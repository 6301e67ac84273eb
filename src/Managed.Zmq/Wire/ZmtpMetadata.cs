using System.Buffers.Binary;
using System.Diagnostics;

namespace Managed.Zmq.Wire;

/// <summary>Writes connection-metadata properties (RFC 23 §The NULL Security Mechanism: property = name value).</summary>
internal static class ZmtpMetadata
{
    /// <summary>The longest property name: its length travels in one octet.</summary>
    public const int MaxNameLength = byte.MaxValue;

    /// <summary>The largest value length the RFC allows: 2^31-1.</summary>
    public const int MaxValueLength = int.MaxValue;

    /// <summary>The encoded length of one property: name length octet, name, 4-octet value length, value.</summary>
    public static int GetPropertyLength(int nameLength, int valueLength) => 1 + nameLength + sizeof(uint) + valueLength;

    /// <summary>Writes one property and returns its encoded length.</summary>
    public static int WriteProperty(Span<byte> destination, ReadOnlySpan<byte> name, ReadOnlySpan<byte> value)
    {
        // RFC 23 §The NULL Security Mechanism: names are 1 to 255 characters. We never send an
        // empty one even though libzmq would accept it (docs/libzmq-behaviour.md L6).
        Debug.Assert(name.Length is > 0 and <= MaxNameLength, "A property name is 1 to 255 octets.");
        destination[0] = (byte)name.Length;
        name.CopyTo(destination.Slice(1));
        int offset = 1 + name.Length;

        // RFC 23 §The NULL Security Mechanism: the value size is four octets in network byte order.
        BinaryPrimitives.WriteUInt32BigEndian(destination.Slice(offset, sizeof(uint)), (uint)value.Length);
        offset += sizeof(uint);
        value.CopyTo(destination.Slice(offset));
        return offset + value.Length;
    }
}
