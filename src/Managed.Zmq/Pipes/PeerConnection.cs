namespace Managed.Zmq.Pipes;

/// <summary>
/// What a pipe's current connection is, fixed when it starts: its endpoints, what the handshake agreed
/// and where the pipe's counters stood then, so a snapshot counts this connection only (a pipe made by
/// Connect outlives its connections). One immutable object per connection, made on the thread that
/// starts it (the I/O thread for tcp and ipc, the linking socket's for inproc) and published with the
/// pipe's engine (<see cref="StreamPipe.SetEngine"/>) or the link; <see cref="Socket.GetPeers"/> reads it.
/// </summary>
internal sealed class PeerConnection
{
    /// <summary>Our side: tcp://address:port, ipc://path (empty when the OS gives none), inproc://name.</summary>
    public required string LocalEndpoint { get; init; }

    /// <summary>The peer's side, in the same form.</summary>
    public required string RemoteEndpoint { get; init; }

    /// <summary>"NULL", "PLAIN", "CURVE"; empty for inproc and raw (STREAM) connections, which have none.</summary>
    public string Mechanism { get; init; } = string.Empty;

    /// <summary>The ZMTP version the peer's greeting announced; null for inproc and raw connections.</summary>
    public Version? ZmtpVersion { get; init; }

    /// <summary>The peer's socket type as it announced it; null when it announced none (raw, ZMTP 2.0 without one).</summary>
    public SocketType? PeerSocketType { get; init; }

    /// <summary>What the ZAP handler named the peer, or empty.</summary>
    public string UserId { get; init; } = string.Empty;

    /// <summary>
    /// Socket.DisconnectPeer asked for this connection to end (socket thread only): it is no longer a peer,
    /// though the I/O thread may take a moment to close it.
    /// </summary>
    public bool Dropped { get; set; }

    public DateTimeOffset ConnectedAt { get; init; } = DateTimeOffset.UtcNow;

    // Where the pipe's counters stood when the connection began; the engine owns these counters
    // (it produces inbound and consumes outbound), so it reads them exactly.
    public long MessagesReceivedBefore { get; init; }

    public long BytesReceivedBefore { get; init; }

    public long MessagesSentBefore { get; init; }

    public long BytesSentBefore { get; init; }

    /// <summary>Read racily: the socket thread counts drops (<see cref="Pipes.Pipe.MessagesDroppedAtHwm"/>).</summary>
    public long MessagesDroppedBefore { get; init; }
}
