namespace Managed.Zmq.Pipes;

/// <summary>What a pipe may ask of the connection engine serving it. Callable from any thread.</summary>
internal interface IPipeEngine
{
    /// <summary>New outbound data was committed while the write loop was parked.</summary>
    void WakeWriter();

    /// <summary>
    /// Socket thread, holding the parked write loop's turn (<see cref="StreamPipe"/>'s direct state):
    /// writes the queued messages to the OS socket itself. True when the queue was sent whole;
    /// false leaves what is left (with a note of any bytes already sent) to the write loop.
    /// </summary>
    bool TryWriteDirect(StreamPipe pipe);

    /// <summary>
    /// Socket thread, about to wait in Recv with this pipe its only one: reads the connection's OS socket itself while
    /// the read loop waits (the read turn, docs/ARCHITECTURE.md), waiting in the kernel up to
    /// <paramref name="microseconds"/>, through <paramref name="wait"/> when another thread may have to end it early.
    /// <see cref="DirectReadOutcome.Read"/> when it read (whole messages may be in the pipe now), or
    /// <see cref="DirectReadOutcome.HandedBack"/> when part of what it read went back to the read loop;
    /// <see cref="DirectReadOutcome.Quiet"/> when nothing came; <see cref="DirectReadOutcome.Declined"/> when it could
    /// not borrow the turn or met the end of the stream. With <paramref name="onlyIfAway"/>, only a turn an earlier Recv
    /// left away.
    /// </summary>
    DirectReadOutcome ReadDirect(StreamPipe pipe, int microseconds, bool onlyIfAway, Threading.InterruptibleWait? wait) => DirectReadOutcome.Declined;

    /// <summary>
    /// True while the last message the connection received ended in a large frame (a hint, read racily): a stream of
    /// large messages, which its receiver reads on the read turn as it reads a reply.
    /// </summary>
    bool ReceivesLargeFrames => false;

    /// <summary>Socket thread, before asking whether input is there without receiving it (a Poller): the read loop takes a turn left away back.</summary>
    void ReclaimRead()
    {
    }

    /// <summary>The consumer made room below the low-water mark while the read loop was paused.</summary>
    void WakeReader();

    /// <summary>Closes the connection now (Disconnect, Unbind, LINGER expired).</summary>
    void Close();

    /// <summary>
    /// What Socket.GetPeers shows of this connection. The engine refers to it, not the other way: a pipe made by
    /// Connect keeps its last <see cref="PeerConnection"/>, and must not keep the ended connection alive with it.
    /// </summary>
    PeerConnection? Connection { get; }

    /// <summary>Ends the connection as if the network had failed (Socket.DisconnectPeer): a connecter reconnects.</summary>
    void Drop();
}
