namespace Managed.Zmq.Tests.Support;

/// <summary>
/// Runs a blocking call (Context.Dispose, a kill-and-wait) on its own thread so that the test can
/// wait for it with a deadline and report a hang as a failure instead of hanging the run.
/// </summary>
internal sealed class BackgroundCall
{
    private readonly ManualResetEventSlim _done = new();
    private Exception? _error;

    private BackgroundCall(Action action)
    {
        var thread = new Thread(() =>
        {
            try
            {
                action();
            }
            catch (Exception ex)
            {
                _error = ex;
            }
            finally
            {
                _done.Set();
            }
        })
        {
            IsBackground = true,
            Name = "test background call",
        };
        thread.Start();
    }

    public static BackgroundCall Start(Action action) => new(action);

    /// <summary>True when the call finished (rethrowing what it threw) within the timeout.</summary>
    public bool Wait(int timeoutMilliseconds)
    {
        if (!_done.Wait(timeoutMilliseconds))
        {
            return false;
        }

        if (_error is not null)
        {
            throw new InvalidOperationException("The background call failed.", _error);
        }

        return true;
    }
}
