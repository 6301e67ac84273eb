using Managed.Zmq.Wire;

namespace Managed.Zmq.Tests.Wire;

/// <summary>WebSocket frame headers and masking (RFC 6455 §5.2, §5.3), with the RFC's own examples.</summary>
public sealed class WsFrameTests
{
    // RFC 6455 §5.7: a single-frame masked text message "Hello".
    private static readonly byte[] s_maskedHello = [0x81, 0x85, 0x37, 0xfa, 0x21, 0x3d, 0x7f, 0x9f, 0x4d, 0x51, 0x58];

    [Fact]
    public void TryReadHeader_Rfc6455MaskedHello_DecodesAndUnmasks()
    {
        Assert.Equal(ZmtpStatus.Done, WsFrame.TryReadHeader(s_maskedHello, out var header));

        Assert.True(header.Final);
        Assert.Equal(WsOpcode.Text, header.Opcode);
        Assert.True(header.Masked);
        Assert.Equal(5, header.PayloadLength);
        Assert.Equal(6, header.HeaderLength);
        byte[] payload = s_maskedHello[6..];
        WsFrame.Mask(payload, header.MaskKey, 0);
        Assert.Equal("Hello"u8.ToArray(), payload);
    }

    [Fact]
    public void WriteHeader_Rfc6455UnmaskedPing_MatchesExample()
    {
        // RFC 6455 §5.7: an unmasked ping with "Hello" is 0x89 0x05 then the payload.
        var header = new byte[WsFrame.MaxHeaderLength];

        int length = WsFrame.WriteHeader(header, WsOpcode.Ping, 5, masked: false, maskKey: 0);

        Assert.Equal([0x89, 0x05], header[..length]);
    }

    [Theory]
    [InlineData(0L, false, 2)]
    [InlineData(125L, false, 2)]
    [InlineData(126L, false, 4)]
    [InlineData(65535L, false, 4)]
    [InlineData(65536L, false, 10)]
    [InlineData(125L, true, 6)]
    [InlineData(126L, true, 8)]
    [InlineData(1L << 40, true, 14)]
    public void WriteHeader_EachLengthForm_ReadsBackTheSame(long payloadLength, bool masked, int expectedLength)
    {
        var buffer = new byte[WsFrame.MaxHeaderLength];

        int written = WsFrame.WriteHeader(buffer, WsOpcode.Binary, payloadLength, masked, 0xA1B2C3D4);

        Assert.Equal(expectedLength, written);
        Assert.Equal(expectedLength, WsFrame.GetHeaderLength(payloadLength, masked));
        Assert.Equal(ZmtpStatus.Done, WsFrame.TryReadHeader(buffer.AsSpan(0, written), out var header));
        Assert.Equal((true, WsOpcode.Binary, masked, payloadLength, written), (header.Final, header.Opcode, header.Masked, header.PayloadLength, header.HeaderLength));
        Assert.Equal(masked ? 0xA1B2C3D4 : 0u, header.MaskKey);
    }

    [Fact]
    public void TryReadHeader_EveryShortPrefix_NeedsMoreData()
    {
        var buffer = new byte[WsFrame.MaxHeaderLength];
        int written = WsFrame.WriteHeader(buffer, WsOpcode.Binary, 1L << 20, masked: true, 7);

        for (int i = 0; i < written; i++)
        {
            Assert.Equal(ZmtpStatus.NeedMoreData, WsFrame.TryReadHeader(buffer.AsSpan(0, i), out _));
        }
    }

    [Theory]
    [InlineData(new byte[] { 0xC2, 0x01 })] // RSV1 set: no extension was negotiated
    [InlineData(new byte[] { 0x89, 0x7E, 0x00, 0x7E })] // a 126-octet ping: control payloads stop at 125
    [InlineData(new byte[] { 0x09, 0x00 })] // a fragmented ping: control frames are never fragmented
    [InlineData(new byte[] { 0x82, 0x7F, 0x80, 0, 0, 0, 0, 0, 0, 0 })] // a 64-bit length with its top bit set
    public void TryReadHeader_BrokenHeader_Malformed(byte[] bytes)
    {
        Assert.Equal(ZmtpStatus.Malformed, WsFrame.TryReadHeader(bytes, out _));
    }

    [Fact]
    public void Mask_InPiecesAtAnyOffset_EqualsWhole()
    {
        byte[] data = Enumerable.Range(0, 100).Select(i => (byte)(i * 7)).ToArray();
        byte[] whole = data.ToArray();
        WsFrame.Mask(whole, 0x11223344, 0);

        for (int split = 1; split < 20; split++)
        {
            byte[] pieces = data.ToArray();
            WsFrame.Mask(pieces.AsSpan(0, split), 0x11223344, 0);
            WsFrame.Mask(pieces.AsSpan(split), 0x11223344, split);
            Assert.Equal(whole, pieces);
        }

        // Masking twice restores the data (XOR).
        WsFrame.Mask(whole, 0x11223344, 0);
        Assert.Equal(data, whole);
    }

    [Fact]
    public void Mask_CopyFormAnyLengthAndOffset_MatchesOctetByOctetDefinition()
    {
        // RFC 6455 §5.3: octet i of the payload is XORed with key octet i mod 4; the key's octets are in wire
        // order, which WriteHeader puts as the key's little-endian bytes. Lengths cross every vector width.
        const uint key = 0xA1B2C3D4;
        for (int length = 0; length <= 200; length++)
        {
            byte[] source = Enumerable.Range(0, length).Select(i => (byte)(i * 13 + 5)).ToArray();
            for (int offset = 0; offset < 8; offset++)
            {
                byte[] expected = source.Select((b, i) => (byte)(b ^ (byte)(key >> (((offset + i) & 3) * 8)))).ToArray();
                byte[] copied = new byte[length + 3];
                WsFrame.Mask(source, copied, key, offset);
                byte[] inPlace = source.ToArray();
                WsFrame.Mask(inPlace, key, offset);

                Assert.Equal(expected, copied.AsSpan(0, length).ToArray());
                Assert.Equal(new byte[3], copied.AsSpan(length).ToArray());
                Assert.Equal(expected, inPlace);
            }
        }
    }

    [Fact]
    public void Mask_DestinationShorterThanSource_Throws()
    {
        Assert.Throws<ArgumentException>(() => WsFrame.Mask(new byte[8], new byte[7], 1, 0));
    }

    [Fact]
    public void ZwsFlags_MoreAndCommand_MapToZmtpAndBack()
    {
        // ZMTP: MORE 0x01, LONG 0x02, COMMAND 0x04; ZWS 2.0: MORE 0x01, COMMAND 0x02, no size.
        Assert.Equal(0x01, WsFrame.ToZwsFlags(ZmtpFrameFlags.More | ZmtpFrameFlags.Long));
        Assert.Equal(0x02, WsFrame.ToZwsFlags(ZmtpFrameFlags.Command | ZmtpFrameFlags.Long));
        Assert.Equal(ZmtpFrameFlags.More, WsFrame.FromZwsFlags(0x01));
        Assert.Equal(ZmtpFrameFlags.Command, WsFrame.FromZwsFlags(0x02));
        Assert.Equal(ZmtpFrameFlags.More | ZmtpFrameFlags.Command, WsFrame.FromZwsFlags(0xFF));
    }
}
