using System.Runtime.CompilerServices;
using Managed.Zmq.Buffers;
using Managed.Zmq.Options;
using Managed.Zmq.Security.Zap;
using Managed.Zmq.Sockets;

namespace Managed.Zmq.Async;

/// <summary>
/// The asynchronous side of one socket: two FIFO queues of pending operations (sends, receives) and
/// the retry that runs them on the thread pool when the socket is notified (as in Net.Zmq).
/// </summary>
/// <remarks>
/// <para>
/// Nothing waits on a thread. The socket's signal calls <see cref="OnSignal"/> on every notification;
/// with operations pending it queues this object (an <see cref="IThreadPoolWorkItem"/>, so no allocation)
/// at most once, and <see cref="Execute"/> retries the head of each queue. Without pending operations a
/// notification costs one volatile read.
/// </para>
/// <para>
/// Every socket call made for an async operation runs under <see cref="_lock"/>: a pending receive
/// retried on the pool and a new send on the caller's thread may coexist (the async API allows one pending send and one pending receive at once), and the socket
/// itself is not thread-safe.
/// </para>
/// <para>
/// The first try happens before the operation is published in <see cref="_pending"/>, so a notification
/// between that try and the publication would find nothing to do. The operation is therefore tried once
/// more after publishing (a full fence): either that second try sees the change, or the listener sees
/// the operation.
/// </para>
/// </remarks>
internal sealed class SocketAsyncState : IThreadPoolWorkItem
{
    /// <summary>
    /// One state per socket, created on first async use. Keyed weakly on the public socket; the state
    /// holds only the core, so an undisposed socket can still be finalized.
    /// </summary>
    private static readonly ConditionalWeakTable<Socket, SocketAsyncState> s_states = new();

    /// <summary>The socket's core, on which every attempt runs.</summary>
    private readonly SocketCore _core;

    /// <summary>Serialises every socket call made by async operations, and both queues. Re-entrant (cancellation may run inline).</summary>
    private readonly object _lock = new();

    /// <summary>Pending sends, oldest first.</summary>
    private readonly PendingOperationQueue _sends = new();

    /// <summary>Pending receives, oldest first.</summary>
    private readonly PendingOperationQueue _receives = new();

    /// <summary>Cached delegate added to the socket's signal once, on the first operation that has to wait.</summary>
    private readonly Action _listener;

    /// <summary>Number of queued operations; the listener's only read when the socket is idle.</summary>
    private int _pending;

    /// <summary>1 while a retry is queued on the thread pool and has not started yet.</summary>
    private int _scheduled;

    /// <summary>True once <see cref="_listener"/> is on the socket's signal; guarded by <see cref="_lock"/>.</summary>
    private bool _listening;

    private SocketAsyncState(SocketCore core)
    {
        _core = core;
        _listener = OnSignal;
    }

    public static SocketAsyncState For(Socket socket) => s_states.GetValue(socket, static s => new SocketAsyncState(s.Core));

    /// <summary>Runs <paramref name="attempt"/> now if it can complete at once, otherwise queues it.</summary>
    public ValueTask<TResult> Run<TAttempt, TResult>(TAttempt attempt, CancellationToken cancellationToken)
        where TAttempt : struct, IAsyncAttempt<TResult>
    {
        lock (_lock)
        {
            var operation = Start<TAttempt, TResult>(ref attempt, cancellationToken, out var completed, out var failure);
            if (operation is not null)
            {
                return operation.AsValueTask();
            }

            return failure is null ? new ValueTask<TResult>(completed) : ValueTask.FromException<TResult>(failure);
        }
    }

    /// <summary>As <see cref="Run{TAttempt, TResult}"/>, for operations whose task has no result.</summary>
    public ValueTask RunWithoutResult<TAttempt>(TAttempt attempt, CancellationToken cancellationToken)
        where TAttempt : struct, IAsyncAttempt<bool>
    {
        lock (_lock)
        {
            var operation = Start<TAttempt, bool>(ref attempt, cancellationToken, out _, out var failure);
            if (operation is not null)
            {
                return operation.AsNonGenericValueTask();
            }

            return failure is null ? ValueTask.CompletedTask : ValueTask.FromException(failure);
        }
    }

    /// <summary>Removes a cancelled operation that has not completed yet, then completes it as cancelled.</summary>
    public void Cancel(PendingOperation operation)
    {
        lock (_lock)
        {
            if (!operation.IsQueued)
            {
                // It completed (or was cancelled) first; a cancellation after that has no effect.
                return;
            }

            (operation.IsSend ? _sends : _receives).Remove(operation);
            Interlocked.Decrement(ref _pending);
        }

        operation.CompleteCanceled();

        // The operation behind it may be able to run now, and nothing else would wake it.
        ScheduleIfPending();
    }

    /// <summary>Thread-pool retry: run every queue head that can complete now, until nothing moves.</summary>
    public void Execute()
    {
        // Cleared before trying, with a full fence: a notification from now on schedules another run.
        Interlocked.Exchange(ref _scheduled, 0);
        lock (_lock)
        {
            // A completed receive can make a send possible (REQ/REP) without any notification, so loop.
            bool progress;
            do
            {
                progress = Drain(_sends);
                progress |= Drain(_receives);
            }
            while (progress && Volatile.Read(ref _pending) != 0);
        }
    }

    /// <summary>
    /// Caller's thread, under the lock: the synchronous try, then (if it would block) the queued operation.
    /// Returns the operation, or null with either <paramref name="completed"/> or <paramref name="failure"/> set.
    /// </summary>
    private PendingOperation<TAttempt, TResult>? Start<TAttempt, TResult>(
        ref TAttempt attempt, CancellationToken cancellationToken, out TResult completed, out Exception? failure)
        where TAttempt : struct, IAsyncAttempt<TResult>
    {
        failure = null;
        var queue = attempt.IsSend ? _sends : _receives;
        bool first = queue.IsEmpty;

        // Earlier operations in the same direction go first (call order), so only an empty queue may try now.
        // The try comes before the token check: a cancelled token does not stop an operation that can complete at once.
        if (first)
        {
            try
            {
                if (attempt.TryExecute(_core, out completed))
                {
                    ScheduleIfPending();
                    return null;
                }
            }
            catch (Exception exception)
            {
                attempt.Abandon();
                completed = default!;
                failure = exception;
                return null;
            }
        }

        completed = default!;
        if (cancellationToken.IsCancellationRequested)
        {
            attempt.Abandon();
            failure = new OperationCanceledException(cancellationToken);
            return null;
        }

        if (!_listening)
        {
            _listening = true;
            _core.Signal.AddListener(_listener);
        }

        var operation = new PendingOperation<TAttempt, TResult>(this, attempt, cancellationToken);
        queue.Enqueue(operation);
        Interlocked.Increment(ref _pending);
        if (first && operation.TryRun(_core))
        {
            // The socket changed between the first try and the publication above.
            queue.Remove(operation);
            Interlocked.Decrement(ref _pending);
            ScheduleIfPending();
            return operation;
        }

        operation.RegisterCancellation();
        return operation;
    }

    /// <summary>Runs the head of <paramref name="queue"/> while it completes; true when at least one did.</summary>
    private bool Drain(PendingOperationQueue queue)
    {
        bool progress = false;
        while (queue.Head is { } operation && operation.TryRun(_core))
        {
            queue.Remove(operation);
            Interlocked.Decrement(ref _pending);
            progress = true;
        }

        return progress;
    }

    /// <summary>The socket's signal: runs on the notifying thread (often an I/O thread), so it only schedules.</summary>
    private void OnSignal() => ScheduleIfPending();

    private void ScheduleIfPending()
    {
        if (Volatile.Read(ref _pending) != 0 && Interlocked.Exchange(ref _scheduled, 1) == 0)
        {
            ThreadPool.UnsafeQueueUserWorkItem(this, preferLocal: false);
        }
    }
}
