using Managed.Zmq.Polling;
using Managed.Zmq.Sockets;

namespace Managed.Zmq.Tests.Sockets;

/// <summary>
/// The wait shared by blocking Send, Recv and Poll: spins first, then parks on a <see cref="WakeSequence"/>
/// until a wake or the deadline, and never leaves a registered wait behind.
/// </summary>
public sealed class SpinThenParkTests
{
    private const int WaitLimitMilliseconds = 10_000;

    [Fact(Timeout = WaitLimitMilliseconds)]
    public async Task Next_PastDeadline_FalseAfterSpinsAndOnePark()
    {
        var signal = new ReadinessWaiter();
        int attempts = await Task.Run(() =>
        {
            var wait = new SpinThenPark(signal, deadlineTicks: Environment.TickCount64, spins: 3);
            int count = 0;
            try
            {
                while (wait.Next())
                {
                    count++;
                }
            }
            finally
            {
                wait.Dispose();
            }

            return count;
        });

        // Three spins, then one registered attempt whose park finds the deadline gone.
        Assert.Equal(4, attempts);
        Assert.False(signal.HasWaiters);
    }

    [Fact(Timeout = WaitLimitMilliseconds)]
    public async Task Next_WokenFromAnotherThread_ReturnsTrue()
    {
        var signal = new ReadinessWaiter();
        var registered = new ManualResetEventSlim();
        var waiter = Task.Run(() =>
        {
            var wait = new SpinThenPark(signal, WakeSequence.DeadlineFromTimeout(WaitLimitMilliseconds), spins: 0);
            try
            {
                Assert.True(wait.Next());
                registered.Set();

                // The attempt found nothing: park until the wake below.
                return wait.Next();
            }
            finally
            {
                wait.Dispose();
            }
        });

        Assert.True(registered.Wait(WaitLimitMilliseconds));
        signal.Wake();

        Assert.True(await waiter);
        Assert.False(signal.HasWaiters);
    }

    [Fact(Timeout = WaitLimitMilliseconds)]
    public async Task Dispose_WhileRegistered_EndsTheWait()
    {
        var signal = new SocketSignal();
        int notified = 0;
        signal.AddListener(() => notified++);
        var wait = new SpinThenPark(signal, long.MaxValue, spins: 0);
        Assert.True(wait.Next());
        Assert.True(signal.HasWaiters);
        wait.Dispose();
        Assert.False(signal.HasWaiters);

        // A fresh wait is woken by a notification after it began, and the listener ran once.
        bool woken = await Task.Run(() =>
        {
            int sequence = signal.BeginWait();
            signal.Notify();
            bool result = signal.Wait(sequence, WakeSequence.DeadlineFromTimeout(WaitLimitMilliseconds));
            signal.EndWait();
            return result;
        });

        Assert.True(woken);
        Assert.Equal(1, notified);
    }

    [Fact]
    public void DeadlineFromTimeout_NegativeOrHuge_Never()
    {
        Assert.Equal(long.MaxValue, WakeSequence.DeadlineFromTimeout(-1));
        Assert.Equal(long.MaxValue, WakeSequence.DeadlineFromTimeout(long.MaxValue));
    }
}
