namespace Managed.Zmq.Engine;

/// <summary>
/// What a socket holds of a connection the engine serves: enough to close it the LINGER way and to
/// tell which listener accepted it. The socket core keeps its connections only as this, so it never
/// depends on how a connection speaks (ZMTP, raw bytes).
/// </summary>
internal interface IConnection
{
    /// <summary>True once the handshake succeeded: only then can anything be queued to linger over.</summary>
    bool HandshakeComplete { get; }

    /// <summary>The listener that accepted this connection (Unbind closes its connections); null when connected.</summary>
    object? Origin { get; }

    /// <summary>Closes now, dropping whatever is still queued.</summary>
    void Close();

    /// <summary>Closes once what is queued went out, or at the latest after <paramref name="lingerMilliseconds"/> (-1: no limit).</summary>
    void CloseWhenDrained(int lingerMilliseconds);
}
