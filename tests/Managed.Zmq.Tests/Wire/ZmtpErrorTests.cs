using Managed.Zmq.Tests.Wire.Support;
using Managed.Zmq.Wire;

namespace Managed.Zmq.Tests.Wire;

/// <summary>The ERROR command (RFC 23 §The NULL Security Mechanism, §Error Handling; libzmq notes docs/libzmq-behaviour.md L7, docs/libzmq-behaviour.md L15).</summary>
public sealed class ZmtpErrorTests
{
    [Theory]
    // libzmq's only use of ERROR: a ZAP status code (docs/libzmq-behaviour.md L7).
    [InlineData("400", "04 0A 05 'ERROR' 03 '400'")]
    [InlineData("", "04 07 05 'ERROR' 00")]
    [InlineData("Bad-Socket-Type", "04 16 05 'ERROR' 0F 'Bad-Socket-Type'")]
    public void WriteFrame_Reason_MatchesGoldenBytes(string reason, string expected)
    {
        byte[] reasonBytes = System.Text.Encoding.ASCII.GetBytes(reason);
        var destination = new byte[ZmtpError.GetFrameLength(reasonBytes.Length)];

        int written = ZmtpError.WriteFrame(destination, reasonBytes);

        Assert.Equal(destination.Length, written);
        Assert.Equal(WireBytes.ToHex(WireBytes.Parse(expected)), WireBytes.ToHex(destination));
    }

    [Fact]
    public void WriteFrame_MaximumReason_UsesLongFrameAndRoundTrips()
    {
        byte[] reason = WireBytes.Pattern(255);
        var destination = new byte[ZmtpError.GetFrameLength(reason.Length)];

        ZmtpError.WriteFrame(destination, reason);

        Assert.Equal(9 + 1 + 5 + 1 + 255, destination.Length);
        Assert.Equal(0x06, destination[0]);
        Assert.Equal("[ERROR] reason=" + WireBytes.Show(reason), DecodeError(destination));
    }

    [Theory]
    [InlineData("04 0A 05 'ERROR' 03 '400'", "[ERROR] reason=[400]")]
    [InlineData("04 07 05 'ERROR' 00", "[ERROR] reason=[]")]
    // Octets after the reason are tolerated.
    [InlineData("04 0C 05 'ERROR' 03 '500' 'xx'", "[ERROR] reason=[500]")]
    [InlineData("04 06 05 'ERROR'", "[ERROR] malformed")]
    [InlineData("04 09 05 'ERROR' 03 '40'", "[ERROR] malformed")]
    [InlineData("04 07 05 'ERROR' FF", "[ERROR] malformed")]
    public void TryParse_ErrorFrame_DecodesAtEverySplit(string vector, string expected)
    {
        string actual = SplitFeed.AssertEveryPrefix(WireBytes.Parse(vector), WireDecode.Pending, DecodeError);

        Assert.Equal(expected, actual);
    }

    private static string DecodeError(ReadOnlySpan<byte> received) =>
        WireDecode.Command(received, command =>
            ZmtpError.TryParse(command.Data, out ReadOnlySpan<byte> reason) ? $"reason={WireBytes.Show(reason)}" : "malformed");
}
