using Managed.Zmq.Internal;
using Managed.Zmq.Buffers;

namespace Managed.Zmq.Tests.Buffers;

/// <summary>The pool's diagnostic mode finds a rented buffer that never came back, and says where it was rented.</summary>
public sealed class PoolLeakTrackingTests
{
    [Fact]
    public void LeakTracker_RentedMessageNeverDisposed_ReportedWithItsRentSite()
    {
        var tracker = new PoolLeakTracker();
        var pool = new MessagePool { LeakTracker = tracker };

        var leaked = pool.Rent(100);
        using (pool.Rent(200))
        {
        }

        Assert.False(tracker.WaitForAllReturned(TimeSpan.FromMilliseconds(50)));
        var site = Assert.Single(tracker.Outstanding);
        Assert.Contains(nameof(LeakTracker_RentedMessageNeverDisposed_ReportedWithItsRentSite), site);
        leaked.Dispose();
        Assert.True(tracker.WaitForAllReturned(TimeSpan.FromSeconds(1)));
    }

    [Theory]
    [TransportCases(Transport.Tcp, Transport.Ipc)]
    public void LeakTracker_PooledMessagesSentAndReceived_AllBuffersReturn(Transport transport)
    {
        var tracker = new PoolLeakTracker();
        var pool = new MessagePool { LeakTracker = tracker };
        using var context = new Context();
        using var pull = new Socket(context, SocketType.Pull);
        using var push = new Socket(context, SocketType.Push);
        pull.SetOption(SocketOption.Rcvtimeo, 10_000);
        pull.SetOption(SocketOption.Linger, 0);
        push.SetOption(SocketOption.Linger, 0);
        push.Connect(TestEndpoint.Bind(pull, transport));

        foreach (int size in new[] { 16, 1000, 40_000, 300_000 })
        {
            using var message = pool.Rent(size);
            push.Send(message);
            using var received = pool.Rent(size);
            Assert.Equal(size, pull.Recv(received, size));
        }

        Assert.True(tracker.WaitForAllReturned(TimeSpan.FromSeconds(10)), string.Join(Environment.NewLine, tracker.Outstanding));
    }
}
