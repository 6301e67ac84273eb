using System.Runtime.InteropServices;
using Managed.Zmq.Tests.Support;
using Managed.Zmq.Buffers;

namespace Managed.Zmq.Tests.Api.Messages;

/// <summary>
/// Large and zero-copy messages go to the wire from their own memory: the zero-copy free callback
/// runs exactly once, after the bytes left (or were dropped), never inside Send on the caller's
/// thread; pooled buffers come back to their pool by themselves.
/// </summary>
public sealed unsafe class ZeroCopySendTests
{
    private static readonly TimeSpan Deadline = TimeSpan.FromSeconds(10);

    [Theory]
    [TransportCases]
    public void SendZeroCopy_AnySize_CallbackOnceAfterSendReturnedAndBytesIntact(Transport transport)
    {
        using var context = new Context();
        using var pull = new Socket(context, SocketType.Pull);
        using var push = new Socket(context, SocketType.Push);
        pull.SetOption(SocketOption.Rcvtimeo, 10_000);
        pull.SetOption(SocketOption.Linger, 0);
        push.SetOption(SocketOption.Linger, 0);
        push.Connect(TestEndpoint.Bind(pull, transport, "zero-copy"));

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

    [Fact]
    public void SendZeroCopy_LargeFrameNobodyQueues_CallbackOnceAndNeverInsideSend()
    {
        // A PUB with no subscriber drops the frame inside Send, so Send itself drops the payload's last
        // reference, as it does whenever the write loop finishes first. The callback is deferred (to this
        // thread's ring; the message's release runs it), never run there.
        using var context = new Context();
        using var pub = new Socket(context, SocketType.Pub);
        pub.SetOption(SocketOption.Linger, 0);
        pub.Bind("tcp://127.0.0.1:*");
        const int Count = 1000;
        const int Size = 40_000;
        bool insideSend = false;
        bool calledInsideSend = false;
        int calls = 0;
        var sender = Thread.CurrentThread;
        Action<nint> free = data =>
        {
            calledInsideSend |= Volatile.Read(ref insideSend) && ReferenceEquals(Thread.CurrentThread, sender);
            NativeMemory.Free((void*)data);
            Interlocked.Increment(ref calls);
        };

        for (int i = 0; i < Count; i++)
        {
            using var message = new Message((nint)NativeMemory.Alloc(Size), Size, free);
            Volatile.Write(ref insideSend, true);
            Assert.Equal(Size, pub.Send(message));
            Volatile.Write(ref insideSend, false);
            Assert.Equal(0, message.Size);
        }

        Assert.True(SpinWait.SpinUntil(() => Volatile.Read(ref calls) == Count, Deadline), $"{calls} of {Count} callbacks ran");
        PendingReleaseRing.RunAllPending();
        DeferredReleases.RunPending();
        Assert.Equal(Count, Volatile.Read(ref calls));
        Assert.False(calledInsideSend);
    }

    [Theory]
    [TransportCases]
    public void SendZeroCopy_SentMessageSentAgainEmpty_CallbackNotRunInsideTheSecondSend(Transport transport)
    {
        // After a send the message is empty but usable; sending it again (a 0-byte frame) must not release the
        // first content there, which would run its callback inside Send on this thread.
        using var pair = new PushPullPair(transport, "zero-copy");
        bool insideSend = false;
        bool calledInsideSend = false;
        int calls = 0;
        var sender = Thread.CurrentThread;
        var memory = (nint)NativeMemory.Alloc(8);
        using (var message = new Message(memory, 8, data =>
        {
            calledInsideSend |= Volatile.Read(ref insideSend) && ReferenceEquals(Thread.CurrentThread, sender);
            NativeMemory.Free((void*)data);
            Interlocked.Increment(ref calls);
        }))
        {
            pair.Push.Send(message);
            Volatile.Write(ref insideSend, true);
            Assert.Equal(0, pair.Push.Send(message));
            Volatile.Write(ref insideSend, false);
        }

        Assert.Equal(8, pair.Pull.Recv(new byte[8]));
        Assert.Equal(0, pair.Pull.Recv(new byte[8]));
        Assert.True(SpinWait.SpinUntil(() => Volatile.Read(ref calls) == 1, Deadline));
        Assert.False(calledInsideSend);
    }

    [Theory]
    [TransportCases]
    public void SendZeroCopy_SmallThenMessageReused_EachCallbackOnce(Transport transport)
    {
        // A small zero-copy frame is copied at send; its callback then runs once, either when the
        // message is next released on this thread (Rebuild, a receive into it, Dispose) or from
        // the deferred list, whichever comes first, and never a second time.
        using var pair = new PushPullPair(transport, "zero-copy");
        var push = pair.Push;
        var pull = pair.Pull;
        var calls = new int[4];
        Action<nint> free = data =>
        {
            Interlocked.Increment(ref calls[*(byte*)data]);
            NativeMemory.Free((void*)data);
        };

        nint Tagged(byte tag)
        {
            var memory = (byte*)NativeMemory.Alloc(8);
            *memory = tag;
            return (nint)memory;
        }

        using var rebuilt = new Message(Tagged(0), 8, free);
        push.Send(rebuilt);
        rebuilt.Rebuild(3);
        Assert.Equal(3, rebuilt.Size);

        var receivedInto = new Message(Tagged(1), 8, free);
        push.Send(receivedInto);
        push.Send(new byte[] { 9, 9 });
        Assert.Equal(8, pull.Recv(new byte[8]));
        Assert.Equal(8, pull.Recv(new byte[8]));
        Assert.Equal(2, pull.Recv(receivedInto));
        receivedInto.Dispose();

        using (var disposed = new Message(Tagged(2), 8, free))
        {
            push.Send(disposed);
        }

        // Never released by the caller: only the deferred list can run this one.
        var kept = new Message(Tagged(3), 8, free);
        push.Send(kept);

        Assert.True(SpinWait.SpinUntil(() => calls.All(c => Volatile.Read(ref c) >= 1), Deadline), string.Join(",", calls));
        kept.Dispose();
        PendingReleaseRing.RunAllPending();
        DeferredReleases.RunPending();
        Assert.All(calls, c => Assert.Equal(1, c));
        GC.KeepAlive(kept);
    }

    [Theory]
    [TransportCases]
    public void SendPooled_LargeMessages_BuffersReturnToPool(Transport transport)
    {
        var pool = new MessagePool();
        using var context = new Context();
        using var pull = new Socket(context, SocketType.Pull);
        using var push = new Socket(context, SocketType.Push);
        pull.SetOption(SocketOption.Rcvtimeo, 10_000);
        pull.SetOption(SocketOption.Linger, 0);
        push.SetOption(SocketOption.Linger, 0);
        push.Connect(TestEndpoint.Bind(pull, transport, "zero-copy"));

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

    /// <summary>Zero-copy memory filled with <paramref name="fill"/>, whose callback poisons it before freeing it and counts.</summary>
    private static Message PoisoningZeroCopy(int size, byte fill, Func<int> increment)
    {
        var memory = (nint)NativeMemory.Alloc((nuint)size);
        new Span<byte>((void*)memory, size).Fill(fill);
        return new Message(memory, size, data =>
        {
            // Anything the library read after this would arrive as 0xEE (or as freed memory).
            new Span<byte>((void*)data, size).Fill(0xEE);
            NativeMemory.Free((void*)data);
            increment();
        });
    }

    [Theory]
    [TransportCases(Transport.Tcp, Transport.Ipc)]
    public void SendZeroCopy_BelowCopyThreshold_CallbackDueOnceSendReturnedThoughTheBytesCannotHaveLeft(Transport transport)
    {
        // A tcp or ipc endpoint that nobody listens on yet: a PUSH connected there queues, and nothing can leave.
        string endpoint = TestEndpoint.Unbound(transport, "zero-copy");
        // Below CopyCallerMemoryBelow the caller's memory is copied at Send (into the queue, or by each tcp or ipc pipe
        // into a buffer of its own from the large-frame threshold): the library no longer needs it once Send returned.
        const int Size = Managed.Zmq.Internal.Tuning.Frames.CopyCallerMemoryBelow - 1;
        using var context = new Context();
        using var push = new Socket(context, SocketType.Push);
        using var pull = new Socket(context, SocketType.Pull);
        push.SetOption(SocketOption.Linger, 0);
        pull.SetOption(SocketOption.Linger, 0);
        pull.SetOption(SocketOption.Rcvtimeo, 10_000);
        push.Connect(endpoint);
        int calls = 0;
        using (var message = PoisoningZeroCopy(Size, 0x3C, () => Interlocked.Increment(ref calls)))
        {
            Assert.Equal(Size, push.Send(message));
        }

        // Released on this thread right after the send: the callback runs there (or from the timer, if it came first).
        Assert.True(SpinWait.SpinUntil(() => Volatile.Read(ref calls) == 1, Deadline), "the callback did not run with no peer");

        pull.Bind(endpoint);
        var buffer = new byte[Size];
        Assert.Equal(Size, pull.Recv(buffer));
        Assert.True(buffer.AsSpan().IndexOfAnyExcept((byte)0x3C) < 0, "the frame was read from the caller's memory after its callback");
        PendingReleaseRing.RunAllPending();
        DeferredReleases.RunPending();
        Assert.Equal(1, Volatile.Read(ref calls));
    }

    [Theory]
    [TransportCases(Transport.Tcp, Transport.Ipc)]
    public void SendZeroCopy_AtCopyThreshold_CallbackOnlyOnceTheBytesLeft(Transport transport)
    {
        // A tcp or ipc endpoint that nobody listens on yet: a PUSH connected there queues, and nothing can leave.
        string endpoint = TestEndpoint.Unbound(transport, "zero-copy");
        // From CopyCallerMemoryBelow the frame goes out from the caller's memory: the callback waits for the write.
        int size = Managed.Zmq.Internal.Tuning.Frames.CopyCallerMemoryBelow;
        using var context = new Context();
        using var push = new Socket(context, SocketType.Push);
        using var pull = new Socket(context, SocketType.Pull);
        push.SetOption(SocketOption.Linger, 0);
        pull.SetOption(SocketOption.Linger, 0);
        pull.SetOption(SocketOption.Rcvtimeo, 10_000);
        push.Connect(endpoint);
        int calls = 0;
        using (var message = PoisoningZeroCopy(size, 0x3C, () => Interlocked.Increment(ref calls)))
        {
            Assert.Equal(size, push.Send(message));
        }

        // Nothing is connected, so the queued frame still needs the memory whatever runs the deferred callbacks.
        PendingReleaseRing.RunAllPending();
        DeferredReleases.RunPending();
        Assert.Equal(0, Volatile.Read(ref calls));

        pull.Bind(endpoint);
        var buffer = new byte[size];
        Assert.Equal(size, pull.Recv(buffer));
        Assert.True(buffer.AsSpan().IndexOfAnyExcept((byte)0x3C) < 0, "the frame was read from the caller's memory after its callback");
        Assert.True(SpinWait.SpinUntil(() => Volatile.Read(ref calls) == 1, Deadline), "the callback did not run after the write");
        PendingReleaseRing.RunAllPending();
        DeferredReleases.RunPending();
        Assert.Equal(1, Volatile.Read(ref calls));
    }

    [Fact]
    public void SendZeroCopy_InprocLargeFrame_TravelsByReferenceUntilReceived()
    {
        // inproc has no frame header to save, whatever CopyCallerMemoryBelow says: the receiver reads the caller's
        // memory itself, so the callback waits for the receive.
        const int Size = 100_000;
        using var pair = new PushPullPair(Transport.Inproc, "zero-copy-ref");
        int calls = 0;
        using (var message = PoisoningZeroCopy(Size, 0x3C, () => Interlocked.Increment(ref calls)))
        {
            Assert.Equal(Size, pair.Push.Send(message));
        }

        PendingReleaseRing.RunAllPending();
        DeferredReleases.RunPending();
        Assert.Equal(0, Volatile.Read(ref calls));

        var buffer = new byte[Size];
        Assert.Equal(Size, pair.Pull.Recv(buffer));
        Assert.True(buffer.AsSpan().IndexOfAnyExcept((byte)0x3C) < 0, "the frame was read from the caller's memory after its callback");
        Assert.True(SpinWait.SpinUntil(() => Volatile.Read(ref calls) == 1, Deadline), "the callback did not run after the receive");
        Assert.Equal(1, Volatile.Read(ref calls));
    }
}
