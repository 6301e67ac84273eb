
using Managed.Zmq.Buffers;

namespace Managed.Zmq.Tests.Buffers;

/// <summary>
/// A thread's deferred zero-copy callbacks: each runs exactly once, on the owner thread when its message is
/// released there, otherwise from the timer, however the two race, however many go unreleased.
/// </summary>
public sealed class PendingReleaseRingTests
{
    private static readonly TimeSpan Deadline = TimeSpan.FromSeconds(10);

    [Fact]
    public void RunNowIfPending_OnTheOwnerThread_RunsOnceThere()
    {
        RunOnNewThread(() =>
        {
            var ring = PendingReleaseRing.CreateForCurrentThread();
            int calls = 0;
            int ticket = ring.Add(
                data =>
                {
                    Assert.Equal(42, data);
                    Interlocked.Increment(ref calls);
                },
                42,
                mayWait: true);

            ring.RunNowIfPending(ticket);
            ring.RunNowIfPending(ticket);
            PendingReleaseRing.RunAllPending();

            // Either this thread took it, or the timer did in the instant between Add and the first take.
            Assert.True(SpinWait.SpinUntil(() => Volatile.Read(ref calls) == 1, Deadline));
            Assert.Equal(1, Volatile.Read(ref calls));
        });
    }

    [Fact]
    public void Add_NeverReleased_TheTimerRunsItOnAnotherThread()
    {
        int calls = 0;
        Thread? thread = null;
        Thread? owner = null;
        RunOnNewThread(() =>
        {
            owner = Thread.CurrentThread;
            PendingReleaseRing.CreateForCurrentThread().Add(
                _ =>
                {
                    Volatile.Write(ref thread, Thread.CurrentThread);
                    Interlocked.Increment(ref calls);
                },
                7,
                mayWait: true);
        });

        Assert.True(SpinWait.SpinUntil(() => Volatile.Read(ref calls) == 1, Deadline));
        Assert.False(ReferenceEquals(owner, Volatile.Read(ref thread)));
    }

    [Fact]
    public void Add_FarMoreThanTheRingHoldsUnreleased_EachRunsExactlyOnce()
    {
        // The oldest entries of a full ring move to the shared list; none is lost or run twice.
        const int Count = 20 * PendingReleaseRing.Capacity;
        var counts = new int[Count];
        RunOnNewThread(() =>
        {
            var ring = PendingReleaseRing.CreateForCurrentThread();
            Action<nint> count = data => Interlocked.Increment(ref counts[data]);
            for (int i = 0; i < Count; i++)
            {
                ring.Add(count, i, mayWait: i % 2 == 0);
            }
        });

        Assert.True(SpinWait.SpinUntil(() => counts.All(c => Volatile.Read(ref c) >= 1), Deadline));
        PendingReleaseRing.RunAllPending();
        DeferredReleases.RunPending();
        Assert.All(counts, c => Assert.Equal(1, c));
    }

    [Fact]
    public void RunNowIfPending_RacingATimerThatNeverPauses_EachRunsExactlyOnce()
    {
        const int Count = 200_000;
        var counts = new int[Count];
        Action<nint> count = data => Interlocked.Increment(ref counts[data]);
        using var stop = new CancellationTokenSource();
        var drainer = new Thread(() =>
        {
            while (!stop.IsCancellationRequested)
            {
                PendingReleaseRing.RunAllPending();
                Thread.Yield();
            }
        });
        drainer.Start();

        RunOnNewThread(() =>
        {
            var ring = PendingReleaseRing.CreateForCurrentThread();
            for (int i = 0; i < Count; i++)
            {
                int ticket = ring.Add(count, i, mayWait: true);
                if (i % 3 != 0)
                {
                    // Released at once on this thread, as a send followed by Dispose; every third stays for the drainer.
                    ring.RunNowIfPending(ticket);
                    ring.RunNowIfPending(ticket);
                }
            }
        });

        Assert.True(SpinWait.SpinUntil(() => counts.All(c => Volatile.Read(ref c) >= 1), Deadline));
        stop.Cancel();
        Assert.True(drainer.Join(Deadline));
        PendingReleaseRing.RunAllPending();
        DeferredReleases.RunPending();
        Assert.All(counts, c => Assert.Equal(1, c));
    }

    [Fact]
    public void RunNowIfPending_TicketOfAnotherThreadsRing_LeavesItToTheTimer()
    {
        int calls = 0;
        Thread? thread = null;
        int ticket = 0;
        Thread? releaser = null;
        RunOnNewThread(() => ticket = PendingReleaseRing.CreateForCurrentThread().Add(
            _ =>
            {
                Volatile.Write(ref thread, Thread.CurrentThread);
                Interlocked.Increment(ref calls);
            },
            1,
            mayWait: true));

        RunOnNewThread(() =>
        {
            // A message sent on one thread and disposed on another: the other thread's ring has no such entry.
            releaser = Thread.CurrentThread;
            PendingReleaseRing.CreateForCurrentThread().RunNowIfPending(ticket);
        });

        Assert.True(SpinWait.SpinUntil(() => Volatile.Read(ref calls) == 1, Deadline));
        Assert.False(ReferenceEquals(releaser, Volatile.Read(ref thread)));
        PendingReleaseRing.RunAllPending();
        Assert.Equal(1, Volatile.Read(ref calls));
    }

    [Fact]
    public void RunAllPending_OwnerThreadEnded_ItsRingIsForgotten()
    {
        PendingReleaseRing? ring = null;
        RunOnNewThread(() => ring = PendingReleaseRing.CreateForCurrentThread());

        Assert.NotNull(ring);
        PendingReleaseRing.RunAllPending();
        Assert.False(PendingReleaseRing.IsRegistered(ring!));
    }

    [Fact]
    public void Add_ThrowingCallback_OthersStillRun()
    {
        int calls = 0;
        RunOnNewThread(() =>
        {
            var ring = PendingReleaseRing.CreateForCurrentThread();
            ring.Add(_ => throw new InvalidOperationException("boom"), 1, mayWait: true);
            ring.Add(_ => Interlocked.Increment(ref calls), 2, mayWait: true);
        });

        Assert.True(SpinWait.SpinUntil(() => Volatile.Read(ref calls) == 1, Deadline));
    }

    /// <summary>Runs <paramref name="action"/> on a thread of its own (a ring belongs to its thread) and waits for it.</summary>
    private static void RunOnNewThread(Action action)
    {
        Exception? failure = null;
        var thread = new Thread(() =>
        {
            try
            {
                action();
            }
            catch (Exception ex)
            {
                failure = ex;
            }
        });
        thread.Start();
        Assert.True(thread.Join(Deadline));
        if (failure is not null)
        {
            throw new AggregateException(failure);
        }
    }
}
