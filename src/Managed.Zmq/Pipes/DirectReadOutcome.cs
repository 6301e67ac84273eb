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
    /// Input was read (whole messages may be queued now), or a message was queued already: the caller tries its receive
    /// again.
    /// </summary>
    Read,

    /// <summary>
    /// Input was read, and part of it went back to the read loop (a command, a frame the parser refuses or too large for a
    /// buffer of its own, a large frame whose rest did not come within the wait): as <see cref="Read"/> for the caller.
    /// </summary>
    HandedBack,
}
