namespace Managed.Zmq.Pipes;

/// <summary>What a Recv's read on its turn came to (<see cref="IPipeEngine.ReadDirect"/>).</summary>
internal enum DirectReadOutcome
{
    /// <summary>
    /// The turn was not to be had (the read loop is not waiting in its plain receive, a hand-back is pending, a large box
    /// is on its way), or the read met the end of the stream or an error, which go back to the read loop: the caller
    /// waits on the loop.
    /// </summary>
    Declined,

    /// <summary>The turn was had and nothing came within the wait (or another thread ended the wait early).</summary>
    Quiet,

    /// <summary>
    /// Input was read (whole messages may be queued now; what the read loop must handle, such as a command or a large
    /// frame, was handed back to it), or a message was queued already: the caller tries its receive again.
    /// </summary>
    Read,
}
