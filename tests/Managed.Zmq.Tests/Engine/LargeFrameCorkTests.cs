using Managed.Zmq.Tests.Support;

namespace Managed.Zmq.Tests.Engine;

/// <summary>
/// The write loop corks a TCP connection (TCP_CORK) while large frames wait behind the one it sends, so that a frame's
/// last partial segment is filled by the next frame instead of leaving on its own, and uncorks as soon as its queue is
/// empty, so that nothing is held once there is nothing more to send. Counts and kernel state, never times.
/// </summary>
public sealed class LargeFrameCorkTests : TransportSockets
{
    private const int Large = 64 * 1024;

    /// <summary>Kernel buffers small enough that a few large messages fill them, so the rest wait in the write loop's queue.</summary>
    private const int SmallBuffer = 64 * 1024;

    private const int IpProtoTcp = 6;

    private const int TcpCork = 3;

    [Theory]
    [TransportCases(Transport.Tcp, Transport.Ipc)]
    public void Send_LargeMessagesQueuedBehindOneAnother_ArriveWholeAndTheConnectionEndsUncorked(Transport transport)
    {
        using var sends = ConnectSlowPair(transport, out var push, out var pull);

        // Nobody receives until all are sent: the kernel's buffers fill and the rest wait behind the write loop's send.
        const int messages = 16;
        for (int i = 0; i < messages; i++)
        {
            push.Send(Bytes.Pattern(Large + i, i));
        }

        for (int i = 0; i < messages; i++)
        {
            Assert.Equal(Bytes.Pattern(Large + i, i), pull.RecvBytes());
        }

        if (transport == Transport.Tcp)
        {
            // Corked while they flowed, and uncorked once the queue was empty. The kernel's own flush of a held segment
            // (after about 200 ms) leaves the option set, so a loop that never uncorks fails here; the wait only covers
            // an I/O thread held up between its last send and its uncork.
            Assert.True(sends.CorkChanges >= 2, $"cork changes: {sends.CorkChanges}");
            Assert.All(sends.Handles, handle => Assert.True(SpinWait.SpinUntil(() => ReadCork(handle) == 0, TimeSpan.FromMilliseconds(Timeout))));
        }
        else
        {
            Assert.Equal(0, sends.CorkChanges);
        }
    }

    /// <summary>
    /// Small messages queued behind large ones, with no large frame after them, may be all there is for a while: they
    /// leave uncorked, not held until a segment fills. Only the large frames' bytes are sent corked.
    /// </summary>
    [Fact]
    public void Send_SmallMessagesBehindLargeOnes_SentUncorked()
    {
        using var sends = ConnectSlowPair(Transport.Tcp, out var push, out var pull);

        // More bytes of small messages than of large ones, so that the small ones sent corked could not hide in what
        // the large ones leave of the bound (those of them that went by direct write, uncorked).
        const int large = 8;
        const int small = 1000;
        const int smallSize = 1000;
        long largeFrameBytes = 0;
        for (int i = 0; i < large; i++)
        {
            push.Send(Bytes.Pattern(Large + i, i));
            largeFrameBytes += Large + i + 9;
        }

        for (int i = 0; i < small; i++)
        {
            push.Send(Bytes.Pattern(smallSize, i));
        }

        for (int i = 0; i < large; i++)
        {
            Assert.Equal(Bytes.Pattern(Large + i, i), pull.RecvBytes());
        }

        for (int i = 0; i < small; i++)
        {
            Assert.Equal(Bytes.Pattern(smallSize, i), pull.RecvBytes());
        }

        Assert.True(sends.CorkChanges >= 2, $"cork changes: {sends.CorkChanges}");
        Assert.InRange(sends.CorkedBytes, 1, largeFrameBytes);
    }

    /// <summary>A large request or reply with nothing behind it leaves at once, as before: nothing to cork.</summary>
    [Fact]
    public void Send_LargeRequestsAndReplies_NeverCorked()
    {
        var rep = Create(SocketType.Rep);
        var req = Create(SocketType.Req);
        string endpoint = TestEndpoint.Bind(rep, Transport.Tcp);
        using var sends = new ConnectionSends(endpoint);
        req.Connect(endpoint);
        for (int i = 0; i < 10; i++)
        {
            byte[] request = Bytes.Pattern(Large + i, i);
            req.Send(request);
            Assert.Equal(request, rep.RecvBytes());
            rep.Send(request);
            Assert.Equal(request, req.RecvBytes());
        }

        Assert.Equal(2, sends.Count);
        Assert.Equal(0, sends.CorkChanges);
    }

    /// <summary>
    /// A connected PUSH and PULL whose kernel buffers are small and whose PULL queues one message: whatever is sent before
    /// the PULL receives waits mostly in the PUSH's queue. The PUSH's queue takes 4,000 messages.
    /// </summary>
    private ConnectionSends ConnectSlowPair(Transport transport, out Socket push, out Socket pull)
    {
        pull = Create(SocketType.Pull);
        push = Create(SocketType.Push);
        pull.SetOption(SocketOption.Rcvbuf, SmallBuffer);
        pull.SetOption(SocketOption.Rcvhwm, 1);
        push.SetOption(SocketOption.Sndbuf, SmallBuffer);
        push.SetOption(SocketOption.Sndhwm, 4000);
        string endpoint = TestEndpoint.Bind(pull, transport);
        var sends = new ConnectionSends(endpoint);
        push.Connect(endpoint);
        push.Send("warm");
        Assert.Equal("warm", pull.RecvString());
        return sends;
    }

    private static int ReadCork(int handle) => SocketDescriptor.ReadInt32Option(handle, IpProtoTcp, TcpCork);
}
