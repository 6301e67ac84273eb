using Managed.Zmq.Polling;

namespace Managed.Zmq;

/// <summary>
/// The built-in proxy (libzmq <c>zmq_proxy</c> / <c>zmq_proxy_steerable</c>): forwards whole messages
/// between a frontend and a backend socket on the calling thread. Event-driven: an idle proxy sleeps
/// until one of its sockets is notified and uses no CPU.
/// </summary>
/// <remarks>
/// The sockets are used only by the proxy until it ends; do not touch them from other threads meanwhile.
/// A message moves only while its destination can accept it; until then it stays queued at its source.
/// </remarks>
public static class Proxy
{
    /// <summary>
    /// Forwards messages, frames and MORE flags intact, from <paramref name="frontend"/> to
    /// <paramref name="backend"/> and back, in each direction the socket types allow. Never returns
    /// normally: it ends by throwing <see cref="ZmqException"/> ETERM once the context is shut down.
    /// </summary>
    /// <param name="frontend">The frontend socket.</param>
    /// <param name="backend">The backend socket.</param>
    /// <param name="capture">If given, receives a copy of every forwarded frame.</param>
    /// <exception cref="ArgumentNullException"><paramref name="frontend"/> or <paramref name="backend"/> is null.</exception>
    /// <exception cref="ZmqException">ETERM when the context is shut down; other socket errors.</exception>
    public static void Start(Socket frontend, Socket backend, Socket? capture = null)
    {
        ArgumentNullException.ThrowIfNull(frontend);
        ArgumentNullException.ThrowIfNull(backend);
        new ProxyRunner(frontend, backend, null, capture).Run();
    }

    /// <summary>
    /// As <see cref="Start"/>, steered by one-frame text commands on <paramref name="control"/>:
    /// <c>PAUSE</c> stops forwarding (messages stay queued), <c>RESUME</c> restarts it, <c>TERMINATE</c>
    /// makes this method return, and <c>STATISTICS</c> replies with 8 frames, each a little-endian
    /// uint64: frontend messages in, bytes in, messages out, bytes out, then the same for the backend.
    /// </summary>
    /// <param name="frontend">The frontend socket.</param>
    /// <param name="backend">The backend socket.</param>
    /// <param name="control">The socket commands arrive on (typically PAIR or REP).</param>
    /// <param name="capture">If given, receives a copy of every forwarded frame.</param>
    /// <remarks>
    /// Unknown commands are ignored. A multipart message counts once in the statistics. With a REP
    /// control socket, every command other than STATISTICS gets an empty reply so the socket can take
    /// the next command.
    /// </remarks>
    /// <exception cref="ArgumentNullException"><paramref name="frontend"/>, <paramref name="backend"/> or <paramref name="control"/> is null.</exception>
    /// <exception cref="ZmqException">ETERM when the context is shut down; other socket errors.</exception>
    public static void StartSteerable(Socket frontend, Socket backend, Socket control, Socket? capture = null)
    {
        ArgumentNullException.ThrowIfNull(frontend);
        ArgumentNullException.ThrowIfNull(backend);
        ArgumentNullException.ThrowIfNull(control);
        new ProxyRunner(frontend, backend, control, capture).Run();
    }
}
