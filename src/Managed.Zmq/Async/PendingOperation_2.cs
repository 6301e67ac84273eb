using System.Threading.Tasks.Sources;
using Managed.Zmq.Buffers;
using Managed.Zmq.Options;
using Managed.Zmq.Security.Zap;
using Managed.Zmq.Sockets;

namespace Managed.Zmq.Async;

/// <summary>
/// A pending operation and the task source its caller awaits. Not pooled: it can be cancelled, and a
/// cancellable source cannot be recycled safely (the Channels rule).
/// </summary>
/// <typeparam name="TAttempt">The operation as a value.</typeparam>
/// <typeparam name="TResult">What the caller's task returns.</typeparam>
internal sealed class PendingOperation<TAttempt, TResult> : PendingOperation, IValueTaskSource<TResult>, IValueTaskSource
    where TAttempt : struct, IAsyncAttempt<TResult>
{
    /// <summary>Queues continuations to the thread pool: they never run on the notifying (I/O) thread or under our lock.</summary>
    private ManualResetValueTaskSourceCore<TResult> _source = new() { RunContinuationsAsynchronously = true };

    /// <summary>The operation; mutable because an attempt may keep a buffer across tries.</summary>
    private TAttempt _attempt;

    /// <summary>The caller's token, carried by the <see cref="OperationCanceledException"/>.</summary>
    private readonly CancellationToken _cancellationToken;

    /// <summary>Registration on <see cref="_cancellationToken"/>, dropped once the operation completes.</summary>
    private CancellationTokenRegistration _registration;

    public PendingOperation(SocketAsyncState owner, TAttempt attempt, CancellationToken cancellationToken)
        : base(owner)
    {
        _attempt = attempt;
        _cancellationToken = cancellationToken;
    }

    public override bool IsSend => _attempt.IsSend;

    public ValueTask<TResult> AsValueTask() => new(this, _source.Version);

    public ValueTask AsNonGenericValueTask() => new(this, _source.Version);

    /// <summary>Called under the owner's lock once the operation is queued.</summary>
    public void RegisterCancellation()
    {
        if (_cancellationToken.CanBeCanceled)
        {
            // If the token is already cancelled the callback runs right here, re-entering the owner's
            // (re-entrant) lock; it finds the operation queued and cancels it.
            _registration = _cancellationToken.UnsafeRegister(static state => ((PendingOperation)state!).CancelFromToken(), this);
        }
    }

    public override bool TryRun(SocketCore core)
    {
        TResult result;
        try
        {
            if (!_attempt.TryExecute(core, out result))
            {
                return false;
            }
        }
        catch (Exception exception)
        {
            // Unregister, not Dispose: Dispose would wait for a callback that is itself waiting for our lock.
            _registration.Unregister();
            _attempt.Abandon();
            _source.SetException(exception);
            return true;
        }

        _registration.Unregister();
        _source.SetResult(result);
        return true;
    }

    public override void CompleteCanceled()
    {
        _registration.Unregister();
        _attempt.Abandon();
        _source.SetException(new OperationCanceledException(_cancellationToken));
    }

    TResult IValueTaskSource<TResult>.GetResult(short token) => _source.GetResult(token);

    void IValueTaskSource.GetResult(short token) => _source.GetResult(token);

    ValueTaskSourceStatus IValueTaskSource<TResult>.GetStatus(short token) => _source.GetStatus(token);

    ValueTaskSourceStatus IValueTaskSource.GetStatus(short token) => _source.GetStatus(token);

    void IValueTaskSource<TResult>.OnCompleted(Action<object?> continuation, object? state, short token, ValueTaskSourceOnCompletedFlags flags)
        => _source.OnCompleted(continuation, state, token, flags);

    void IValueTaskSource.OnCompleted(Action<object?> continuation, object? state, short token, ValueTaskSourceOnCompletedFlags flags)
        => _source.OnCompleted(continuation, state, token, flags);
}
