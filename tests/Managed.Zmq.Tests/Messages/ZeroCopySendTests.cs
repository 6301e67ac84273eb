using System.Runtime.InteropServices;

namespace Managed.Zmq.Tests.Messages;

/// <summary>
/// Large and zero-copy messages go to the wire from their own memory: the zero-copy free callback
/// runs exactly once, after the bytes left (or were dropped), never inside Send on the caller's
/// thread; pooled buffers come back to their pool by themselves.
/// </summary>
public sealed unsafe class ZeroCopySendTests
{
    private static readonly TimeSpan Deadline = TimeSpan.FromSeconds(10);

    public static TheoryData<string> Endpoints => new() { "tcp://127.0.0.1:*", "ipc://*", $"inproc://zero-copy-{Guid.NewGuid():N}" };

    [Theory]
    [MemberData(nameof(Endpoints))]
    public void SendZeroCopy_AnySize_CallbackOnceAfterSendReturnedAndBytesIntact(string endpoint)
    {
        using var context = new Context();
        using var pull = new Socket(context, SocketType.Pull);
        using var push = new Socket(context, SocketType.Push);
        pull.SetOption(SocketOption.Rcvtimeo, 10_000);
        pull.SetOption(SocketOption.Linger, 0);
        push.SetOption(SocketOption.Linger, 0);
        pull.Bind(endpoint);
        push.Connect(pull.GetOptionString(SocketOption.Last_Endpoint));

        int[] sizes = [10, 40_000, 1 << 20];
        int callbacks = 0;
        bool insideSend = false;
        bool calledInsideSend = false;
        int sendingThread = Environment.CurrentManagedThreadId;
        foreach (int size in sizes)
        {
            var memory = (nint)NativeMemory.Alloc((nuint)size);
            new Span<byte>((void*)memory, size).Fill((byte)(size & 0xFF));
            using var message = new Message(memory, size, data =>
            {
                calledInsideSend |= Volatile.Read(ref insideSend) && Environment.CurrentManagedThreadId == sendingThread;
                NativeMemory.Free((void*)data);
                Interlocked.Increment(ref callbacks);
            });

            Volatile.Write(ref insideSend, true);
            Assert.Equal(size, push.Send(message));
            Volatile.Write(ref insideSend, false);
            Assert.Equal(0, message.Size);
        }

        var buffer = new byte[1 << 20];
        foreach (int size in sizes)
        {
            Assert.Equal(size, pull.Recv(buffer));
            Assert.True(buffer.AsSpan(0, size).IndexOfAnyExcept((byte)(size & 0xFF)) < 0, $"payload of {size} B changed");
        }

        Assert.True(SpinWait.SpinUntil(() => Volatile.Read(ref callbacks) == sizes.Length, Deadline), $"{callbacks} of {sizes.Length} callbacks ran");
        Assert.False(calledInsideSend);
        Assert.Equal(sizes.Length, callbacks);
    }

    [Theory]
    [MemberData(nameof(Endpoints))]
    public void SendPooled_LargeMessages_BuffersReturnToPool(string endpoint)
    {
        var pool = new MessagePool();
        using var context = new Context();
        using var pull = new Socket(context, SocketType.Pull);
        using var push = new Socket(context, SocketType.Push);
        pull.SetOption(SocketOption.Rcvtimeo, 10_000);
        pull.SetOption(SocketOption.Linger, 0);
        push.SetOption(SocketOption.Linger, 0);
        pull.Bind(endpoint);
        push.Connect(pull.GetOptionString(SocketOption.Last_Endpoint));

        const int Count = 20;
        for (int i = 0; i < Count; i++)
        {
            using var message = pool.Rent(100_000);
            message.Data.Fill((byte)i);
            push.Send(message);
        }

        var buffer = new byte[100_000];
        for (int i = 0; i < Count; i++)
        {
            Assert.Equal(100_000, pull.Recv(buffer));
            Assert.Equal((byte)i, buffer[99_999]);
        }

        Assert.True(SpinWait.SpinUntil(() => pool.GetStatistics().OutstandingBuffers == 0, Deadline), pool.GetStatistics().ToString());
    }

    [Fact]
    public void SendZeroCopy_NoPeerThenCloseWithLingerZero_CallbackStillRunsOnce()
    {
        int callbacks = 0;
        using (var context = new Context())
        {
            using var push = new Socket(context, SocketType.Push);
            push.SetOption(SocketOption.Linger, 0);
            push.SetOption(SocketOption.Sndtimeo, 1_000);
            push.Connect("tcp://127.0.0.1:1");
            const int Size = 64 * 1024;
            var memory = (nint)NativeMemory.Alloc(Size);
            using var message = new Message(memory, Size, data =>
            {
                NativeMemory.Free((void*)data);
                Interlocked.Increment(ref callbacks);
            });

            push.Send(message);
        }

        Assert.True(SpinWait.SpinUntil(() => Volatile.Read(ref callbacks) == 1, Deadline));
        Assert.Equal(1, callbacks);
    }
}
