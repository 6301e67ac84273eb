using Managed.Zmq.Tests.Wire.Support;
using Managed.Zmq.Wire;

namespace Managed.Zmq.Tests.Wire;

/// <summary>
/// SUBSCRIBE/CANCEL commands (ZMTP 3.1) and 0x01/0x00 messages (ZMTP 3.0)
/// (RFC 23 and RFC 37 §The Publish-Subscribe Pattern; libzmq notes docs/libzmq-behaviour.md L10, docs/libzmq-behaviour.md L12).
/// </summary>
public sealed class ZmtpSubscriptionTests
{
    [Theory]
    [InlineData(true, "A", "04 0B 09 'SUBSCRIBE' 'A'")]
    [InlineData(true, "", "04 0A 09 'SUBSCRIBE'")]
    [InlineData(false, "A", "04 08 06 'CANCEL' 'A'")]
    [InlineData(false, "", "04 07 06 'CANCEL'")]
    [InlineData(true, "weather.", "04 12 09 'SUBSCRIBE' 'weather.'")]
    public void WriteCommandFrame_Topic_MatchesGoldenBytes(bool subscribe, string topic, string expected)
    {
        byte[] topicBytes = System.Text.Encoding.ASCII.GetBytes(topic);
        var destination = new byte[ZmtpSubscription.GetCommandFrameLength(subscribe, topicBytes.Length)];

        int written = ZmtpSubscription.WriteCommandFrame(destination, subscribe, topicBytes);

        Assert.Equal(destination.Length, written);
        Assert.Equal(WireBytes.ToHex(WireBytes.Parse(expected)), WireBytes.ToHex(destination));
    }

    [Theory]
    [InlineData(true, "A", "00 02 01 'A'")]
    [InlineData(false, "A", "00 02 00 'A'")]
    [InlineData(true, "", "00 01 01")]
    [InlineData(false, "", "00 01 00")]
    public void WriteMessageFrame_Topic_MatchesGoldenBytes(bool subscribe, string topic, string expected)
    {
        byte[] topicBytes = System.Text.Encoding.ASCII.GetBytes(topic);
        var destination = new byte[ZmtpSubscription.GetMessageFrameLength(topicBytes.Length)];

        int written = ZmtpSubscription.WriteMessageFrame(destination, subscribe, topicBytes);

        Assert.Equal(destination.Length, written);
        Assert.Equal(WireBytes.ToHex(WireBytes.Parse(expected)), WireBytes.ToHex(destination));
    }

    [Theory]
    // The topic lengths around which some libzmq encoders forget LONG (docs/libzmq-behaviour.md L10): we must not.
    [InlineData(true, 245, 0x04)]
    [InlineData(true, 246, 0x06)]
    [InlineData(false, 248, 0x04)]
    [InlineData(false, 249, 0x06)]
    public void WriteCommandFrame_AroundShortLimit_SetsLongAbove255BodyOctets(bool subscribe, int topicLength, byte expectedFlags)
    {
        byte[] topic = WireBytes.Pattern(topicLength);
        var destination = new byte[ZmtpSubscription.GetCommandFrameLength(subscribe, topic.Length)];

        ZmtpSubscription.WriteCommandFrame(destination, subscribe, topic);

        Assert.Equal(expectedFlags, destination[0]);
        Assert.Equal((subscribe ? "[SUBSCRIBE] " : "[CANCEL] ") + $"{subscribe} {WireBytes.Show(topic)}", DecodeCommand(destination));
    }

    [Theory]
    [InlineData(254, 0x00)]
    [InlineData(255, 0x02)]
    [InlineData(1000, 0x02)]
    public void WriteMessageFrame_AroundShortLimit_CountsPrefixOctet(int topicLength, byte expectedFlags)
    {
        byte[] topic = WireBytes.Pattern(topicLength);
        var destination = new byte[ZmtpSubscription.GetMessageFrameLength(topic.Length)];

        ZmtpSubscription.WriteMessageFrame(destination, subscribe: true, topic);

        Assert.Equal(expectedFlags, destination[0]);
        Assert.Equal($"True {WireBytes.Show(topic)}", DecodeMessage(destination));
    }

    [Theory]
    [InlineData("04 0B 09 'SUBSCRIBE' 'A'", "[SUBSCRIBE] True [A]")]
    [InlineData("04 0A 09 'SUBSCRIBE'", "[SUBSCRIBE] True []")]
    [InlineData("04 08 06 'CANCEL' 'A'", "[CANCEL] False [A]")]
    [InlineData("04 07 06 'CANCEL'", "[CANCEL] False []")]
    [InlineData("04 0D 09 'SUBSCRIBE' 00 01 FF", "[SUBSCRIBE] True [\\x00\\x01\\xFF]")]
    [InlineData("04 07 04 'PING' 00 00", "[PING] other")]
    [InlineData("04 0B 09 'subscribe' 'A'", "[subscribe] other")]
    public void TryParseCommand_CommandFrame_DecodesAtEverySplit(string vector, string expected)
    {
        Assert.Equal(expected, SplitFeed.AssertEveryPrefix(WireBytes.Parse(vector), WireDecode.Pending, DecodeCommand));
    }

    [Theory]
    [InlineData("00 02 01 'A'", "True [A]")]
    [InlineData("00 02 00 'A'", "False [A]")]
    [InlineData("00 01 01", "True []")]
    [InlineData("00 01 00", "False []")]
    // A long frame must be accepted for a subscription message too (RFC 37: any frame may use the long size).
    [InlineData("02 00 00 00 00 00 00 00 03 01 'AB'", "True [AB]")]
    [InlineData("00 00", "other")]
    [InlineData("00 02 02 'A'", "other")]
    [InlineData("00 02 'AB'", "other")]
    public void TryParseMessage_MessageFrame_DecodesAtEverySplit(string vector, string expected)
    {
        Assert.Equal(expected, SplitFeed.AssertEveryPrefix(WireBytes.Parse(vector), WireDecode.Pending, DecodeMessage));
    }

    private static string DecodeCommand(ReadOnlySpan<byte> received) =>
        WireDecode.Command(received, command =>
            ZmtpSubscription.TryParseCommand(command, out bool subscribe, out ReadOnlySpan<byte> topic)
                ? $"{subscribe} {WireBytes.Show(topic)}"
                : "other");

    private static string DecodeMessage(ReadOnlySpan<byte> received) =>
        WireDecode.Frame(received, (header, body) =>
            ZmtpSubscription.TryParseMessage(body, out bool subscribe, out ReadOnlySpan<byte> topic)
                ? $"{subscribe} {WireBytes.Show(topic)}"
                : "other");
}
