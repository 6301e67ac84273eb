using Managed.Zmq.Security;
using Managed.Zmq.Tests.Wire.Support;
using Managed.Zmq.Wire;
using static Managed.Zmq.Tests.Security.Support.MechanismHarness;

namespace Managed.Zmq.Tests.Security;

/// <summary>CURVE MESSAGE traffic after the handshake: round trips, nonces, forged and replayed boxes.</summary>
public sealed partial class CurveMechanismTests
{
    [Theory]
    [InlineData(0, 0)]
    [InlineData(5, 1)]
    [InlineData(200, 0)]
    [InlineData(300, 1)]
    [InlineData(70000, 0)]
    [InlineData(6, 4)]
    public void EncodeDecode_BothDirections_RoundTripBodyAndFlags(int length, byte frameFlags)
    {
        var flags = (ZmtpFrameFlags)frameFlags;
        using var client = Client();
        using var server = Server();
        Run(client, server);
        byte[] body = WireBytes.Pattern(length);

        for (int i = 0; i < 3; i++)
        {
            RoundTrip(client, server, body, flags);
            RoundTrip(server, client, body, flags);
        }
    }

    [Fact]
    public void Encode_Ping_PutsCommandFlagInsideTheBoxAndSendsAPlainMessageFrame()
    {
        using var client = Client();
        using var server = Server();
        Run(client, server);
        byte[] ping = WireBytes.Parse("04 'PING' 00 64");
        var frame = new byte[2 + ping.Length];
        ZmtpCommandCodec.WriteFrame(frame, "PING"u8, WireBytes.Parse("00 64"));

        var encoded = new byte[client.GetEncodedLength(ping.Length)];
        Assert.Equal(encoded.Length, client.Encode(frame, encoded));

        // The MESSAGE travels as a message frame (flags 0): COMMAND is payload flag 0x02 (docs/libzmq-behaviour.md L9).
        Assert.Equal(0x00, encoded[0]);
        Assert.Equal(8 + 8 + 16 + 1 + ping.Length, encoded[1]);
        Assert.Equal(WireBytes.ToHex(WireBytes.Parse("07 'MESSAGE' 00 00 00 00 00 00 00 03")), WireBytes.ToHex(encoded.AsSpan(2, 16)));
        var decoded = new byte[frame.Length];
        Assert.Equal(frame.Length, server.Decode(encoded.AsSpan(2), decoded));
        Assert.Equal(WireBytes.ToHex(frame), WireBytes.ToHex(decoded));
    }

    [Fact]
    public void Encode_DestinationTooSmall_ReturnsMinusOne()
    {
        using var client = Client();
        using var server = Server();
        Run(client, server);
        var frame = new byte[] { 0, 1, 42 };

        Assert.Equal(-1, client.Encode(frame, new byte[client.GetEncodedLength(1) - 1]));
        byte[] message = Encode(client, [42], ZmtpFrameFlags.None);
        Assert.Equal(-1, server.Decode(message, new byte[2]));
        Assert.Equal(3, server.Decode(message, new byte[3]));
    }

    [Fact]
    public void Decode_ReplayedMessage_FailsWithInvalidSequence()
    {
        using var client = Client();
        using var server = Server();
        Run(client, server);
        byte[] message = Encode(client, [1, 2, 3], ZmtpFrameFlags.None);
        Assert.True(server.Decode(message, new byte[16]) > 0);

        Assert.Equal(-2, server.Decode(message, new byte[16]));

        Assert.Equal(MechanismError.Protocol(ZmqConstants.ZMQ_PROTOCOL_ERROR_ZMTP_INVALID_SEQUENCE), server.Error);
        Assert.Equal(MechanismStatus.Error, server.Status);
    }

    [Fact]
    public void Decode_NonIncreasingNonce_FailsWithInvalidSequence()
    {
        using var client = Client();
        using var server = Server();
        Run(client, server);
        byte[] first = Encode(client, [1], ZmtpFrameFlags.None);
        byte[] second = Encode(client, [2], ZmtpFrameFlags.None);
        Assert.True(server.Decode(second, new byte[16]) > 0);

        Assert.Equal(-2, server.Decode(first, new byte[16]));

        Assert.Equal(MechanismError.Protocol(ZmqConstants.ZMQ_PROTOCOL_ERROR_ZMTP_INVALID_SEQUENCE), server.Error);
    }

    [Fact]
    public void Decode_GapInNonces_IsAccepted()
    {
        using var client = Client();
        using var server = Server();
        Run(client, server);
        Encode(client, [1], ZmtpFrameFlags.None);
        byte[] third = Encode(client, [3], ZmtpFrameFlags.None);

        Assert.True(server.Decode(third, new byte[16]) > 0);
    }

    [Theory]
    [InlineData(8)]
    [InlineData(16)]
    [InlineData(20)]
    [InlineData(32)]
    public void Decode_ForgedBox_FailsWithCryptographic(int offset)
    {
        using var client = Client();
        using var server = Server();
        Run(client, server);
        byte[] message = Encode(client, [1, 2, 3], ZmtpFrameFlags.None);
        message[offset] ^= 0x01;

        Assert.Equal(-2, server.Decode(message, new byte[16]));

        // A changed nonce (offset 8) still increases, so the box is what fails.
        Assert.Equal(MechanismError.Protocol(ZmqConstants.ZMQ_PROTOCOL_ERROR_ZMTP_CRYPTOGRAPHIC), server.Error);
    }

    [Fact]
    public void Decode_OwnMessageReflected_FailsBecauseThePrefixDiffers()
    {
        using var client = Client();
        using var server = Server();
        Run(client, server);
        byte[] message = Encode(client, [1], ZmtpFrameFlags.None);

        // Same session key both ways; only "CurveZMQMESSAGEC" vs "CurveZMQMESSAGES" keeps a reflected message out.
        Assert.Equal(-2, client.Decode(message, new byte[16]));
        Assert.Equal(MechanismError.Protocol(ZmqConstants.ZMQ_PROTOCOL_ERROR_ZMTP_CRYPTOGRAPHIC), client.Error);
    }

    [Fact]
    public void Decode_ShortMessage_FailsWithMalformedMessage()
    {
        using var client = Client();
        using var server = Server();
        Run(client, server);
        byte[] message = Encode(client, [], ZmtpFrameFlags.None);

        Assert.Equal(-2, server.Decode(message.AsSpan(0, 32), new byte[16]));
        Assert.Equal(MechanismError.Protocol(ZmqConstants.ZMQ_PROTOCOL_ERROR_ZMTP_MALFORMED_COMMAND_MESSAGE), server.Error);
    }

    [Fact]
    public void Decode_NotAMessage_FailsWithUnexpectedCommand()
    {
        using var client = Client();
        using var server = Server();
        Run(client, server);

        Assert.Equal(-2, server.Decode(WireBytes.Parse("04 'PING' 00 00"), new byte[16]));
        Assert.Equal(MechanismError.Protocol(ZmqConstants.ZMQ_PROTOCOL_ERROR_ZMTP_UNEXPECTED_COMMAND), server.Error);
    }
}
