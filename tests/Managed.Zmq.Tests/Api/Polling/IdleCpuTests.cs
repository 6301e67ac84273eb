using System.Diagnostics;
using Managed.Zmq.Inproc;

namespace Managed.Zmq.Tests.Api.Polling;

/// <summary>Runs alone: process CPU time is only meaningful while no other test burns CPU.</summary>
[CollectionDefinition(Name, DisableParallelization = true)]
public sealed class IdleCpuCollection
{
    public const string Name = "Idle CPU";
}

/// <summary>Idle pollers and proxies must cost next to no CPU, which other ZeroMQs for .NET and Java have failed at.</summary>
/// <remarks>
/// Process CPU time includes everything else in the test host: background JIT, finalizers and the
/// teardown of other tests' sockets can cost half a core for a few seconds after the parallel tests end.
/// A spinning or polling wait burns CPU in every window, so the best of up to five one-second windows
/// is what is compared with the bound.
/// </remarks>
[Collection(IdleCpuCollection.Name)]
public class IdleCpuTests
{
    /// <summary>10% of one core: far above an event-driven wait, far below any spin or polling loop.</summary>
    private const double MaxCoreFraction = 0.10;

    [Fact]
    public void Poll_HundredIdleSocketsForOneSecond_UsesAlmostNoCpu()
    {
        using var context = new Context();
        using var set = new PollerWaitTests.SocketSet(context, 100);
        set.WarmUp();
        using var poller = set.CreatePoller();
        Assert.Equal(0, poller.Poll(50));

        AssertIdle(() => Assert.Equal(0, poller.Poll(1000)));
    }

    [Fact]
    public async Task RecvBytesAsync_PendingOnIdleSocketsForOneSecond_UsesAlmostNoCpu()
    {
        using var context = new Context();
        using var set = new PollerWaitTests.SocketSet(context, 30);
        set.WarmUp();
        var pending = set.Receivers.Select(receiver => receiver.RecvBytesAsync().AsTask()).ToList();
        Assert.All(pending, task => Assert.False(task.IsCompleted));

        using var idle = new ManualResetEventSlim();
        AssertIdle(() => idle.Wait(1000));

        for (int i = 0; i < set.Senders.Count; i++)
        {
            set.Senders[i].Send("done");
        }

        await Task.WhenAll(pending).WaitAsync(PollingSockets.WaitLimit);
    }

    [Fact]
    public async Task Proxy_IdleForOneSecond_UsesAlmostNoCpu()
    {
        using var context = new Context();
        using var frontend = PollingSockets.Open(context, SocketType.Router);
        using var backend = PollingSockets.Open(context, SocketType.Dealer);
        using var control = PollingSockets.Open(context, SocketType.Pair);
        using var steer = PollingSockets.Open(context, SocketType.Pair);
        TestEndpoint.Bind(frontend, Transport.Tcp);
        TestEndpoint.Bind(backend, Transport.Tcp);
        string controlEndpoint = TestEndpoint.Inproc("polling");
        control.Bind(controlEndpoint);
        steer.Connect(controlEndpoint);
        var proxy = Task.Factory.StartNew(() => Proxy.StartSteerable(frontend, backend, control), TaskCreationOptions.LongRunning);

        // A STATISTICS round trip proves the proxy loop is running before the measurement starts.
        steer.Send("STATISTICS");
        Assert.Equal(8, steer.RecvMultipart().Count);

        using var idle = new ManualResetEventSlim();
        AssertIdle(() => idle.Wait(1000));
        steer.Send("TERMINATE");
        await proxy.WaitAsync(PollingSockets.WaitLimit);
    }

    private static void AssertIdle(Action oneSecondOfIdling)
    {
        var report = new List<string>();
        GC.Collect();
        GC.WaitForPendingFinalizers();
        for (int attempt = 0; attempt < 5; attempt++)
        {
            var (cpu, wall) = Measure(oneSecondOfIdling);
            if (cpu < wall * MaxCoreFraction)
            {
                return;
            }

            report.Add($"CPU {cpu.TotalMilliseconds:F0} ms over {wall.TotalMilliseconds:F0} ms");
        }

        Assert.Fail(string.Join("; ", report));
    }

    private static (TimeSpan Cpu, TimeSpan Wall) Measure(Action action)
    {
        var process = Process.GetCurrentProcess();
        process.Refresh();
        var cpuBefore = process.TotalProcessorTime;
        var watch = Stopwatch.StartNew();
        action();
        watch.Stop();
        process.Refresh();
        return (process.TotalProcessorTime - cpuBefore, watch.Elapsed);
    }
}
