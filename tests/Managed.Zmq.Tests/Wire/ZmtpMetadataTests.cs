using Managed.Zmq.Tests.Wire.Support;
using Managed.Zmq.Wire;

namespace Managed.Zmq.Tests.Wire;

/// <summary>Writing one metadata property (RFC 23 §The NULL Security Mechanism: property = name value).</summary>
public sealed class ZmtpMetadataTests
{
    [Theory]
    [InlineData(11, 6, 22)]
    [InlineData(8, 0, 13)]
    [InlineData(255, 0, 260)]
    public void GetPropertyLength_Lengths_NameLengthOctetPlusFourOctetValueLength(int nameLength, int valueLength, int expected)
    {
        Assert.Equal(expected, ZmtpMetadata.GetPropertyLength(nameLength, valueLength));
    }

    [Fact]
    public void WriteProperty_SocketType_MatchesWorkedExample()
    {
        var destination = new byte[ZmtpMetadata.GetPropertyLength(11, 6)];

        int written = ZmtpMetadata.WriteProperty(destination, "Socket-Type"u8, "DEALER"u8);

        Assert.Equal(destination.Length, written);
        Assert.Equal(WireBytes.ToHex(WireBytes.Parse("0B 'Socket-Type' 00 00 00 06 'DEALER'")), WireBytes.ToHex(destination));
    }

    [Fact]
    public void WriteProperty_EmptyValue_WritesZeroLength()
    {
        var destination = new byte[ZmtpMetadata.GetPropertyLength(8, 0)];

        ZmtpMetadata.WriteProperty(destination, "Identity"u8, default);

        Assert.Equal(WireBytes.ToHex(WireBytes.Parse("08 'Identity' 00 00 00 00")), WireBytes.ToHex(destination));
    }

    [Fact]
    public void WriteProperty_LargeValue_BigEndianLength()
    {
        byte[] value = WireBytes.Pattern(0x010203);
        var destination = new byte[ZmtpMetadata.GetPropertyLength(5, value.Length)];

        ZmtpMetadata.WriteProperty(destination, "X-Big"u8, value);

        Assert.Equal("00010203", WireBytes.ToHex(destination.AsSpan(6, 4)));
    }

    [Fact]
    public void WriteProperty_Several_ReadBackInOrder()
    {
        (string Name, byte[] Value)[] properties =
        [
            ("Socket-Type", "ROUTER"u8.ToArray()),
            ("Identity", []),
            ("X-Custom", WireBytes.Pattern(300)),
            (new string('N', 255), [0, 1, 2]),
        ];
        int length = 0;
        foreach ((string name, byte[] value) in properties)
        {
            length += ZmtpMetadata.GetPropertyLength(name.Length, value.Length);
        }

        var block = new byte[length];
        int offset = 0;
        foreach ((string name, byte[] value) in properties)
        {
            offset += ZmtpMetadata.WriteProperty(block.AsSpan(offset), System.Text.Encoding.ASCII.GetBytes(name), value);
        }

        var reader = new ZmtpMetadataReader(block);
        foreach ((string name, byte[] value) in properties)
        {
            Assert.True(reader.TryReadNext(out ReadOnlySpan<byte> readName, out ReadOnlySpan<byte> readValue));
            Assert.Equal(name, System.Text.Encoding.ASCII.GetString(readName));
            Assert.True(readValue.SequenceEqual(value));
        }

        Assert.Equal(length, offset);
        Assert.False(reader.TryReadNext(out _, out _));
        Assert.False(reader.IsMalformed);
    }
}
