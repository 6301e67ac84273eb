namespace Managed.Zmq.Transports;

/// <summary>How a borrower gives the read turn back (<see cref="IByteTransport.ReturnLent"/>).</summary>
internal enum LentReturn
{
    /// <summary>Nothing came: the read loop watches again.</summary>
    Idle,

    /// <summary>It read and will likely borrow again soon (its next Recv): nobody watches until a check takes the turn back.</summary>
    Away,

    /// <summary>It read what the read loop must handle (a command, a large frame, an error, the end): the pending receive completes with <see cref="IByteTransport.HandedBack"/>.</summary>
    HandBack,
}
