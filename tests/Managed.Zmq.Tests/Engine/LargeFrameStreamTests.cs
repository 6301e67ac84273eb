using Managed.Zmq.Tests.Support;

namespace Managed.Zmq.Tests.Engine;

/// <summary>
/// Large frames with small frames and commands between them, all waiting in the kernel at once: a large frame's
/// last receive runs on past the frame into its buffer's tailroom (Buffers/FrameHeadroom.cs) and takes what follows.
/// Those bytes must then be parsed as any receive's are: messages in order and whole, commands answered, and a
/// malformed frame among them ends the connection, the messages before it still readable.
/// </summary>
public sealed class LargeFrameStreamTests : ResilienceFixture
{
    [Theory]
    [InlineData(32 * 1024)]
    [InlineData(40 * 1024)]
    [InlineData(64 * 1024)]
    public void Recv_LargeFramesWithFramesAndCommandsBetween_ArriveWholeAndInOrder(int size)
    {
        using var listener = new RawListener();
        var pull = Create(SocketType.Pull);
        pull.Connect(listener.Endpoint);
        using var push = listener.Accept();
        push.CompleteNullHandshake("PUSH");

        // Sizes move by a byte each time, so the frame boundaries fall at every offset of a receive; odd rounds
        // send the large frame with MORE and the small frame after it ends that message.
        var stream = new List<byte[]>();
        var expected = new List<(byte[] Body, bool More)>();
        for (int i = 0; i < 8; i++)
        {
            bool more = i % 2 == 1;
            byte[] large = Bytes.Pattern(size + i, i);
            stream.Add(ZmtpBytes.Frame(more ? ZmtpBytes.FlagMore : (byte)0, large));
            expected.Add((large, more));
            if (i % 3 == 0)
            {
                stream.Add(ZmtpBytes.Ping(0, Bytes.Of($"p{i}")));
            }

            byte[] small = Bytes.Of($"small{i}");
            stream.Add(ZmtpBytes.Frame(0, small));
            expected.Add((small, false));
        }

        push.Send(ZmtpBytes.Concat([.. stream]));

        using var message = new Message();
        foreach ((byte[] body, bool more) in expected)
        {
            Assert.Equal(body.Length, pull.Recv(message));
            Assert.Equal(body, message.ToArray());
            Assert.Equal(more, message.More);
        }

        // Each PING was answered, in order, from wherever in a receive it came.
        foreach (int i in new[] { 0, 3, 6 })
        {
            var (flags, reply) = push.ReadFrame();
            Assert.Equal(ZmtpBytes.FlagCommand, flags);
            Assert.Equal(ZmtpBytes.Command("PONG", Bytes.Of($"p{i}"))[2..], reply);
        }
    }

    /// <remarks>A connecting socket, as libzmq's: what arrived before the protocol error stays readable (libzmq flushes
    /// its session before ending it), and the socket does not reconnect (docs/libzmq-behaviour.md L15).</remarks>
    [Fact]
    public void Recv_MalformedFrameRightAfterLargeFrame_LargeMessageDeliveredThenConnectionClosed()
    {
        using var listener = new RawListener();
        var pull = Create(SocketType.Pull);
        pull.Connect(listener.Endpoint);
        using var push = listener.Accept();
        push.CompleteNullHandshake("PUSH");

        byte[] large = Bytes.Pattern(64 * 1024, 7);
        push.Send(ZmtpBytes.Concat(ZmtpBytes.Frame(0, large), ZmtpBytes.LongHeader(1UL << 63)));

        Assert.True(push.WaitUntilClosed());
        using var message = new Message();
        Assert.Equal(large.Length, pull.Recv(message));
        Assert.Equal(large, message.ToArray());
    }
}
