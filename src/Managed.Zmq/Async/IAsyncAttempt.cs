
using Managed.Zmq.Sockets;

namespace Managed.Zmq.Async;

/// <summary>
/// One asynchronous socket operation as a value: tried once on the caller's thread, then again on the
/// thread pool each time the socket is notified, until it succeeds or fails.
/// </summary>
/// <typeparam name="TResult">What the operation's task returns.</typeparam>
internal interface IAsyncAttempt<TResult>
{
    /// <summary>Gets a value indicating whether this is a send (ordering is kept per direction).</summary>
    bool IsSend { get; }

    /// <summary>Tries the operation without waiting. false: it would block and nothing happened; throws on failure.</summary>
    bool TryExecute(SocketCore core, out TResult result);

    /// <summary>The operation ended without success (cancelled or failed): release what it holds.</summary>
    void Abandon();
}
