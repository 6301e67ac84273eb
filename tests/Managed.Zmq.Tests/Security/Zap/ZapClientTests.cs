using System.Text;
using Managed.Zmq.Security;
using Managed.Zmq.Wire;
using static Managed.Zmq.Tests.Security.Support.MechanismHarness;
using Managed.Zmq.Security.Zap;

namespace Managed.Zmq.Tests.Security.Zap;

/// <summary>ZAP request frames and reply checks (RFC 27; docs/libzmq-behaviour.md L21).</summary>
public sealed class ZapClientTests
{
    [Fact]
    public void BuildRequest_Curve_MatchesLibzmqLayout()
    {
        byte[] key = Enumerable.Range(0, 32).Select(i => (byte)i).ToArray();

        byte[][] frames = ZapClient.BuildRequest([], "::1", "id"u8, ZmtpMechanism.Curve, key);

        Assert.Equal(7, frames.Length);
        Assert.Equal(["1.0", "1", "", "::1", "id", "CURVE"], frames.Take(6).Select(f => Encoding.ASCII.GetString(f)));
        Assert.Equal(key, frames[6]);
    }

    [Fact]
    public void ParseReply_WellFormed_ReturnsStatusUserAndMetadata()
    {
        byte[] metadata = new byte[ZmtpMetadata.GetPropertyLength(3, 1)];
        ZmtpMetadata.WriteProperty(metadata, "X-A"u8, "b"u8);

        ZapReply reply = ZapClient.ParseReply(Reply("200", "bob", metadata));

        Assert.True(reply.IsWellFormed);
        Assert.Equal(200, reply.StatusCode);
        Assert.Equal("bob", reply.UserId);
        Assert.Equal("b"u8.ToArray(), reply.Metadata["x-a"]);
    }

    [Theory]
    [InlineData("300", 300)]
    [InlineData("400", 400)]
    [InlineData("500", 500)]
    public void ParseReply_RefusalStatus_IsWellFormed(string status, int expected)
    {
        Assert.Equal(expected, ZapClient.ParseReply(Reply(status)).StatusCode);
    }

    [Theory]
    [InlineData(6, ZmqConstants.ZMQ_PROTOCOL_ERROR_ZAP_MALFORMED_REPLY)]
    [InlineData(8, ZmqConstants.ZMQ_PROTOCOL_ERROR_ZAP_MALFORMED_REPLY)]
    [InlineData(0, ZmqConstants.ZMQ_PROTOCOL_ERROR_ZAP_MALFORMED_REPLY)]
    public void ParseReply_WrongFrameCount_IsMalformedReply(int count, int expected)
    {
        var frames = Reply("200").Concat([[]]).Take(count).ToArray();

        Assert.Equal(expected, ZapClient.ParseReply(frames).ProtocolError);
    }

    [Theory]
    [InlineData(0, "x", ZmqConstants.ZMQ_PROTOCOL_ERROR_ZAP_UNSPECIFIED)]
    [InlineData(1, "1.1", ZmqConstants.ZMQ_PROTOCOL_ERROR_ZAP_BAD_VERSION)]
    [InlineData(1, "", ZmqConstants.ZMQ_PROTOCOL_ERROR_ZAP_BAD_VERSION)]
    [InlineData(2, "2", ZmqConstants.ZMQ_PROTOCOL_ERROR_ZAP_BAD_REQUEST_ID)]
    [InlineData(2, "11", ZmqConstants.ZMQ_PROTOCOL_ERROR_ZAP_BAD_REQUEST_ID)]
    [InlineData(3, "250", ZmqConstants.ZMQ_PROTOCOL_ERROR_ZAP_INVALID_STATUS_CODE)]
    [InlineData(3, "600", ZmqConstants.ZMQ_PROTOCOL_ERROR_ZAP_INVALID_STATUS_CODE)]
    [InlineData(3, "100", ZmqConstants.ZMQ_PROTOCOL_ERROR_ZAP_INVALID_STATUS_CODE)]
    [InlineData(3, "20", ZmqConstants.ZMQ_PROTOCOL_ERROR_ZAP_INVALID_STATUS_CODE)]
    [InlineData(3, "2000", ZmqConstants.ZMQ_PROTOCOL_ERROR_ZAP_INVALID_STATUS_CODE)]
    [InlineData(6, "\u0001", ZmqConstants.ZMQ_PROTOCOL_ERROR_ZAP_INVALID_METADATA)]
    public void ParseReply_BadFrame_IsTheMatchingZapError(int index, string value, int expected)
    {
        byte[][] frames = Reply("200");
        frames[index] = Encoding.ASCII.GetBytes(value);

        ZapReply reply = ZapClient.ParseReply(frames);

        Assert.False(reply.IsWellFormed);
        Assert.Equal(expected, reply.ProtocolError);
    }
}
