namespace Managed.Zmq.Transports;

/// <summary>
/// A connected byte stream as the ZMTP engine sees it: a TCP or Unix-domain socket in production,
/// an in-memory pipe in tests (so the handshake is tested against a scripted peer without sockets).
/// </summary>
internal interface IByteTransport : IDisposable
{
    /// <summary>Receives at least one byte into <paramref name="buffer"/>; 0 means the peer closed.</summary>
    ValueTask<int> ReceiveAsync(Memory<byte> buffer);

    /// <summary>
    /// As <see cref="ReceiveAsync"/>, for the read loop's plain receive: while it is pending, the socket's thread may
    /// borrow it (<see cref="TryLendReceive"/>).
    /// </summary>
    ValueTask<int> ReceiveLendableAsync(Memory<byte> buffer) => ReceiveAsync(buffer);

    /// <summary>Sends all of <paramref name="data"/>.</summary>
    ValueTask SendAsync(ReadOnlyMemory<byte> data);

    /// <summary>
    /// The write loop only: with <paramref name="corked"/> the kernel sends full segments alone and holds a partial
    /// one until the bytes that follow fill it; without, it sends what it holds at once. The loop corks while large
    /// frames follow one another, so that each frame's last few bytes do not go as a segment of their own, and
    /// uncorks before it waits for more. True when the transport is now corked; false where it has no segments.
    /// </summary>
    bool SetCorked(bool corked) => false;

    /// <summary>
    /// Sends what the kernel takes of <paramref name="data"/> at once, without waiting, from any
    /// thread, while the write loop is parked: the bytes sent, 0 when the kernel would block, -1
    /// on an error (the write loop meets it again and ends the connection) or where not supported.
    /// </summary>
    int TrySendNow(ReadOnlySpan<byte> data) => -1;

    /// <summary>
    /// Sends a keep-alive in the transport's own framing (ws://: a WebSocket ping frame) for a heartbeat
    /// the engine cannot send as a PING command the peer reads: libzmq's ws engine answers only WebSocket
    /// pings, and under CURVE the engine's PING would travel encrypted. False where the transport has none.
    /// Called on the connection's I/O thread.
    /// </summary>
    bool TrySendPing() => false;

    /// <summary>What a pending receive completes with when a borrower of the read turn handed it bytes to parse (or the end of the stream to meet).</summary>
    const int HandedBack = int.MinValue;

    /// <summary>Whether this transport has a read turn to lend at all (<see cref="TryLendReceive"/>).</summary>
    bool LendsReceive => false;

    /// <summary>
    /// The socket's thread borrows the receive side while the read loop's receive is pending (the read turn, see
    /// docs/ARCHITECTURE.md); false where the transport has no turn to lend or none is free. With
    /// <paramref name="onlyIfAway"/>, only a turn a borrower left <see cref="LentReturn.Away"/>. Any thread.
    /// </summary>
    bool TryLendReceive(bool onlyIfAway) => false;

    /// <summary>
    /// With the turn borrowed: receives without waiting, after waiting up to <paramref name="microseconds"/> (0: not at
    /// all) for input unless input is likely there already (the transport may try first, and wait only if it finds none).
    /// With <paramref name="wait"/>, the borrower's thread waits through it, so another thread can end the wait early; a
    /// receive that did not wait leaves such an interrupt for the thread's next wait. The bytes received; 0 when there
    /// were none; -1 at the end of the stream, on an error or on a closed transport (the read loop then meets the same).
    /// </summary>
    int ReceiveLent(Span<byte> buffer, int microseconds, Threading.InterruptibleWait? wait) => -1;

    /// <summary>Gives the borrowed turn back; the pending receive now fills <paramref name="buffer"/>.</summary>
    void ReturnLent(Memory<byte> buffer, LentReturn how)
    {
    }

    /// <summary>A turn left <see cref="LentReturn.Away"/> goes back to the read loop (a Poller or ZMQ_EVENTS asks). Any thread.</summary>
    void ReclaimLent()
    {
    }

    /// <summary>As <see cref="ReclaimLent"/>, on the I/O thread; true when the turn was away.</summary>
    bool ReclaimLentHere() => false;

    /// <summary>
    /// How many keep-alives (ws://: ping and pong frames) the transport has received and consumed itself,
    /// giving the engine no bytes: signs of life the engine counts at each heartbeat check. 0 where there are none.
    /// </summary>
    long KeepAlivesReceived => 0;

    /// <summary>The peer's address as ZAP and monitor events name it (IP without port, or empty).</summary>
    string PeerAddress { get; }

    /// <summary>Our end as an endpoint (tcp://address:port, ipc://path), or empty (Socket.GetPeers).</summary>
    string LocalEndpoint => string.Empty;

    /// <summary>The peer's end as an endpoint, or empty (Socket.GetPeers).</summary>
    string RemoteEndpoint => string.Empty;

    /// <summary>The OS handle for monitor event values, or -1.</summary>
    int Handle { get; }
}
