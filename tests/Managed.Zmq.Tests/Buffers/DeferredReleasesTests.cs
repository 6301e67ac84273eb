
using Managed.Zmq.Buffers;

namespace Managed.Zmq.Tests.Buffers;

/// <summary>
/// Zero-copy callbacks deferred off the sender's thread: each runs exactly once, on another thread,
/// whether a writer drains them, the batch dispatch does, or only the timer.
/// </summary>
public sealed class DeferredReleasesTests
{
    private static readonly TimeSpan Deadline = TimeSpan.FromSeconds(10);

    [Fact]
    public void Add_LoneCallback_RunsOnceOnAnotherThread()
    {
        int calls = 0;
        int thread = 0;
        Defer(
            data =>
            {
                Assert.Equal(42, data);
                Volatile.Write(ref thread, Environment.CurrentManagedThreadId);
                Interlocked.Increment(ref calls);
            },
            42);

        Assert.True(SpinWait.SpinUntil(() => Volatile.Read(ref calls) == 1, Deadline));
        Assert.NotEqual(Environment.CurrentManagedThreadId, Volatile.Read(ref thread));
    }

    [Fact]
    public void Add_ManyFromSeveralThreadsWhileOthersDrain_EachRunsExactlyOnce()
    {
        AssertEachRunsOnceWhileDrained((count, index) => Defer(count, index));
    }

    private static void Defer(Action<nint> callback, nint data, bool mayWait = true) => DeferredReleases.Add(callback, data, mayWait);

    /// <summary>
    /// Two threads hand 20,000 callbacks each to <paramref name="defer"/> (callback, index) while a third
    /// drains without pause; then every callback must have run exactly once.
    /// </summary>
    private static void AssertEachRunsOnceWhileDrained(Action<Action<nint>, int> defer)
    {
        const int PerThread = 20_000;
        var counts = new int[2 * PerThread];
        Action<nint> count = data => Interlocked.Increment(ref counts[data]);
        using var stop = new CancellationTokenSource();
        var drainer = new Thread(() =>
        {
            while (!stop.IsCancellationRequested)
            {
                DeferredReleases.RunPending();
            }
        });
        drainer.Start();

        Parallel.For(0, 2, part =>
        {
            for (int i = 0; i < PerThread; i++)
            {
                defer(count, part * PerThread + i);
            }
        });

        Assert.True(SpinWait.SpinUntil(() => counts.All(c => Volatile.Read(ref c) >= 1), Deadline));
        stop.Cancel();
        Assert.True(drainer.Join(Deadline));
        DeferredReleases.RunPending();
        Assert.All(counts, c => Assert.Equal(1, c));
    }

    [Fact]
    public void Add_ThrowingCallback_OthersStillRun()
    {
        int calls = 0;
        Defer(_ => throw new InvalidOperationException("boom"), 1);
        Defer(_ => Interlocked.Increment(ref calls), 2);

        Assert.True(SpinWait.SpinUntil(() => Volatile.Read(ref calls) == 1, Deadline));
    }

    [Fact]
    public void Add_FarMoreThanOneBatchWithNoWriter_AllRunAndTheSenderAllocatesNothing()
    {
        // Like a fast inproc sender: no I/O thread drains, so the list fills and the sender waits for
        // the thread-pool drain instead of growing the list.
        const int Count = 100_000;
        int calls = 0;
        Action<nint> count = _ => Interlocked.Increment(ref calls);
        Defer(count, 0);
        Assert.True(SpinWait.SpinUntil(() => Volatile.Read(ref calls) == 1, Deadline));

        long before = GC.GetAllocatedBytesForCurrentThread();
        for (int i = 1; i < Count; i++)
        {
            Defer(count, i);
        }

        long allocated = GC.GetAllocatedBytesForCurrentThread() - before;
        Assert.True(SpinWait.SpinUntil(() => Volatile.Read(ref calls) == Count, Deadline));
        Assert.True(allocated < 16 * 1024, $"the sender allocated {allocated} B");
    }

    [Fact]
    public void Add_FromACallbackWhileTheListIsFull_DoesNotWaitForItself()
    {
        const int Count = 20_000;
        int calls = 0;
        Action<nint> plain = _ => Interlocked.Increment(ref calls);
        Action<nint> resend = _ =>
        {
            Interlocked.Increment(ref calls);
            for (int i = 0; i < Count; i++)
            {
                Defer(plain, i);
            }
        };

        Defer(resend, 0);
        Assert.True(SpinWait.SpinUntil(() => Volatile.Read(ref calls) == Count + 1, Deadline));
    }

    [Fact]
    public void Add_ListFullAndTheCallerMayNotWait_ReturnsAtOnceAndEveryCallbackRuns()
    {
        // A DontWait send never blocks: with no writer draining and far more than the list holds,
        // each Add returns at once (overflow goes to the thread pool) and every callback still runs once.
        const int Count = 50_000;
        var counts = new int[Count];
        Action<nint> count = data => Interlocked.Increment(ref counts[data]);
        for (int i = 0; i < Count; i++)
        {
            Defer(count, i, mayWait: false);
        }

        Assert.True(SpinWait.SpinUntil(() => counts.All(c => Volatile.Read(ref c) >= 1), Deadline));
        Assert.All(counts, c => Assert.Equal(1, c));
    }
}
