using Managed.Zmq.Threading;

namespace Managed.Zmq.Tests.Support;

/// <summary>Reads an I/O thread's own state on that thread, where it is kept without locks, and waits on its timers.</summary>
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

    /// <summary>
    /// Waits until a timer of <paramref name="milliseconds"/>, armed on the thread now, has run: at least that long has
    /// passed on the library's own clock (a peer's slowness that a test needs, with no sleep of the test's own).
    /// </summary>
    public static void WaitForTimer(IoThread thread, int milliseconds, int timeoutMilliseconds)
    {
        using var ran = new ManualResetEventSlim();
        thread.Schedule(_ => thread.AddTimer(milliseconds, _ => ran.Set(), null), null);
        Assert.True(ran.Wait(timeoutMilliseconds), "the I/O thread's timer did not run");
    }
}
