using Managed.Zmq.Tests.Wire.Support;
using Managed.Zmq.Wire;

namespace Managed.Zmq.Tests.Wire;

/// <summary>
/// The NULL handshake's READY command (RFC 23 §The NULL Security Mechanism, §Worked Example,
/// §Connection Metadata; libzmq note docs/libzmq-behaviour.md L6).
/// </summary>
public sealed class ZmtpReadyTests
{
    // RFC 23 §Worked Example: a DEALER with no identity, a 41-octet body.
    private const string DealerReady = "04 29 05 'READY' 0B 'Socket-Type' 00 00 00 06 'DEALER' 08 'Identity' 00 00 00 00";

    // What a libzmq ROUTER sends: the same shape, with an empty Identity (docs/libzmq-behaviour.md L6).
    private const string LibzmqRouterReady = "04 29 05 'READY' 0B 'Socket-Type' 00 00 00 06 'ROUTER' 08 'Identity' 00 00 00 00";

    // RFC 23 §Worked Example's ROUTER reply: Socket-Type only, a 28-octet body.
    private const string RfcRouterReady = "04 1C 05 'READY' 0B 'Socket-Type' 00 00 00 06 'ROUTER'";

    [Theory]
    [InlineData(5, "", DealerReady)]
    [InlineData(6, "", LibzmqRouterReady)]
    [InlineData(3, "abc", "04 29 05 'READY' 0B 'Socket-Type' 00 00 00 03 'REQ' 08 'Identity' 00 00 00 03 'abc'")]
    [InlineData(1, "", "04 19 05 'READY' 0B 'Socket-Type' 00 00 00 03 'PUB'")]
    [InlineData(10, "", "04 1A 05 'READY' 0B 'Socket-Type' 00 00 00 04 'XSUB'")]
    // Only REQ, DEALER and ROUTER send Identity: a PAIR's routing id is not sent (docs/libzmq-behaviour.md L6).
    [InlineData(0, "abc", "04 1A 05 'READY' 0B 'Socket-Type' 00 00 00 04 'PAIR'")]
    public void WriteFrame_SocketType_MatchesGoldenBytes(int socketType, string routingId, string expected)
    {
        var type = (SocketType)socketType;
        byte[] id = System.Text.Encoding.ASCII.GetBytes(routingId);
        var destination = new byte[ZmtpReady.GetFrameLength(type, id)];

        int written = ZmtpReady.WriteFrame(destination, type, id);

        Assert.Equal(destination.Length, written);
        Assert.Equal(WireBytes.ToHex(WireBytes.Parse(expected)), WireBytes.ToHex(destination));
    }

    [Fact]
    public void WriteFrame_Dealer_Is43Octets()
    {
        Assert.Equal(43, ZmtpReady.GetFrameLength(SocketType.Dealer, default));
    }

    [Theory]
    [InlineData(DealerReady, "[READY] type=[DEALER] id=[]")]
    [InlineData(LibzmqRouterReady, "[READY] type=[ROUTER] id=[]")]
    [InlineData(RfcRouterReady, "[READY] type=[ROUTER] id=none")]
    [InlineData("04 06 05 'READY'", "[READY] type=none id=none")]
    // RFC 23 §Connection Metadata: names are case-insensitive on receipt.
    [InlineData("04 2B 05 'READY' 0B 'socket-type' 00 00 00 06 'DEALER' 08 'IDENTITY' 00 00 00 02 'ab'", "[READY] type=[DEALER] id=[ab]")]
    // Other properties are skipped; the value is passed on as sent, even in lower case.
    [InlineData("04 35 05 'READY' 07 'X-Hello' 00 00 00 02 'hi' 08 'Resource' 00 00 00 01 '/' 0B 'Socket-Type' 00 00 00 03 'sub'", "[READY] type=[sub] id=none")]
    // A repeated name: the first occurrence wins.
    [InlineData("04 2C 05 'READY' 0B 'Socket-Type' 00 00 00 03 'PUB' 0B 'Socket-Type' 00 00 00 03 'SUB'", "[READY] type=[PUB] id=none")]
    // A zero-length name is accepted and ignored (docs/libzmq-behaviour.md L6).
    [InlineData("04 0B 05 'READY' 00 00 00 00 00", "[READY] type=none id=none")]
    // A long frame for a short body is legal (RFC 23 §Authentication and Confidentiality).
    [InlineData("06 00 00 00 00 00 00 00 1C 05 'READY' 0B 'Socket-Type' 00 00 00 06 'ROUTER'", "[READY] type=[ROUTER] id=none")]
    public void TryParse_ReadyFrame_DecodesAtEverySplit(string vector, string expected)
    {
        Assert.Equal(expected, SplitFeed.AssertEveryPrefix(WireBytes.Parse(vector), WireDecode.Pending, DecodeReady));
    }

    [Theory]
    [InlineData("05 'READY' 00")]
    [InlineData("05 'READY' 0B 'Socket-Type' 00 00 00 06 'DEALER' 08")]
    [InlineData("05 'READY' 0B 'Socket'")]
    [InlineData("05 'READY' 0B 'Socket-Type' 00 00")]
    [InlineData("05 'READY' 0B 'Socket-Type' 00 00 00 06 'DEAL'")]
    [InlineData("05 'READY' 0B 'Socket-Type' 80 00 00 00 'DEALER'")]
    [InlineData("05 'READY' 0B 'Socket-Type' FF FF FF FF")]
    public void TryParse_MalformedMetadata_ReturnsFalseAtEverySplit(string body)
    {
        Assert.Equal("[READY] malformed", SplitFeed.AssertEveryPrefix(WireBytes.Frame(0x04, body), WireDecode.Pending, DecodeReady));
    }

    [Fact]
    public void WriteFrame_ThenTryParse_RoundTripsEveryType()
    {
        byte[][] ids = [[], "abc"u8.ToArray(), [0x00, 0x01, 0x02, 0x03, 0x04], WireBytes.Pattern(255)];
        for (var type = SocketType.Pair; type <= SocketType.XSub; type++)
        {
            foreach (byte[] id in ids)
            {
                var frame = new byte[ZmtpReady.GetFrameLength(type, id)];
                Assert.Equal(frame.Length, ZmtpReady.WriteFrame(frame, type, id));

                Assert.Equal(ZmtpStatus.Done, ZmtpFrame.TryReadFrame(frame, out ZmtpFrameHeader header, out ReadOnlySpan<byte> body));
                Assert.Equal(frame.Length, header.FrameLength);
                Assert.True(header.IsCommand);
                Assert.True(ZmtpCommandCodec.TryParse(body, out ZmtpCommand command));
                Assert.True(command.Is(ZmtpCommandNames.Ready));
                Assert.True(ZmtpReady.TryParse(command.Data, out ZmtpReadyProperties properties));

                Assert.True(properties.HasSocketType);
                Assert.True(ZmtpSocketTypes.TryParseName(properties.SocketType, out SocketType parsed));
                Assert.Equal(type, parsed);
                Assert.Equal(ZmtpSocketTypes.SendsIdentity(type), properties.HasIdentity);
                Assert.True(properties.Identity.SequenceEqual(ZmtpSocketTypes.SendsIdentity(type) ? id : []));
            }
        }
    }

    [Fact]
    public void WriteMetadata_Dealer_SameBlockAsInsideReady()
    {
        var block = new byte[ZmtpReady.GetMetadataLength(SocketType.Dealer, "id"u8)];

        int written = ZmtpReady.WriteMetadata(block, SocketType.Dealer, "id"u8);

        Assert.Equal(block.Length, written);
        Assert.Equal(
            WireBytes.ToHex(WireBytes.Parse("0B 'Socket-Type' 00 00 00 06 'DEALER' 08 'Identity' 00 00 00 02 'id'")),
            WireBytes.ToHex(block));
    }

    private static string DecodeReady(ReadOnlySpan<byte> received) =>
        WireDecode.Command(received, command =>
        {
            if (!ZmtpReady.TryParse(command.Data, out ZmtpReadyProperties properties))
            {
                return "malformed";
            }

            string type = properties.HasSocketType ? WireBytes.Show(properties.SocketType) : "none";
            string id = properties.HasIdentity ? WireBytes.Show(properties.Identity) : "none";
            return $"type={type} id={id}";
        });
}
