namespace Managed.Zmq.Pipes;

/// <summary>
/// The pipes whose producer committed data after the reader had set them aside as empty: a lock-free
/// intrusive stack (through <see cref="Pipe.NextActivated"/>), pushed by any producer thread and taken
/// whole by the one reading socket's thread (<see cref="Patterns.FairQueue"/>).
/// </summary>
/// <remarks>
/// A pipe is pushed only on its parked-to-queued transition (<see cref="Pipe.InboundCommitted"/>), and is
/// parked again only after the reader took it out, so it is never in the stack twice and the node links
/// need no allocation. The reader takes the whole stack with one exchange, so there is no ABA to guard.
/// </remarks>
internal sealed class PipeActivations
{
    private Pipe? _head;

    /// <summary>Producer (any thread): queues <paramref name="pipe"/> for the reader.</summary>
    public void Push(Pipe pipe)
    {
        while (true)
        {
            var head = Volatile.Read(ref _head);
            pipe.NextActivated = head;
            if (Interlocked.CompareExchange(ref _head, pipe, head) == head)
            {
                return;
            }
        }
    }

    /// <summary>Reader: takes every queued pipe (a chain through <see cref="Pipe.NextActivated"/>); null, without an interlocked operation, when none is.</summary>
    public Pipe? TakeAll() => Volatile.Read(ref _head) is null ? null : Interlocked.Exchange(ref _head, null);
}
