namespace Managed.Zmq.Pipes;

/// <summary>What a pipe asks of the socket it belongs to (the socket core; a stand-in in tests).</summary>
internal interface IPipeOwner
{
    /// <summary>
    /// A whole message went out and nothing came in since: a send now is one of a stream, which the write
    /// loop batches, rather than a reply, which the socket thread may write to the OS socket itself.
    /// </summary>
    bool ReplyDue { get; }

    /// <summary>
    /// A message that ends in a large frame may be written to the OS socket by the sending thread while the write loop
    /// is parked: it takes a system call of its own either way. False where one message may go to several peers,
    /// whose connections' I/O threads then send it side by side.
    /// </summary>
    bool WritesLargeFramesDirect { get; }

    /// <summary>Queues a pipe event for the socket's thread (any thread).</summary>
    void Enqueue(Pipe pipe, PipeEventKind kind);
}
