using Managed.Zmq.Threading;

namespace Managed.Zmq.Tests.Threading;

/// <summary>
/// <see cref="InterruptibleWait"/>: a thread's wait for a socket to be readable that another thread can end, with an
/// interrupt that ends the next wait if none is in progress and is used up by the wait it ends (the read turn's wait,
/// docs/ARCHITECTURE.md). Each wait here would last far longer than the test's limit if nothing ended it.
/// </summary>
public sealed class InterruptibleWaitTests
{
    /// <summary>Longer than <see cref="ReactorSockets.WaitLimit"/>: a wait that is not ended fails the test instead of passing by its timeout.</summary>
    private const int LongWaitMicroseconds = 60_000_000;

    [Fact]
    public void WaitReadable_SocketReadable_ReturnsTrue()
    {
        Assert.True(WaitOnAThreadOfItsOwn(before: (_, peer, _) => peer.Send([1])));
    }

    [Fact]
    public void WaitReadable_InterruptedBeforeTheWait_ReturnsFalse()
    {
        Assert.False(WaitOnAThreadOfItsOwn(before: (wait, _, _) => wait.Interrupt()));
    }

    [Fact]
    public void WaitReadable_InterruptedFromAnotherThread_ReturnsFalse()
    {
        Assert.False(WaitOnAThreadOfItsOwn(meanwhile: wait => wait.Interrupt()));
    }

    [Fact]
    public void WaitReadable_AfterAnInterruptedWait_TheNextWaitIsNotInterrupted()
    {
        InterruptibleWait? waitOfThread = null;
        bool firstInterrupted = false;
        bool readable = WaitOnAThreadOfItsOwn(before: (wait, peer, watched) =>
        {
            waitOfThread = wait;
            wait.Interrupt();
            Assert.False(wait.WaitReadable(watched, LongWaitMicroseconds));
            firstInterrupted = wait.TakeInterrupted();
            peer.Send([1]);
        });

        // The interrupt was used up by the wait it ended: the next one sees the socket, and no interrupt.
        Assert.True(firstInterrupted);
        Assert.True(readable);
        Assert.False(waitOfThread!.TakeInterrupted());
    }

    /// <summary>
    /// On a thread of its own: runs <paramref name="before"/> with the thread's wait, the peer of a connected socket and
    /// that socket, then waits for the socket to be readable, while this thread runs <paramref name="meanwhile"/> with
    /// the same wait. What the wait returned; fails the test if it did not end within <see cref="ReactorSockets.WaitLimit"/>.
    /// </summary>
    private static bool WaitOnAThreadOfItsOwn(
        Action<InterruptibleWait, System.Net.Sockets.Socket, System.Net.Sockets.Socket>? before = null,
        Action<InterruptibleWait>? meanwhile = null)
    {
        var pairs = ReactorSockets.Pairs(1);
        try
        {
            var (peer, watched) = pairs[0];
            InterruptibleWait? waitOfThread = null;
            using var ready = new ManualResetEventSlim();
            bool readable = false;
            var call = Support.BackgroundCall.Start(() =>
            {
                var wait = InterruptibleWait.ForCurrentThread!;
                before?.Invoke(wait, peer, watched);
                waitOfThread = wait;
                ready.Set();
                readable = wait.WaitReadable(watched, LongWaitMicroseconds);
            });
            Assert.True(ready.Wait(ReactorSockets.WaitLimit), "the thread did not start");
            meanwhile?.Invoke(waitOfThread!);
            Assert.True(call.Wait((int)ReactorSockets.WaitLimit.TotalMilliseconds), "the wait did not end");
            return readable;
        }
        finally
        {
            ReactorSockets.DisposeAll(pairs);
        }
    }
}
