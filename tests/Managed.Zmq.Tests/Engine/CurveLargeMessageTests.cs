using Managed.Zmq.Tests.Support;

namespace Managed.Zmq.Tests.Engine;

/// <summary>
/// Large messages under CURVE are published without a wake-up each, as large clear frames are
/// (docs/ARCHITECTURE.md section 2): the receiver is told once AnnounceAfterBytes are waiting,
/// and at the latest when the stream pauses. A receiver or poller waiting on the last of a burst
/// must still be woken for it.
/// </summary>
public sealed class CurveLargeMessageTests : TransportSockets
{
    private const int Large = 64 * 1024;

    /// <summary>A CURVE PUSH connected to a CURVE PULL.</summary>
    private (Socket Push, Socket Pull) CurvePushPull(Transport transport)
    {
        var pull = Create(SocketType.Pull);
        var push = Create(SocketType.Push);
        CurveKeys.Secure(pull, push);
        push.Connect(TestEndpoint.Bind(pull, transport));

        // Connected and past the handshake before a test starts waiting: only the wake-up is left to time out.
        push.Send("ready");
        Assert.Equal("ready", pull.RecvString());
        return (push, pull);
    }

    private static byte[] Payload(int seed)
    {
        var bytes = new byte[Large];
        new Random(seed).NextBytes(bytes);
        return bytes;
    }

    [Theory]
    [TransportCases(Transport.Tcp, Transport.Ipc)]
    public async Task Recv_OneLargeMessageThenSilence_ReceiverWaitingIsWoken(Transport transport)
    {
        var (push, pull) = CurvePushPull(transport);
        byte[] sent = Payload(1);
        var buffer = new byte[Large];
        var received = Task.Run(() => pull.Recv(buffer));

        push.Send(sent);

        // Rcvtimeo is Timeout: a receiver nobody wakes gives up (EAGAIN) instead of returning the message.
        Assert.Equal(Large, await received);
        Assert.Equal(sent, buffer);
    }

    [Theory]
    [TransportCases(Transport.Tcp, Transport.Ipc)]
    public async Task Poll_OneLargeMessageThenSilence_Readable(Transport transport)
    {
        var (push, pull) = CurvePushPull(transport);
        using var poller = new Poller(1);
        poller.Add(pull, PollEvents.In);
        var polled = Task.Run(() => poller.Poll(Timeout));

        push.Send(Payload(2));

        // The poll gives up after Timeout: a poller nobody tells returns 0.
        Assert.Equal(1, await polled);
        Assert.True(poller.IsReadable(0), "a poller is told of one large message");
    }

    [Theory]
    [TransportCases(Transport.Tcp, Transport.Ipc)]
    public void Recv_BurstOfLargeMessages_EveryOneArrivesWholeAndInOrder(Transport transport)
    {
        var (push, pull) = CurvePushPull(transport);
        const int count = 23;
        for (int i = 0; i < count; i++)
        {
            push.Send(Payload(100 + i), i % 3 == 0 ? SendFlags.SendMore : SendFlags.None);
        }

        push.Send(Payload(200));
        var buffer = new byte[Large];
        for (int i = 0; i < count; i++)
        {
            Assert.Equal(Large, pull.Recv(buffer));
            Assert.Equal(Payload(100 + i), buffer);
            Assert.Equal(i % 3 == 0, pull.HasMore);
        }

        Assert.Equal(Large, pull.Recv(buffer));
        Assert.Equal(Payload(200), buffer);
    }
}
