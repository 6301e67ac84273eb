namespace Managed.Zmq.Async;

/// <summary>
/// FIFO of the pending operations in one direction of one socket (As in Net.Zmq: same-direction operations
/// complete in call order). Intrusive and doubly linked so cancellation can unlink any node.
/// Not synchronised: the owning <see cref="SocketAsyncState"/> holds its lock around every call.
/// </summary>
internal sealed class PendingOperationQueue
{
    /// <summary>The newest operation; new ones are linked after it.</summary>
    private PendingOperation? _tail;

    /// <summary>Gets the oldest operation, the only one that may run.</summary>
    public PendingOperation? Head { get; private set; }

    public bool IsEmpty => Head is null;

    public void Enqueue(PendingOperation operation)
    {
        operation.Previous = _tail;
        operation.Next = null;
        operation.IsQueued = true;
        if (_tail is null)
        {
            Head = operation;
        }
        else
        {
            _tail.Next = operation;
        }

        _tail = operation;
    }

    public void Remove(PendingOperation operation)
    {
        if (operation.Previous is null)
        {
            Head = operation.Next;
        }
        else
        {
            operation.Previous.Next = operation.Next;
        }

        if (operation.Next is null)
        {
            _tail = operation.Previous;
        }
        else
        {
            operation.Next.Previous = operation.Previous;
        }

        operation.Next = null;
        operation.Previous = null;
        operation.IsQueued = false;
    }
}
