namespace Managed.Zmq.Threading;

/// <summary>Something on an I/O thread waiting for its OS socket to become readable or writable.</summary>
internal interface IReadinessHandler
{
    /// <summary>The socket can be read (or accepted from) without blocking, or has an error to report.</summary>
    void OnReadable();

    /// <summary>The socket can be written (or its connect finished) without blocking.</summary>
    void OnWritable();

    /// <summary>
    /// OnReadable or OnWritable threw (already reported) or the socket failed in the reactor: the
    /// reactor has forgotten the socket, and the handler ends what it belongs to (one connection).
    /// </summary>
    void OnFault(Exception exception);
}
