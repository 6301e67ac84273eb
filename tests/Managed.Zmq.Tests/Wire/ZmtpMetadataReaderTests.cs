using Managed.Zmq.Tests.Wire.Support;
using Managed.Zmq.Wire;

namespace Managed.Zmq.Tests.Wire;

/// <summary>
/// Reading metadata blocks, including every way one can be malformed
/// (RFC 23 §The NULL Security Mechanism; libzmq note docs/libzmq-behaviour.md L6).
/// </summary>
public sealed class ZmtpMetadataReaderTests
{
    [Theory]
    [InlineData("", "end")]
    [InlineData("0B 'Socket-Type' 00 00 00 06 'DEALER'", "[Socket-Type]=[DEALER] end")]
    [InlineData("0B 'Socket-Type' 00 00 00 06 'DEALER' 08 'Identity' 00 00 00 00", "[Socket-Type]=[DEALER] [Identity]=[] end")]
    [InlineData("08 'Identity' 00 00 00 03 00 01 02", "[Identity]=[\\x00\\x01\\x02] end")]
    // Zero-length names are accepted, as libzmq accepts them (docs/libzmq-behaviour.md L6).
    [InlineData("00 00 00 00 01 'x'", "[]=[x] end")]
    [InlineData("00 00 00 00 00", "[]=[] end")]
    public void TryReadNext_WellFormed_ReadsEveryProperty(string block, string expected)
    {
        Assert.Equal(expected, ReadAll(WireBytes.Parse(block)));
    }

    [Theory]
    // A stray octet after the last property.
    [InlineData("0B 'Socket-Type' 00 00 00 03 'PUB' 00", "[Socket-Type]=[PUB] malformed")]
    [InlineData("0B 'Socket-Type' 00 00 00 03 'PUB' 05", "[Socket-Type]=[PUB] malformed")]
    [InlineData("00", "malformed")]
    // The name runs past the end.
    [InlineData("0B 'Socket'", "malformed")]
    // A truncated value length.
    [InlineData("0B 'Socket-Type' 00 00", "malformed")]
    [InlineData("0B 'Socket-Type' 00 00 00", "malformed")]
    [InlineData("0B 'Socket-Type'", "malformed")]
    // The value runs past the end.
    [InlineData("0B 'Socket-Type' 00 00 00 06 'DEAL'", "malformed")]
    [InlineData("08 'Identity' 00 00 00 00 0B 'Socket-Type' 00 00 00 07 'DEALER'", "[Identity]=[] malformed")]
    [InlineData("01 'A' 7F FF FF FF 'abc'", "malformed")]
    // A value length of 2^31 or more, whatever follows.
    [InlineData("01 'A' 80 00 00 00", "malformed")]
    [InlineData("01 'A' 80 00 00 00 'abc'", "malformed")]
    [InlineData("01 'A' FF FF FF FF", "malformed")]
    public void TryReadNext_Malformed_StopsAndReports(string block, string expected)
    {
        Assert.Equal(expected, ReadAll(WireBytes.Parse(block)));
    }

    [Fact]
    public void TryReadNext_AfterMalformed_KeepsReturningFalse()
    {
        var reader = new ZmtpMetadataReader(WireBytes.Parse("01 'A' 00 00 00 20 'short' 01 'B' 00 00 00 00"));

        Assert.False(reader.TryReadNext(out _, out _));
        Assert.True(reader.IsMalformed);
        Assert.False(reader.TryReadNext(out ReadOnlySpan<byte> name, out ReadOnlySpan<byte> value));
        Assert.True(reader.IsMalformed);
        Assert.True(name.IsEmpty);
        Assert.True(value.IsEmpty);
    }

    [Fact]
    public void TryReadNext_AtCleanEnd_NotMalformed()
    {
        var reader = new ZmtpMetadataReader(WireBytes.Parse("01 'A' 00 00 00 00"));

        Assert.True(reader.TryReadNext(out _, out _));
        Assert.False(reader.TryReadNext(out _, out _));
        Assert.False(reader.TryReadNext(out _, out _));
        Assert.False(reader.IsMalformed);
    }

    private static string ReadAll(ReadOnlySpan<byte> block)
    {
        var reader = new ZmtpMetadataReader(block);
        var parts = new List<string>();
        while (reader.TryReadNext(out ReadOnlySpan<byte> name, out ReadOnlySpan<byte> value))
        {
            parts.Add($"{WireBytes.Show(name)}={WireBytes.Show(value)}");
        }

        parts.Add(reader.IsMalformed ? "malformed" : "end");
        return string.Join(' ', parts);
    }
}
