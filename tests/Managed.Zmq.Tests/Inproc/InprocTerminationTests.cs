using System.Runtime.InteropServices;

namespace Managed.Zmq.Tests.Inproc;

/// <summary>
/// What a context's termination does with connects that still wait for an inproc name: nobody will bind it any more,
/// so what they queued is released, as libzmq's termination ends its pending inproc connects.
/// </summary>
public sealed class InprocTerminationTests
{
    private const int Size = 64 * 1024;

    [Fact]
    public async Task Terminate_ConnectNeverBoundLingering_QueuedPayloadReleasedAndReportedDiscarded()
    {
        // A lingering connect keeps its queue for a later binder, as libzmq's does; when the context ends instead,
        // the zero-copy message's free callback must still run.
        var context = new Context();
        using var released = new ManualResetEventSlim();
        var push = new Socket(context, SocketType.Push);
        push.SetOption(SocketOption.Linger, -1);
        push.Connect(TestEndpoint.Inproc("never-bound-at-termination"));
        nint memory = Marshal.AllocHGlobal(Size);
        using (var message = new Message(memory, Size, data =>
        {
            Marshal.FreeHGlobal(data);
            released.Set();
        }))
        {
            push.Send(message);
        }

        push.Dispose();
        Assert.False(released.IsSet);

        bool complete = await Task.Run(() => context.Terminate(Timeout.InfiniteTimeSpan)).WaitAsync(TimeSpan.FromSeconds(10));

        Assert.True(released.Wait(TimeSpan.FromSeconds(5)), "the queued payload was never released");
        Assert.False(complete);
    }

    [Fact]
    public async Task Terminate_NothingQueuedForUnboundNames_ReportsComplete()
    {
        var context = new Context();
        var push = new Socket(context, SocketType.Push);
        push.Connect(TestEndpoint.Inproc("never-bound-empty"));
        push.Dispose();

        bool complete = await Task.Run(() => context.Terminate(Timeout.InfiniteTimeSpan)).WaitAsync(TimeSpan.FromSeconds(10));

        Assert.True(complete);
    }
}
