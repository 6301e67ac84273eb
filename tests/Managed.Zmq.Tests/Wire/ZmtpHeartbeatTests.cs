using Managed.Zmq.Tests.Wire.Support;
using Managed.Zmq.Wire;

namespace Managed.Zmq.Tests.Wire;

/// <summary>PING and PONG (RFC 37 §Connection Heartbeating; libzmq note docs/libzmq-behaviour.md L13).</summary>
public sealed class ZmtpHeartbeatTests
{
    [Theory]
    // What libzmq sends: TTL only, no context (docs/libzmq-behaviour.md L13).
    [InlineData(0, "", "04 07 04 'PING' 00 00")]
    [InlineData(300, "", "04 07 04 'PING' 01 2C")]
    [InlineData(65535, "", "04 07 04 'PING' FF FF")]
    [InlineData(300, "ctx", "04 0A 04 'PING' 01 2C 'ctx'")]
    [InlineData(1, "0123456789abcdef", "04 17 04 'PING' 00 01 '0123456789abcdef'")]
    public void WritePing_TtlAndContext_MatchesGoldenBytes(int ttl, string context, string expected)
    {
        byte[] contextBytes = System.Text.Encoding.ASCII.GetBytes(context);
        var destination = new byte[ZmtpHeartbeat.GetPingFrameLength(contextBytes.Length)];

        int written = ZmtpHeartbeat.WritePing(destination, (ushort)ttl, contextBytes);

        Assert.Equal(destination.Length, written);
        Assert.Equal(WireBytes.ToHex(WireBytes.Parse(expected)), WireBytes.ToHex(destination));
    }

    [Theory]
    [InlineData("", "04 05 04 'PONG'")]
    [InlineData("ctx", "04 08 04 'PONG' 'ctx'")]
    [InlineData("0123456789abcdef", "04 15 04 'PONG' '0123456789abcdef'")]
    // RFC 37: the echoed context MUST NOT exceed 16 octets.
    [InlineData("0123456789abcdefXYZ", "04 15 04 'PONG' '0123456789abcdef'")]
    public void WritePong_Context_MatchesGoldenBytes(string context, string expected)
    {
        byte[] contextBytes = System.Text.Encoding.ASCII.GetBytes(context);
        var destination = new byte[ZmtpHeartbeat.GetPongFrameLength(contextBytes.Length)];

        int written = ZmtpHeartbeat.WritePong(destination, contextBytes);

        Assert.Equal(destination.Length, written);
        Assert.Equal(WireBytes.ToHex(WireBytes.Parse(expected)), WireBytes.ToHex(destination));
    }

    [Theory]
    [InlineData("04 07 04 'PING' 00 00", "[PING] ttl=0 ctx=[]")]
    [InlineData("04 07 04 'PING' 01 2C", "[PING] ttl=300 ctx=[]")]
    [InlineData("04 0A 04 'PING' FF FF 'ctx'", "[PING] ttl=65535 ctx=[ctx]")]
    [InlineData("04 17 04 'PING' 00 01 '0123456789abcdef'", "[PING] ttl=1 ctx=[0123456789abcdef]")]
    // A context over 16 octets is cut to 16 (docs/libzmq-behaviour.md L13).
    [InlineData("04 1A 04 'PING' 00 01 '0123456789abcdefXYZ'", "[PING] ttl=1 ctx=[0123456789abcdef]")]
    // Fewer than the two TTL octets.
    [InlineData("04 05 04 'PING'", "[PING] malformed")]
    [InlineData("04 06 04 'PING' 01", "[PING] malformed")]
    public void TryParsePing_PingFrame_DecodesAtEverySplit(string vector, string expected)
    {
        string actual = SplitFeed.AssertEveryPrefix(
            WireBytes.Parse(vector),
            WireDecode.Pending,
            received => WireDecode.Command(received, command =>
                ZmtpHeartbeat.TryParsePing(command.Data, out ushort ttl, out ReadOnlySpan<byte> context)
                    ? $"ttl={ttl} ctx={WireBytes.Show(context)}"
                    : "malformed"));

        Assert.Equal(expected, actual);
    }

    [Theory]
    [InlineData("04 05 04 'PONG'", "[PONG] ctx=[]")]
    [InlineData("04 08 04 'PONG' 'ctx'", "[PONG] ctx=[ctx]")]
    public void PongFrame_DecodesAtEverySplit(string vector, string expected)
    {
        string actual = SplitFeed.AssertEveryPrefix(
            WireBytes.Parse(vector),
            WireDecode.Pending,
            received => WireDecode.Command(received, command => $"ctx={WireBytes.Show(command.Data)}"));

        Assert.Equal(expected, actual);
    }

    [Fact]
    public void TryParsePing_ThenWritePong_EchoesContext()
    {
        byte[] ping = new byte[ZmtpHeartbeat.GetPingFrameLength(5)];
        ZmtpHeartbeat.WritePing(ping, 10, "hello"u8);
        ZmtpFrame.TryReadFrame(ping, out _, out ReadOnlySpan<byte> body);
        ZmtpCommandCodec.TryParse(body, out ZmtpCommand command);
        Assert.True(command.Is(ZmtpCommandNames.Ping));
        Assert.True(ZmtpHeartbeat.TryParsePing(command.Data, out ushort ttl, out ReadOnlySpan<byte> context));

        var pong = new byte[ZmtpHeartbeat.GetPongFrameLength(context.Length)];
        ZmtpHeartbeat.WritePong(pong, context);

        Assert.Equal(10, ttl);
        Assert.Equal(WireBytes.ToHex(WireBytes.Parse("04 0A 04 'PONG' 'hello'")), WireBytes.ToHex(pong));
    }

    [Theory]
    [InlineData(-5, 0)]
    [InlineData(0, 0)]
    [InlineData(99, 0)]
    [InlineData(100, 1)]
    [InlineData(199, 1)]
    [InlineData(30000, 300)]
    [InlineData(65500, 655)]
    [InlineData(6553500, 65535)]
    [InlineData(6553599, 65535)]
    [InlineData(6553600, 65535)]
    [InlineData(int.MaxValue, 65535)]
    public void ToTtlDeciseconds_Milliseconds_TruncatesAndClamps(int milliseconds, int expected)
    {
        Assert.Equal(expected, ZmtpHeartbeat.ToTtlDeciseconds(milliseconds));
    }
}
