using Managed.Zmq.Tests.Support;

namespace Managed.Zmq.Tests.Api.Messages;

/// <summary>
/// A large frame (32 KiB and up) arrives over tcp/ipc in a buffer of its own, which a receiving
/// Message takes over instead of copying. These tests hold the API's view of such messages to what
/// a copied frame would give: same bytes, a plain message stays plain, a pooled one stays pooled.
/// </summary>
public sealed class LargeFrameReceiveTests
{
    [Theory]
    [TransportCases(Transport.Tcp, Transport.Ipc)]
    public void Recv_LargeFramesIntoOnePlainMessage_SameBytesAndNotPooled(Transport transport)
    {
        using var pair = new PushPullPair(transport);
        int[] sizes = [65_536, 40_000, 100, 300_000, 0, 32_768];
        foreach (int size in sizes)
        {
            pair.Push.Send(Pattern(size, seed: size));
        }

        using var message = new Message();
        foreach (int size in sizes)
        {
            Assert.Equal(size, pair.Pull.Recv(message));
            Assert.Equal(Pattern(size, seed: size), message.ToArray());
            Assert.Equal(size, message.BufferSize);
            Assert.False(message.More);
            Assert.Equal(0, message.GetProperty(MessageProperty.Shared));
            var error = Assert.Throws<InvalidOperationException>(() => message.SetActualDataSize(0));
            Assert.Equal("SetActualDataSize can only be called on pooled messages", error.Message);
        }
    }

    [Theory]
    [TransportCases(Transport.Tcp, Transport.Ipc)]
    public void Recv_LargeFrameIntoPooledMessageOfItsBucket_StaysPooledAndPoolBalances(Transport transport)
    {
        var pool = new MessagePool();
        using var pair = new PushPullPair(transport);
        const int Size = 65_536;
        using (var received = pool.Rent(Size))
        {
            for (int i = 0; i != 20; i++)
            {
                pair.Push.Send(Pattern(Size, seed: i));
                Assert.Equal(Size, pair.Pull.Recv(received, Size));
                Assert.Equal(Pattern(Size, seed: i), received.ToArray());
                Assert.Equal(Size, received.BufferSize);

                // Still pooled: the 0.4 API's size adjustment works on it.
                received.SetActualDataSize(Size - 1);
                received.SetActualDataSize(Size);
            }
        }

        var stats = pool.GetStatistics();
        Assert.Equal(1, stats.TotalRents);
        Assert.Equal(0, stats.OutstandingBuffers);
    }

    [Theory]
    [TransportCases(Transport.Tcp, Transport.Ipc)]
    public void Recv_LargeFrameIntoLargerPooledBuffer_KeepsThatBuffer(Transport transport)
    {
        var pool = new MessagePool();
        using var pair = new PushPullPair(transport);
        using var received = pool.Rent(1024 * 1024);
        pair.Push.Send(Pattern(50_000, seed: 7));

        Assert.Equal(50_000, pair.Pull.Recv(received, 50_000));

        Assert.Equal(Pattern(50_000, seed: 7), received.ToArray());
        Assert.Equal(1024 * 1024, received.BufferSize);
    }

    [Theory]
    [TransportCases(Transport.Tcp, Transport.Ipc)]
    public void Send_MessageHoldingReceivedLargeFrame_ForwardsSameBytes(Transport transport)
    {
        using var first = new PushPullPair(transport);
        using var second = new PushPullPair(transport);
        first.Push.Send(Pattern(70_000, seed: 3));
        using var relay = new Message();
        Assert.Equal(70_000, first.Pull.Recv(relay));

        second.Push.Send(relay);

        Assert.Equal(0, relay.Size);
        Assert.Equal(Pattern(70_000, seed: 3), second.Pull.RecvBytes());
    }

    [Theory]
    [TransportCases(Transport.Tcp, Transport.Ipc)]
    public void Recv_LargeFrameIntoZeroCopyMessage_RunsItsCallbackOnce(Transport transport)
    {
        using var pair = new PushPullPair(transport);
        pair.Push.Send(Pattern(40_000, seed: 9));
        int calls = 0;
        nint memory = System.Runtime.InteropServices.Marshal.AllocHGlobal(16);
        using var message = new Message(memory, 16, p =>
        {
            Interlocked.Increment(ref calls);
            System.Runtime.InteropServices.Marshal.FreeHGlobal(p);
        });

        Assert.Equal(40_000, pair.Pull.Recv(message));

        Assert.Equal(1, Volatile.Read(ref calls));
        Assert.Equal(Pattern(40_000, seed: 9), message.ToArray());
        message.Dispose();
        Assert.Equal(1, Volatile.Read(ref calls));
    }

    [Fact]
    public void Recv_AfterPolledLargeFrameWasDroppedWithItsPipe_CopiesTheNextLargeFrame()
    {
        // A poll peeks a large tcp frame (its buffer could be taken over), then Disconnect drops
        // that pipe with the frame unread; a later large frame from inproc must not be mistaken
        // for it.
        using var context = new Context();
        using var push = new Socket(context, SocketType.Push);
        using var pull = new Socket(context, SocketType.Pull);
        using var inprocPush = new Socket(context, SocketType.Push);
        push.SetOption(SocketOption.Linger, 0);
        pull.SetOption(SocketOption.Linger, 0);
        inprocPush.SetOption(SocketOption.Linger, 0);
        pull.SetOption(SocketOption.Rcvtimeo, 10_000);
        push.Bind("tcp://127.0.0.1:*");
        string tcp = push.GetOptionString(SocketOption.Last_Endpoint)!;
        string inproc = TestEndpoint.Inproc("large-after-drop");
        pull.Bind(inproc);
        pull.Connect(tcp);
        push.Send(Pattern(65_536, seed: 1));

        using (var poller = new Poller(1))
        {
            poller.Add(pull, PollEvents.In);
            Assert.Equal(1, poller.Poll(10_000));
        }

        pull.Disconnect(tcp);
        inprocPush.Connect(inproc);
        inprocPush.Send(Pattern(40_000, seed: 2));
        using var message = new Message();

        Assert.Equal(40_000, pull.Recv(message));

        Assert.Equal(Pattern(40_000, seed: 2), message.ToArray());
    }

    private static byte[] Pattern(int size, int seed)
    {
        var bytes = new byte[size];
        for (int i = 0; i < size; i++)
        {
            bytes[i] = (byte)((i * 31) + seed);
        }

        return bytes;
    }
}
