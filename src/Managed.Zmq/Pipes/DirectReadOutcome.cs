namespace Managed.Zmq.Pipes;

/// <summary>What a Recv's read on its turn came to (<see cref="IPipeEngine.ReadDirect"/>).</summary>
internal enum DirectReadOutcome
{
    /// <summary>The turn was not to be had, or it went back to the read loop with what came (a command, a large frame, the end): the caller waits on the loop.</summary>
    Declined,

    /// <summary>The turn was had and nothing came within the wait: the caller may borrow it again.</summary>
    Quiet,

    /// <summary>Input was read, or a message was queued already: the caller tries its receive again.</summary>
    Read,
}
