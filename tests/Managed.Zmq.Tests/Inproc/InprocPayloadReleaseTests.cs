using System.Runtime.InteropServices;

namespace Managed.Zmq.Tests.Inproc;

/// <summary>
/// A large zero-copy Message sent over inproc travels by reference; its free callback must run
/// exactly once even when nobody ever reads it: the connect is dropped before any bind, the socket
/// closes before any bind, or the sender goes away in the middle of a multipart message.
/// </summary>
public sealed unsafe class InprocPayloadReleaseTests : TransportSockets
{
    private const int Size = 64 * 1024;

    /// <summary>A zero-copy Message over fresh native memory whose callback frees it and sets <paramref name="released"/>.</summary>
    private static Message ZeroCopy(ManualResetEventSlim released, Action? onRelease = null)
    {
        nint memory = (nint)NativeMemory.Alloc(Size);
        return new Message(memory, Size, data =>
        {
            NativeMemory.Free((void*)data);
            onRelease?.Invoke();
            released.Set();
        });
    }

    /// <summary>A PUSH connected to a name nobody has bound, with one zero-copy message queued.</summary>
    private Socket ConnectAndQueue(string name, ManualResetEventSlim released)
    {
        var push = Create(SocketType.Push);
        push.Connect(name);
        using var message = ZeroCopy(released);
        push.Send(message);
        return push;
    }

    [Fact]
    public void Disconnect_BeforeAnyBind_QueuedPayloadReleased()
    {
        string name = TestEndpoint.Inproc("dropped");
        using var released = new ManualResetEventSlim();
        var push = ConnectAndQueue(name, released);

        push.Disconnect(name);

        Assert.True(released.Wait(TimeSpan.FromSeconds(5)), "the queued payload was never released");
    }

    [Fact]
    public void Dispose_ConnectNeverBoundLingerZero_QueuedPayloadReleased()
    {
        string name = TestEndpoint.Inproc("closed");
        using var released = new ManualResetEventSlim();
        var push = ConnectAndQueue(name, released);

        push.Dispose();

        Assert.True(released.Wait(TimeSpan.FromSeconds(5)), "the queued payload was never released");
    }

    [Fact]
    public void Dispose_SenderInsideMultipartMessage_StagedPayloadReleasedAndNothingDelivered()
    {
        string name = TestEndpoint.Inproc("half");
        using var released = new ManualResetEventSlim();
        var pull = Create(SocketType.Pull);
        pull.Bind(name);
        var push = Create(SocketType.Push);
        push.Connect(name);
        using (var message = ZeroCopy(released))
        {
            push.Send(message, SendFlags.SendMore);
        }

        push.Dispose();

        Assert.True(released.Wait(TimeSpan.FromSeconds(5)), "the unfinished message's payload was never released");
        Assert.Null(TryRecvString(pull, 0));
    }

    [Fact]
    public void Send_LinkedPeerReadsIt_PayloadReleasedOnceAfterTheRead()
    {
        string name = TestEndpoint.Inproc("read");
        using var released = new ManualResetEventSlim();
        int releases = 0;
        var pull = Create(SocketType.Pull);
        pull.Bind(name);
        var push = Create(SocketType.Push);
        push.Connect(name);
        using (var message = ZeroCopy(released, () => Interlocked.Increment(ref releases)))
        {
            push.Send(message);
        }

        Assert.False(released.IsSet);
        var buffer = new byte[Size];
        Assert.Equal(Size, pull.Recv(buffer));

        Assert.True(released.Wait(TimeSpan.FromSeconds(5)), "the payload was never released after the read");
        pull.Dispose();
        push.Dispose();
        Assert.Equal(1, Volatile.Read(ref releases));
    }
}
