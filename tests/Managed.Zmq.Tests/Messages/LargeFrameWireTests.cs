using System.Runtime.InteropServices;
using Managed.Zmq.Tests.Resilience.Support;

namespace Managed.Zmq.Tests.Messages;

/// <summary>
/// Large frames leave from their own memory, with the header written in front of the body when the
/// buffer is the library's own (RFC 23 §Framing). A raw TCP peer checks the octets: long header,
/// MORE flag, exact body, frames in order, whatever the buffer kind.
/// </summary>
public sealed class LargeFrameWireTests
{
    [Fact]
    public void Send_LargeFramesOfEveryBufferKind_ExactZmtpOctets()
    {
        using var listener = new RawListener();
        using var context = new Context();
        using var push = new Socket(context, SocketType.Push);
        push.SetOption(SocketOption.Linger, 0);
        push.Connect(listener.Endpoint);
        using var peer = listener.Accept();
        peer.CompleteNullHandshake("PULL");

        byte[] owned = Pattern(40_000, 1);
        byte[] pooled = Pattern(65_536, 2);
        byte[] span = Pattern(100_000, 3);
        byte[] external = Pattern(50_000, 4);
        nint memory = Marshal.AllocHGlobal(external.Length);
        Marshal.Copy(external, 0, memory, external.Length);

        using (var message = new Message(owned))
        {
            push.Send(message, SendFlags.SendMore);
        }

        using (var message = MessagePool.Shared.Rent(pooled))
        {
            push.Send(message, SendFlags.SendMore);
        }

        push.Send(span, SendFlags.SendMore);
        using (var message = new Message(memory, external.Length, Marshal.FreeHGlobal))
        {
            push.Send(message, SendFlags.None);
        }

        AssertFrame(peer, ZmtpBytes.FlagLong | ZmtpBytes.FlagMore, owned);
        AssertFrame(peer, ZmtpBytes.FlagLong | ZmtpBytes.FlagMore, pooled);
        AssertFrame(peer, ZmtpBytes.FlagLong | ZmtpBytes.FlagMore, span);
        AssertFrame(peer, ZmtpBytes.FlagLong, external);
    }

    private static void AssertFrame(RawPeer peer, byte flags, byte[] body)
    {
        var (actualFlags, actualBody) = peer.ReadFrame();
        Assert.Equal(flags, actualFlags);
        Assert.Equal(body, actualBody);
    }

    private static byte[] Pattern(int size, int seed)
    {
        var bytes = new byte[size];
        for (int i = 0; i < size; i++)
        {
            bytes[i] = (byte)((i * 7) + seed);
        }

        return bytes;
    }
}
