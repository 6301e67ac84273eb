using Managed.Zmq.Threading;

namespace Managed.Zmq.Tests.Threading;

/// <summary>
/// <see cref="InterruptibleWait"/>: a thread's wait for a socket to be readable that another thread can end, with
/// interrupts that stick until the waiting thread resets them (the read turn's wait, docs/ARCHITECTURE.md). Each wait
/// here would last far longer than the test's limit if the interrupt did not end it.
/// </summary>
public sealed class InterruptibleWaitTests
{
    /// <summary>Longer than <see cref="ReactorSockets.WaitLimit"/>: a wait that is not ended fails the test instead of passing by its timeout.</summary>
    private const int LongWaitMicroseconds = 60_000_000;

    [Fact]
    public void WaitReadable_SocketReadable_ReturnsTrue()
    {
        var pairs = ReactorSockets.Pairs(1);
        try
        {
            var (client, server) = pairs[0];
            client.Send([1]);
            bool readable = false;
            var call = Support.BackgroundCall.Start(() => readable = InterruptibleWait.ForCurrentThread.WaitReadable(server, LongWaitMicroseconds));
            Assert.True(call.Wait((int)ReactorSockets.WaitLimit.TotalMilliseconds), "the wait did not end");
            Assert.True(readable);
        }
        finally
        {
            ReactorSockets.DisposeAll(pairs);
        }
    }

    [Fact]
    public void WaitReadable_InterruptedBeforeTheWait_ReturnsFalse()
    {
        var pairs = ReactorSockets.Pairs(1);
        try
        {
            bool readable = true;
            var call = Support.BackgroundCall.Start(() =>
            {
                var wait = InterruptibleWait.ForCurrentThread;
                wait.Interrupt();
                readable = wait.WaitReadable(pairs[0].Server, LongWaitMicroseconds);
            });
            Assert.True(call.Wait((int)ReactorSockets.WaitLimit.TotalMilliseconds), "the interrupt did not end the wait");
            Assert.False(readable);
        }
        finally
        {
            ReactorSockets.DisposeAll(pairs);
        }
    }

    [Fact]
    public void WaitReadable_InterruptedFromAnotherThread_ReturnsFalse()
    {
        var pairs = ReactorSockets.Pairs(1);
        try
        {
            InterruptibleWait? waitOfThread = null;
            using var started = new ManualResetEventSlim();
            bool readable = true;
            var call = Support.BackgroundCall.Start(() =>
            {
                var wait = InterruptibleWait.ForCurrentThread;
                waitOfThread = wait;
                started.Set();
                readable = wait.WaitReadable(pairs[0].Server, LongWaitMicroseconds);
            });
            Assert.True(started.Wait(ReactorSockets.WaitLimit), "the thread did not start");
            waitOfThread!.Interrupt();
            Assert.True(call.Wait((int)ReactorSockets.WaitLimit.TotalMilliseconds), "the interrupt did not end the wait");
            Assert.False(readable);
        }
        finally
        {
            ReactorSockets.DisposeAll(pairs);
        }
    }

    [Fact]
    public void Reset_AfterAnInterrupt_ALaterInterruptStillEndsAWait()
    {
        var pairs = ReactorSockets.Pairs(1);
        try
        {
            InterruptibleWait? waitOfThread = null;
            using var started = new ManualResetEventSlim();
            bool readable = true;
            var call = Support.BackgroundCall.Start(() =>
            {
                var wait = InterruptibleWait.ForCurrentThread;
                wait.Interrupt();
                wait.Reset();
                waitOfThread = wait;
                started.Set();
                readable = wait.WaitReadable(pairs[0].Server, LongWaitMicroseconds);
            });
            Assert.True(started.Wait(ReactorSockets.WaitLimit), "the thread did not start");

            // Had the reset left the first interrupt marked, this one would not reach the channel, and the wait would
            // outlast the test's limit.
            waitOfThread!.Interrupt();
            Assert.True(call.Wait((int)ReactorSockets.WaitLimit.TotalMilliseconds), "the second interrupt did not end the wait");
            Assert.False(readable);
        }
        finally
        {
            ReactorSockets.DisposeAll(pairs);
        }
    }
}
