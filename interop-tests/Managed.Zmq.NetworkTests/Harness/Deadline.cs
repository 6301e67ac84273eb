namespace Managed.Zmq.NetworkTests.Harness;

/// <summary>Runs a scenario on its own thread and fails it if it overruns its deadline.</summary>
internal static class Deadline
{
    /// <summary>Overall deadline of one scenario, namespaces and processes included.</summary>
    public static readonly TimeSpan Scenario = TimeSpan.FromSeconds(90);

    public static Task Run(Action scenario) => Run(scenario, TimeSpan.Zero);

    /// <summary>As <see cref="Run(Action)"/>, for a scenario that runs <paramref name="longer"/> by design.</summary>
    public static async Task Run(Action scenario, TimeSpan longer)
    {
        var deadline = Scenario + longer;
        var task = Task.Factory.StartNew(scenario, CancellationToken.None, TaskCreationOptions.LongRunning, TaskScheduler.Default);
        try
        {
            await task.WaitAsync(deadline);
        }
        catch (TimeoutException) when (!task.IsCompleted)
        {
            throw new TimeoutException($"Scenario did not finish within {deadline.TotalSeconds} s.");
        }
    }

    /// <summary>Starts a helper (e.g. a receiver draining while the test sends) on its own thread.</summary>
    public static Task<T> Start<T>(Func<T> work) =>
        Task.Factory.StartNew(work, CancellationToken.None, TaskCreationOptions.LongRunning, TaskScheduler.Default);
}
