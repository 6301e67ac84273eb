namespace Managed.Zmq.Security.Zap;

/// <summary>
/// Where ZAP requests go: the handler bound at <c>inproc://zeromq.zap.01</c> in the connection's
/// context (RFC 27). Security defines the seam and the socket layer supplies it, so the ZAP client
/// needs no socket of its own kind.
/// </summary>
internal interface IZapEndpoint
{
    /// <summary>True when a handler is bound: only then is ZAP asked at all (libzmq's rule).</summary>
    bool IsHandlerBound { get; }

    /// <summary>
    /// Opens a private channel to the handler (libzmq gives each session its own ZAP socket);
    /// <paramref name="onChange"/> runs, on any thread, whenever the channel may have a reply to read.
    /// </summary>
    IZapChannel Open(Action onChange);
}

/// <summary>One request's way to the ZAP handler and back; never blocks.</summary>
internal interface IZapChannel : IDisposable
{
    /// <summary>Queues one frame of the request (the empty delimiter first); false when it cannot go.</summary>
    bool TrySend(ReadOnlySpan<byte> frame, bool more);

    /// <summary>Takes the next reply frame if one is there.</summary>
    ZapReceive TryReceive(out byte[] frame, out bool more);
}

/// <summary>What <see cref="IZapChannel.TryReceive"/> found.</summary>
internal enum ZapReceive
{
    Received,
    WouldBlock,
    Failed,
}
