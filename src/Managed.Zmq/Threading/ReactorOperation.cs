using System.Threading.Tasks.Sources;

namespace Managed.Zmq.Threading;

/// <summary>
/// A reusable awaitable completed on an <see cref="IoThread"/>: a connect waiting for writability,
/// a reconnect delay. Completion runs the continuation inline on that thread.
/// </summary>
internal sealed class ReactorOperation : IValueTaskSource<bool>
{
    private ManualResetValueTaskSourceCore<bool> _core;
    private bool _pending;


    /// <summary>Starts a new wait; complete it with <see cref="Complete"/>.</summary>
    public ValueTask<bool> Begin()
    {
        _core.Reset();
        _pending = true;
        return new ValueTask<bool>(this, _core.Version);
    }

    /// <summary>Completes the pending wait with <paramref name="result"/>; ignored when none is pending.</summary>
    public void Complete(bool result)
    {
        if (!_pending)
        {
            return;
        }

        _pending = false;
        _core.SetResult(result);
    }

    bool IValueTaskSource<bool>.GetResult(short token) => _core.GetResult(token);

    ValueTaskSourceStatus IValueTaskSource<bool>.GetStatus(short token) => _core.GetStatus(token);

    void IValueTaskSource<bool>.OnCompleted(Action<object?> continuation, object? state, short token, ValueTaskSourceOnCompletedFlags flags)
        => _core.OnCompleted(continuation, state, token, flags);
}
