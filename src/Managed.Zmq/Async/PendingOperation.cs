
using Managed.Zmq.Sockets;

namespace Managed.Zmq.Async;

/// <summary>
/// An asynchronous socket operation waiting in its socket's <see cref="SocketAsyncState"/> queue.
/// The links make it a node of <see cref="PendingOperationQueue"/>, so queuing allocates nothing more
/// and a cancelled operation leaves from the middle in O(1).
/// </summary>
internal abstract class PendingOperation
{
    protected PendingOperation(SocketAsyncState owner)
    {
        Owner = owner;
    }

    /// <summary>The socket state whose queue holds this operation.</summary>
    public SocketAsyncState Owner { get; }

    /// <summary>The next (later) operation in the same direction; guarded by the owner's lock.</summary>
    public PendingOperation? Next { get; set; }

    /// <summary>The previous (earlier) operation in the same direction; guarded by the owner's lock.</summary>
    public PendingOperation? Previous { get; set; }

    /// <summary>True while the operation sits in a queue; guarded by the owner's lock.</summary>
    public bool IsQueued { get; set; }

    /// <summary>Gets a value indicating whether this is a send.</summary>
    public abstract bool IsSend { get; }

    /// <summary>
    /// Tries the operation once, under the owner's lock. true: it completed (result or fault) and must
    /// leave the queue; false: it would still block.
    /// </summary>
    public abstract bool TryRun(SocketCore core);

    /// <summary>Completes the operation as cancelled; called once it has left the queue.</summary>
    public abstract void CompleteCanceled();

    /// <summary>The token's callback: leave the queue if still there, then complete as cancelled.</summary>
    public void CancelFromToken() => Owner.Cancel(this);
}
