using Managed.Zmq.Tests.Wire.Support;
using Managed.Zmq.Wire;

namespace Managed.Zmq.Tests.Wire;

/// <summary>Guards the promise that the per-frame encode and decode paths allocate nothing.</summary>
public sealed class WireAllocationTests
{
    [Fact]
    public void PerFramePaths_SteadyState_AllocateNothing()
    {
        byte[] input = WireBytes.Parse("04 29 05 'READY' 0B 'Socket-Type' 00 00 00 06 'DEALER' 08 'Identity' 00 00 00 00");
        byte[] ping = WireBytes.Parse("04 0A 04 'PING' 01 2C 'ctx'");
        var output = new byte[512];

        RunOnce(input, ping, output);
        long before = GC.GetAllocatedBytesForCurrentThread();
        for (int i = 0; i < 1000; i++)
        {
            RunOnce(input, ping, output);
        }

        Assert.Equal(0, GC.GetAllocatedBytesForCurrentThread() - before);
    }

    private static void RunOnce(byte[] ready, byte[] ping, byte[] output)
    {
        ZmtpFrame.WriteHeader(output, 300, ZmtpFrameFlags.More);
        ZmtpFrame.TryReadHeader(output, out _);
        ZmtpFrame.TryReadFrame(ready, out _, out ReadOnlySpan<byte> body);
        ZmtpCommandCodec.TryParse(body, out ZmtpCommand command);
        ZmtpReady.TryParse(command.Data, out ZmtpReadyProperties properties);
        ZmtpSocketTypes.TryParseName(properties.SocketType, out _);
        ZmtpReady.WriteFrame(output, SocketType.Router, "id"u8);

        ZmtpFrame.TryReadFrame(ping, out _, out body);
        ZmtpCommandCodec.TryParse(body, out command);
        ZmtpHeartbeat.TryParsePing(command.Data, out _, out ReadOnlySpan<byte> context);
        ZmtpHeartbeat.WritePong(output, context);
        ZmtpSubscription.WriteCommandFrame(output, subscribe: true, "topic"u8);
        ZmtpSubscription.TryParseMessage(output, out _, out _);

        ZmtpGreeting.Write(output, ZmtpMechanism.Null, asServer: false);
        ZmtpGreeting.TryParse(output, out _);
    }
}
