using System.Diagnostics;
using Managed.Zmq.Tests.Api.Polling;

namespace Managed.Zmq.Tests.Api.Sockets;

/// <summary>
/// A receiver parked in a blocking Recv costs ~0 CPU on every transport: the wait is an event, not a
/// spin or a polling loop. Runs in the idle-CPU collection, alone, because process CPU time counts
/// every thread in the test host.
/// </summary>
/// <remarks>
/// The bound is generous (10% of one core): an event-driven wait uses well under 1%, any spin or
/// periodic poll burns far more. Background work of the test host (JIT, finalizers, other tests'
/// teardown) can spoil a window, so the best of up to five one-second windows is compared.
/// </remarks>
[Collection(IdleCpuCollection.Name)]
public sealed class IdleRecvCpuTests : TransportSockets
{
    private const double MaxCoreFraction = 0.10;

    [Theory]
    [TransportCases]
    public void Recv_RcvtimeoOneSecondNothingArrives_ParksNearZeroCpuThenEagain(Transport transport)
    {
        var (pull, _) = WarmPair(transport);
        pull.SetOption(SocketOption.Rcvtimeo, 1000);

        AssertIdle(() => AssertZmqError(ZmqConstants.EAGAIN, () => pull.RecvString()));
    }

    [Theory]
    [TransportCases]
    public async Task Recv_BlockedWithoutTimeoutForOneSecond_ParksNearZeroCpuThenReceives(Transport transport)
    {
        var (pull, push) = WarmPair(transport);
        pull.SetOption(SocketOption.Rcvtimeo, -1);
        using var started = new ManualResetEventSlim();
        var blocked = Task.Factory.StartNew(
            () =>
            {
                started.Set();
                return pull.RecvString();
            },
            CancellationToken.None,
            TaskCreationOptions.LongRunning,
            TaskScheduler.Default);
        Assert.True(started.Wait(TimeSpan.FromSeconds(10)));

        using var idle = new ManualResetEventSlim();
        AssertIdle(() => idle.Wait(1000));
        Assert.False(blocked.IsCompleted);

        push.Send("release");
        Assert.Equal("release", await CompletesAsync(blocked, "the blocked Recv was not released by a message"));
    }

    /// <summary>A connected PULL/PUSH with one message through it, so every connection is up before measuring.</summary>
    private (Socket Pull, Socket Push) WarmPair(Transport transport)
    {
        var pull = Create(SocketType.Pull);
        var push = Create(SocketType.Push);
        push.Connect(TestEndpoint.Bind(pull, transport, "idle-cpu"));
        push.Send("warm-up");
        Assert.Equal("warm-up", pull.RecvString());
        return (pull, push);
    }

    private static void AssertIdle(Action oneSecondOfIdling)
    {
        var report = new List<string>();
        GC.Collect();
        GC.WaitForPendingFinalizers();
        for (int attempt = 0; attempt < 5; attempt++)
        {
            var process = Process.GetCurrentProcess();
            process.Refresh();
            var cpuBefore = process.TotalProcessorTime;
            var wall = Stopwatch.StartNew();
            oneSecondOfIdling();
            wall.Stop();
            process.Refresh();
            var cpu = process.TotalProcessorTime - cpuBefore;
            if (cpu < wall.Elapsed * MaxCoreFraction)
            {
                return;
            }

            report.Add($"CPU {cpu.TotalMilliseconds:F0} ms over {wall.Elapsed.TotalMilliseconds:F0} ms");
        }

        Assert.Fail(string.Join("; ", report));
    }
}
