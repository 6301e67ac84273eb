using Managed.Zmq.Threading;

namespace Managed.Zmq.Tests.Support;

/// <summary>Reads an I/O thread's own state on that thread, where it is kept without locks.</summary>
internal static class IoThreadProbe
{
    /// <summary>The timers the thread has armed and not yet run or cancelled.</summary>
    public static int PendingTimers(IoThread thread, int timeoutMilliseconds)
    {
        var read = new TaskCompletionSource<int>(TaskCreationOptions.RunContinuationsAsynchronously);
        thread.Schedule(_ => read.SetResult(thread.PendingTimers), null);
        Assert.True(read.Task.Wait(timeoutMilliseconds), "the I/O thread ran the read");
        return read.Task.Result;
    }
}
