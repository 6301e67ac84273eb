using System.Runtime.CompilerServices;
using Managed.Zmq.Threading;

namespace Managed.Zmq.Tests.Threading;

/// <summary>
/// The I/O thread's timer queue: a cancelled or fired timer keeps nothing alive and leaves the
/// queue at once, the queue stays as large as what is pending under add/cancel churn, and due
/// timers come out earliest first (ties in the order added).
/// </summary>
public sealed class TimerQueueTests
{
    private static readonly Action<object?> s_noop = static _ => { };

    [Fact]
    public void Cancel_PendingTimer_StateCollectable()
    {
        var queue = new TimerQueue();
        var (timer, state) = AddWithFreshState(queue, dueTicks: long.MaxValue);

        timer.Cancel();

        Assert.Equal(0, queue.Count);
        Assert.False(timer.IsPending);
        Assert.True(IsCollected(state), "a cancelled timer still references its state");
        GC.KeepAlive(timer);
        GC.KeepAlive(queue);
    }

    [Fact]
    public void Cancel_PendingTimer_CallbackCollectable()
    {
        var queue = new TimerQueue();
        var (timer, callback) = AddWithCapturingCallback(queue);

        timer.Cancel();

        Assert.True(IsCollected(callback), "a cancelled timer still references its callback (and what it captured)");
        GC.KeepAlive(timer);
        GC.KeepAlive(queue);
    }

    [Fact]
    public void TryDequeueDue_FiredTimer_ReleasesStateAfterCallbackTaken()
    {
        var queue = new TimerQueue();
        var (timer, state) = AddWithFreshState(queue, dueTicks: 10);

        var due = queue.TryDequeueDue(nowTicks: 10);
        Assert.Same(timer, due);
        Assert.True(TakeAndDrop(due!));

        Assert.False(timer.IsPending);
        Assert.True(IsCollected(state), "a fired timer still references its state");
        GC.KeepAlive(timer);
    }

    [Fact]
    public void Cancel_AfterFiring_NoEffectAndNoSecondCall()
    {
        var queue = new TimerQueue();
        var timer = queue.Add(5, s_noop, null);
        var due = queue.TryDequeueDue(5)!;
        Assert.True(due.TryTakeCallback(out _, out _));

        timer.Cancel();
        timer.Cancel();

        Assert.False(due.TryTakeCallback(out _, out _));
        Assert.Equal(0, queue.Count);
    }

    [Fact]
    public void Add_ScheduleCancelChurn_QueueHoldsOnlyPendingTimers()
    {
        var queue = new TimerQueue();
        var live = new List<ReactorTimer>();
        var random = new Random(1234);
        int maxCapacity = 0;

        // 200,000 timers, like the handshake timers of connections that come and go: at most 64 pending at once.
        for (int i = 0; i < 200_000; i++)
        {
            live.Add(queue.Add(1_000_000 + random.Next(30_000), s_noop, new object()));
            if (live.Count > 64)
            {
                int index = random.Next(live.Count);
                live[index].Cancel();
                live.RemoveAt(index);
            }

            Assert.Equal(live.Count, queue.Count);
            maxCapacity = Math.Max(maxCapacity, queue.Capacity);
        }

        Assert.True(maxCapacity <= 128, $"the heap grew to {maxCapacity} slots for 65 pending timers");
        foreach (var timer in live)
        {
            timer.Cancel();
        }

        Assert.Equal(0, queue.Count);
        Assert.Equal(TimerQueue.InitialCapacity, queue.Capacity);
    }

    [Fact]
    public void Add_BurstThenCancelAll_ArrayShrinksBack()
    {
        var queue = new TimerQueue();
        var timers = Enumerable.Range(0, 100_000).Select(i => queue.Add(i, s_noop, null)).ToList();
        Assert.True(queue.Capacity >= 100_000);

        timers.ForEach(t => t.Cancel());

        Assert.Equal(0, queue.Count);
        Assert.Equal(TimerQueue.InitialCapacity, queue.Capacity);
    }

    [Fact]
    public void TryDequeueDue_RandomDueTimesWithCancellations_EarliestFirstTiesInOrderAdded()
    {
        var queue = new TimerQueue();
        var random = new Random(42);
        var expected = new List<(long Due, int Order)>();
        var timers = new List<(ReactorTimer Timer, long Due, int Order)>();
        for (int i = 0; i < 5_000; i++)
        {
            long due = random.Next(200);
            timers.Add((queue.Add(due, s_noop, i), due, i));
        }

        // Cancel every third, from the middle of the heap as well as its ends.
        for (int i = 0; i < timers.Count; i++)
        {
            if (i % 3 == 0)
            {
                timers[i].Timer.Cancel();
            }
            else
            {
                expected.Add((timers[i].Due, timers[i].Order));
            }
        }

        expected.Sort();
        var actual = new List<(long Due, int Order)>();
        for (long now = 0; now < 200; now++)
        {
            while (queue.TryDequeueDue(now) is { } timer)
            {
                Assert.True(timer.DueTicks <= now);
                Assert.True(timer.TryTakeCallback(out _, out object? state));
                actual.Add((timer.DueTicks, (int)state!));
            }
        }

        Assert.Equal(expected, actual);
        Assert.Equal(0, queue.Count);
    }

    [Fact]
    public void TryPeekDue_NotYetDue_NothingDequeued()
    {
        var queue = new TimerQueue();
        queue.Add(100, s_noop, null);
        queue.Add(50, s_noop, null);

        Assert.True(queue.TryPeekDue(out long due));
        Assert.Equal(50, due);
        Assert.Null(queue.TryDequeueDue(49));
        Assert.Equal(2, queue.Count);
    }

    [Fact]
    public void AddTimer_CancelledOnIoThread_StateCollectable()
    {
        using var thread = new IoThread("timer-test");
        var state = new WeakReference(null);
        using var done = new ManualResetEventSlim();
        thread.Schedule(_ =>
        {
            state = AddAndCancel(thread);
            done.Set();
        }, null);

        Assert.True(done.Wait(5000), "the I/O thread did not run the work");
        Assert.True(IsCollected(state), "a timer cancelled on the I/O thread still references its state");
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static WeakReference AddAndCancel(IoThread thread)
    {
        var state = new byte[1024];
        var timer = thread.AddTimer(int.MaxValue, s_noop, state);
        timer.Cancel();
        return new WeakReference(state);
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static (ReactorTimer Timer, WeakReference State) AddWithFreshState(TimerQueue queue, long dueTicks)
    {
        var state = new byte[1024];
        return (queue.Add(dueTicks, s_noop, state), new WeakReference(state));
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static (ReactorTimer Timer, WeakReference Callback) AddWithCapturingCallback(TimerQueue queue)
    {
        var captured = new byte[1024];
        Action<object?> callback = _ => GC.KeepAlive(captured);
        return (queue.Add(long.MaxValue, callback, null), new WeakReference(callback));
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static bool TakeAndDrop(ReactorTimer timer) => timer.TryTakeCallback(out _, out _);

    private static bool IsCollected(WeakReference reference)
    {
        GC.Collect(GC.MaxGeneration, GCCollectionMode.Forced, blocking: true);
        GC.WaitForPendingFinalizers();
        GC.Collect(GC.MaxGeneration, GCCollectionMode.Forced, blocking: true);
        return !reference.IsAlive;
    }
}
