using System.Runtime.InteropServices;
using Managed.Zmq.Tests.Support;

namespace Managed.Zmq.Tests.Engine;

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

    [Theory]
    [InlineData(10)]
    [InlineData(600)]
    public void Send_ZeroCopyBodyQueuedAfterSmallFrames_ExactZmtpOctetsAndMessageCount(int envelopeSize)
    {
        // Queued before the handshake, so the write loop finds small frames (a whole message, then an
        // envelope, short or long) in front of a zero-copy body, whose header it must write itself, and
        // counts the messages on both sides of the cut it makes there once each.
        using var listener = new RawListener();
        using var context = new Context();
        using var push = new Socket(context, SocketType.Push);
        push.SetOption(SocketOption.Linger, 0);
        push.Connect(listener.Endpoint);

        byte[] whole = Pattern(3, 5);
        byte[] envelope = Pattern(envelopeSize, 6);
        byte[] external = Pattern(50_000, 7);
        nint memory = Marshal.AllocHGlobal(external.Length);
        Marshal.Copy(external, 0, memory, external.Length);
        push.Send(whole, SendFlags.None);
        push.Send(envelope, SendFlags.SendMore);
        push.Send(Array.Empty<byte>(), SendFlags.SendMore);
        using (var message = new Message(memory, external.Length, Marshal.FreeHGlobal))
        {
            push.Send(message, SendFlags.None);
        }

        push.Send(whole, SendFlags.None);

        using var peer = listener.Accept();
        peer.CompleteNullHandshake("PULL");
        AssertFrame(peer, 0, whole);
        AssertFrame(peer, envelopeSize > 255 ? (byte)(ZmtpBytes.FlagLong | ZmtpBytes.FlagMore) : ZmtpBytes.FlagMore, envelope);
        AssertFrame(peer, ZmtpBytes.FlagMore, []);
        AssertFrame(peer, ZmtpBytes.FlagLong, external);
        AssertFrame(peer, 0, whole);
        Eventually.True(() => push.GetPeers() is [{ MessagesSent: 3, OutboundQueuedMessages: 0 }], "three messages sent, none queued");
        Assert.True(push.GetPeers() is [{ MessagesSent: 3 }], push.GetPeers()[0].ToString());
    }

    [Theory]
    [InlineData(3)]
    [InlineData(7)]
    [InlineData(1000)]
    [InlineData(70_000)]
    public void Recv_LargeAndSmallFramesInAnyChunking_EveryMessageIntact(int chunk)
    {
        // Large frames are read into buffers of their own and the read after one is kept short; a
        // peer that splits its bytes anywhere (inside a header, right after one, across frames)
        // must still give every message whole, whatever receives them.
        using var context = new Context();
        using var pull = new Socket(context, SocketType.Pull);
        pull.SetOption(SocketOption.Linger, 0);
        pull.SetOption(SocketOption.Rcvtimeo, 10_000);
        pull.Bind("tcp://127.0.0.1:*");
        using var peer = RawPeer.Connect(RawPeer.PortOf(pull.GetOptionString(SocketOption.Last_Endpoint)!));
        peer.CompleteNullHandshake("PUSH");
        byte[][] bodies = [Pattern(40_000, 1), Pattern(65_536, 2), Pattern(5, 3), Pattern(65_536, 4), Pattern(33, 5), Pattern(100_000, 6)];
        var wire = ZmtpBytes.Concat([.. bodies.Select(body => ZmtpBytes.Frame(0, body))]);

        for (int offset = 0; offset < wire.Length; offset += chunk)
        {
            peer.Send(wire[offset..Math.Min(wire.Length, offset + chunk)]);
        }

        using var message = new Message();
        using var pooled = MessagePool.Shared.Rent(65_536);
        var span = new byte[100_000];
        for (int i = 0; i < bodies.Length; i++)
        {
            int received = (i % 3) switch
            {
                0 => pull.Recv(message),
                1 when bodies[i].Length == 65_536 => pull.Recv(pooled, 65_536),
                _ => pull.Recv(span),
            };

            byte[] got = (i % 3) switch
            {
                0 => message.ToArray(),
                1 when bodies[i].Length == 65_536 => pooled.ToArray(),
                _ => span[..received],
            };
            Assert.Equal(bodies[i], got);
        }
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
