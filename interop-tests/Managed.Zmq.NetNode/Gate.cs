namespace Managed.Zmq.NetNode;

/// <summary>An async gate: open lets waiters through at once, closed holds them until reopened.</summary>
public sealed class Gate
{
    private readonly object _lock = new();
    private TaskCompletionSource _open = NewOpen(completed: true);

    public bool IsOpen
    {
        get
        {
            lock (_lock)
            {
                return _open.Task.IsCompleted;
            }
        }
    }

    public Task WaitOpenAsync()
    {
        lock (_lock)
        {
            return _open.Task;
        }
    }

    public void Close()
    {
        lock (_lock)
        {
            if (_open.Task.IsCompleted)
            {
                _open = NewOpen(completed: false);
            }
        }
    }

    public void Open()
    {
        lock (_lock)
        {
            _open.TrySetResult();
        }
    }

    private static TaskCompletionSource NewOpen(bool completed)
    {
        var tcs = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        if (completed)
        {
            tcs.SetResult();
        }

        return tcs;
    }
}
