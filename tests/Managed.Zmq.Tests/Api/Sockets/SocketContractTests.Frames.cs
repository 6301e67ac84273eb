using Managed.Zmq.Tests.Support;

namespace Managed.Zmq.Tests.Api.Sockets;

/// <summary>PAIR and frame-level delivery (RFC 31): sizes at the short/long boundary, empty frames, atomic multipart.</summary>
public abstract partial class SocketContractTests
{
    [Theory]
    [InlineData(true)]
    [InlineData(false)]
    public void Pair_BothDirections_Delivered(bool firstBinds)
    {
        var (a, b) = firstBinds ? Pair(SocketType.Pair, SocketType.Pair) : Swap(Pair(SocketType.Pair, SocketType.Pair));

        a.Send("ping");
        Assert.Equal("ping", b.RecvString());
        b.Send("pong");
        Assert.Equal("pong", a.RecvString());
    }

    [Theory]
    [InlineData(0)]
    [InlineData(1)]
    [InlineData(255)]
    [InlineData(256)]
    [InlineData(65536)]
    [InlineData(1 << 20)]
    [InlineData((5 << 20) + 3)] // above the largest pooled buffer: read through the queue, not into a buffer of its own
    public void Pair_FrameSize_DeliveredIntact(int size)
    {
        var (a, b) = Pair(SocketType.Pair, SocketType.Pair);
        byte[] payload = Bytes.Pattern(size, size);

        Assert.True(a.Send(payload));
        byte[] received = b.RecvBytes();

        Assert.Equal(size, received.Length);
        Assert.True(payload.AsSpan().SequenceEqual(received));
    }

    [Fact]
    public async Task LargeFrames_StreamAtReceiveHwmOne_AllDeliveredInOrder()
    {
        // A connection may wake the receiving thread once for several large messages; one that
        // stops reading at RCVHWM must still wake it for what it holds, or this stream stalls.
        var pull = Create(SocketType.Pull);
        pull.SetOption(SocketOption.Rcvhwm, 1);
        string endpoint = Bind(pull);
        var push = Create(SocketType.Push);
        push.Connect(endpoint);
        const int count = 48;
        var sender = Task.Run(() =>
        {
            for (int i = 0; i < count; i++)
            {
                Assert.True(push.Send(Bytes.Pattern(LargeFrame + i, i)));
            }
        });

        for (int i = 0; i < count; i++)
        {
            byte[] received = pull.RecvBytes();
            Assert.True(Bytes.Pattern(LargeFrame + i, i).AsSpan().SequenceEqual(received), $"message {i}");
        }

        await CompletesAsync(sender, "the sender finishes once every message is received");
    }

    [Fact]
    public async Task LargeFrames_StreamThroughSmallSendBuffer_AllDeliveredIntact()
    {
        // A sending thread writes a large frame itself while the write loop is parked; with a small kernel buffer
        // most of those writes go out in part, and the write loop must send exactly the rest, in order.
        var pull = Create(SocketType.Pull);
        string endpoint = Bind(pull);
        var push = Create(SocketType.Push);
        push.SetOption(SocketOption.Sndbuf, 4096);
        push.Connect(endpoint);
        const int count = 15;
        const int size = 256 * 1024;
        int freed = 0;
        var sender = Task.Run(() =>
        {
            for (int i = 0; i < count; i++)
            {
                byte[] body = Bytes.Pattern(size + i, i);
                switch (i % 5)
                {
                    case 4:
                        // Caller memory: header and body go in two sends, and the free callback runs once, never inside Send.
                        using (var zeroCopy = ZeroCopyMessages.CopyOf(body, () => Interlocked.Increment(ref freed)))
                        {
                            push.Send(zeroCopy);
                        }

                        break;
                    case 0:
                        Assert.True(push.Send(body));
                        break;
                    case 1:
                        using (var pooled = MessagePool.Shared.Rent(body))
                        {
                            push.Send(pooled);
                        }

                        break;
                    case 2:
                        using (var owned = new Message(body))
                        {
                            push.Send(owned);
                        }

                        break;
                    default:
                        // A small frame, two large ones, another small one: an envelope first, as REQ and ROUTER send.
                        Assert.True(push.Send("start", SendFlags.SendMore));
                        Assert.True(push.Send(body, SendFlags.SendMore));
                        Assert.True(push.Send(body, SendFlags.SendMore));
                        Assert.True(push.Send("end"));
                        break;
                }
            }
        });

        for (int i = 0; i < count; i++)
        {
            byte[] expected = Bytes.Pattern(size + i, i);
            if (i % 5 == 3)
            {
                Assert.Equal("start", pull.RecvString());
            }

            Assert.True(expected.AsSpan().SequenceEqual(pull.RecvBytes()), $"message {i}");
            if (i % 5 == 3)
            {
                Assert.True(pull.HasMore);
                Assert.True(expected.AsSpan().SequenceEqual(pull.RecvBytes()), $"message {i}, frame 2");
                Assert.Equal("end", pull.RecvString());
            }
        }

        await CompletesAsync(sender, "the sender finishes once every message is received");
        Eventually.True(() => Volatile.Read(ref freed) == count / 5, "every zero-copy callback ran");
        Assert.Equal(count / 5, Volatile.Read(ref freed));
    }

    [Fact]
    public async Task LargeFrames_StreamReceivedThroughPoller_EveryMessageMakesItReadable()
    {
        var (pull, push) = Pair(SocketType.Pull, SocketType.Push);
        const int count = 48;
        var sender = Task.Run(() =>
        {
            for (int i = 0; i < count; i++)
            {
                Assert.True(push.Send(Bytes.Pattern(LargeFrame, i)));
            }
        });

        using var poller = new Poller(1);
        poller.Add(pull, PollEvents.In);
        var buffer = new byte[LargeFrame];
        for (int i = 0; i < count; i++)
        {
            Assert.Equal(1, poller.Poll(Timeout));
            Assert.Equal(LargeFrame, pull.Recv(buffer, RecvFlags.DontWait));
            Assert.True(Bytes.Pattern(LargeFrame, i).AsSpan().SequenceEqual(buffer), $"message {i}");
        }

        await CompletesAsync(sender, "the sender finishes once every message is received");
    }

    /// <summary>Above the size from which a connection reads a frame into a buffer of its own.</summary>
    private const int LargeFrame = 64 * 1024;

    [Fact]
    public void Recv_BufferSmallerThanFrame_TruncatesAndReturnsFullSize()
    {
        var (a, b) = Pair(SocketType.Pair, SocketType.Pair);
        a.Send("0123456789");

        var buffer = new byte[4];
        int size = b.Recv(buffer);

        Assert.Equal(10, size);
        Assert.Equal("0123", Bytes.Text(buffer));
    }

    [Fact]
    public void Send_EmptyFrames_DeliveredAsEmptyFrames()
    {
        var (push, pull) = Swap(Pair(SocketType.Pull, SocketType.Push));

        SendMessage(push, "", "", "");
        push.Send(string.Empty);

        Assert.Equal(["", "", ""], RecvMessage(pull));
        Assert.Equal([""], RecvMessage(pull));
    }

    [Fact]
    public void Multipart_ManyFrames_DeliveredTogetherInOrder()
    {
        var (pull, push) = Pair(SocketType.Pull, SocketType.Push);
        string[] frames = Enumerable.Range(0, 100).Select(i => $"frame-{i}").ToArray();

        SendMessage(push, frames);

        Assert.Equal(frames, RecvMessage(pull));
    }

    [Fact]
    public async Task Multipart_TwoPushersConcurrently_NeverInterleaved()
    {
        const int Messages = 500;
        var pull = Create(SocketType.Pull);
        string endpoint = Bind(pull);
        var pushers = Enumerable.Range(0, 2).Select(_ => Create(SocketType.Push)).ToArray();
        foreach (var push in pushers)
        {
            push.Connect(endpoint);
        }

        var senders = pushers.Select((push, p) => Task.Run(() =>
        {
            for (int i = 0; i < Messages; i++)
            {
                SendMessage(push, $"{p}", $"{p}:{i}:a", $"{p}:{i}:b", new string((char)('a' + p), i % 300));
            }
        })).ToArray();

        var next = new int[2];
        for (int n = 0; n < 2 * Messages; n++)
        {
            string[] message = RecvMessage(pull);
            Assert.Equal(4, message.Length);
            int p = int.Parse(message[0], System.Globalization.CultureInfo.InvariantCulture);
            int i = next[p]++;
            Assert.Equal([$"{p}", $"{p}:{i}:a", $"{p}:{i}:b", new string((char)('a' + p), i % 300)], message);
        }

        await CompletesAsync(Task.WhenAll(senders), "senders finished");
    }

    [Fact]
    public void Multipart_PartialMessage_NotVisibleUntilLastFrame()
    {
        var (pull, push) = Pair(SocketType.Pull, SocketType.Push);
        push.Send("first");
        Assert.Equal("first", pull.RecvString());

        push.Send("part-1", SendFlags.SendMore);
        push.Send("part-2", SendFlags.SendMore);

        // Nothing may be delivered of a message whose last frame has not been sent.
        Assert.Null(TryRecvString(pull, 100));
        push.Send("part-3");
        Assert.Equal(["part-1", "part-2", "part-3"], RecvMessage(pull));
    }
}
