namespace Managed.Zmq.InteropTests.Infrastructure;

/// <summary>Every wait in the interop suite is bounded by one of these.</summary>
internal static class Timeouts
{
    /// <summary>Send and receive timeout on every socket, ours and libzmq's.</summary>
    public static readonly TimeSpan Io = TimeSpan.FromSeconds(10);

    /// <summary>Overall deadline of one scenario, teardown included.</summary>
    public static readonly TimeSpan Scenario = TimeSpan.FromSeconds(45);

    /// <summary>How long a retry loop (slow joiner, unknown ROUTER peer) may keep trying.</summary>
    public static readonly TimeSpan Settle = TimeSpan.FromSeconds(10);

    /// <summary>One short wait inside a retry loop.</summary>
    public static readonly TimeSpan Probe = TimeSpan.FromMilliseconds(20);

    /// <summary>
    /// How long a fixture's Context.Dispose may take once its sockets are closed with Linger 0: generous, since a
    /// thousand connections may still be closing, and reached only when teardown hangs.
    /// </summary>
    public static readonly TimeSpan Dispose = TimeSpan.FromSeconds(30);
}

/// <summary>Runs a scenario on its own thread and fails it if it overruns its deadline.</summary>
internal static class Deadline
{
    public static async Task Run(Action scenario)
    {
        // A dedicated thread: scenarios block in libzmq and in our sockets, and must not starve the
        // thread pool the library's own I/O may rely on.
        var task = Task.Factory.StartNew(scenario, CancellationToken.None, TaskCreationOptions.LongRunning, TaskScheduler.Default);
        try
        {
            await task.WaitAsync(Timeouts.Scenario);
        }
        catch (TimeoutException) when (!task.IsCompleted)
        {
            throw new TimeoutException($"Scenario did not finish within {Timeouts.Scenario.TotalSeconds} s (hung send, receive or dispose).");
        }
    }

    /// <summary>
    /// Disposes <paramref name="resource"/> on its own thread and fails if that takes longer than
    /// <see cref="Timeouts.Dispose"/>: a Context's Dispose blocks until every socket of it is closed, and a hang there
    /// must fail the test, not stall the run.
    /// </summary>
    public static void Dispose(IDisposable resource, string what)
    {
        var disposing = Start(resource.Dispose);
        if (!disposing.Wait(Timeouts.Dispose))
            throw new TimeoutException($"{what} did not return within {Timeouts.Dispose.TotalSeconds} s.");
    }

    /// <summary>Starts a helper (e.g. a sender) on its own thread.</summary>
    public static Task Start(Action work) =>
        Task.Factory.StartNew(work, CancellationToken.None, TaskCreationOptions.LongRunning, TaskScheduler.Default);

    /// <summary>
    /// Repeats <paramref name="attempt"/> until it returns true; fails after <see cref="Timeouts.Settle"/>.
    /// An attempt should wait briefly itself (e.g. a receive with <see cref="Timeouts.Probe"/>) or yield.
    /// </summary>
    public static void RetryUntil(Func<bool> attempt, string what)
    {
        var end = Environment.TickCount64 + (long)Timeouts.Settle.TotalMilliseconds;
        while (!attempt())
        {
            if (Environment.TickCount64 > end)
                throw new TimeoutException($"Gave up after {Timeouts.Settle.TotalSeconds} s waiting for {what}.");
        }
    }
}
