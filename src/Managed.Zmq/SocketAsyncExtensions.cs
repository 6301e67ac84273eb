using Managed.Zmq.Internal;
using Managed.Zmq.Polling;
using Managed.Zmq.Async;

namespace Managed.Zmq;

/// <summary>
/// Truly asynchronous send and receive: an operation that can complete at once does so on the caller's
/// thread and returns a completed <see cref="ValueTask"/>; otherwise it waits on the socket's internal
/// signal, with no thread blocked, no timer and no polling, and is retried on the thread pool whenever
/// the socket may have become ready.
/// </summary>
/// <remarks>
/// <para>
/// Continuations never run inline on a library I/O thread, and the library captures no
/// <see cref="SynchronizationContext"/>. <c>Sndtimeo</c> and <c>Rcvtimeo</c> do not apply: a pending
/// operation ends on success, on cancellation (<see cref="OperationCanceledException"/>, with no effect on
/// the socket), when the socket is disposed (<see cref="ObjectDisposedException"/>), when the context is
/// shut down (<see cref="ZmqException"/> ETERM), or on another socket error.
/// </para>
/// <para>
/// Pending operations in the same direction complete in call order; a pending send and a pending receive
/// may coexist. Do not call the synchronous API on the same socket from another thread while an
/// asynchronous operation is pending.
/// </para>
/// </remarks>
public static class SocketAsyncExtensions
{
    /// <summary>Sends <paramref name="data"/> as one frame.</summary>
    /// <param name="socket">The socket.</param>
    /// <param name="data">The frame; copied when the send happens.</param>
    /// <param name="cancellationToken">Cancels the send while it waits; a cancelled send queues nothing.</param>
    /// <returns>The number of bytes sent.</returns>
    /// <exception cref="ArgumentNullException"><paramref name="socket"/> or <paramref name="data"/> is null (thrown synchronously).</exception>
    public static ValueTask<int> SendAsync(this Socket socket, byte[] data, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(socket);
        ArgumentNullException.ThrowIfNull(data);
        return SocketAsyncState.For(socket).Run<SendFrameAttempt, int>(new SendFrameAttempt(data), cancellationToken);
    }

    /// <summary>Sends <paramref name="data"/> as one frame.</summary>
    /// <param name="socket">The socket.</param>
    /// <param name="data">The frame; copied when the send happens, so it must stay unchanged until the task completes.</param>
    /// <param name="cancellationToken">Cancels the send while it waits; a cancelled send queues nothing.</param>
    /// <returns>The number of bytes sent. A null <paramref name="socket"/> faults the task with <see cref="ArgumentNullException"/>.</returns>
    public static ValueTask<int> SendAsync(this Socket socket, ReadOnlyMemory<byte> data, CancellationToken cancellationToken = default)
    {
        if (socket is null)
        {
            return ValueTask.FromException<int>(ThrowHelper.CreateArgumentNullException(nameof(socket)));
        }

        return SocketAsyncState.For(socket).Run<SendFrameAttempt, int>(new SendFrameAttempt(data), cancellationToken);
    }

    /// <summary>Sends the UTF-8 encoding of <paramref name="text"/> as one frame.</summary>
    /// <param name="socket">The socket.</param>
    /// <param name="text">The text.</param>
    /// <param name="cancellationToken">Cancels the send while it waits; a cancelled send queues nothing.</param>
    /// <returns>The number of UTF-8 bytes sent. Null arguments fault the task with <see cref="ArgumentNullException"/>.</returns>
    public static ValueTask<int> SendAsync(this Socket socket, string text, CancellationToken cancellationToken = default)
    {
        if (socket is null)
        {
            return ValueTask.FromException<int>(ThrowHelper.CreateArgumentNullException(nameof(socket)));
        }

        if (text is null)
        {
            return ValueTask.FromException<int>(ThrowHelper.CreateArgumentNullException(nameof(text)));
        }

        return SocketAsyncState.For(socket).Run<SendTextAttempt, int>(new SendTextAttempt(text), cancellationToken);
    }

    /// <summary>Receives one frame into a new array.</summary>
    /// <param name="socket">The socket.</param>
    /// <param name="cancellationToken">Cancels the receive while it waits; a cancelled receive consumes nothing.</param>
    /// <returns>The frame. A null <paramref name="socket"/> faults the task with <see cref="ArgumentNullException"/>.</returns>
    public static ValueTask<byte[]> RecvBytesAsync(this Socket socket, CancellationToken cancellationToken = default)
    {
        if (socket is null)
        {
            return ValueTask.FromException<byte[]>(ThrowHelper.CreateArgumentNullException(nameof(socket)));
        }

        return SocketAsyncState.For(socket).Run<RecvBytesAttempt, byte[]>(default, cancellationToken);
    }

    /// <summary>Receives one frame decoded as UTF-8.</summary>
    /// <param name="socket">The socket.</param>
    /// <param name="cancellationToken">Cancels the receive while it waits; a cancelled receive consumes nothing.</param>
    /// <returns>The text. A null <paramref name="socket"/> faults the task with <see cref="ArgumentNullException"/>.</returns>
    public static ValueTask<string> RecvStringAsync(this Socket socket, CancellationToken cancellationToken = default)
    {
        if (socket is null)
        {
            return ValueTask.FromException<string>(ThrowHelper.CreateArgumentNullException(nameof(socket)));
        }

        return SocketAsyncState.For(socket).Run<RecvStringAttempt, string>(default, cancellationToken);
    }

    /// <summary>
    /// Sends every frame of <paramref name="message"/> as one message, consuming the frames. Atomic: it waits
    /// only until the first frame can be accepted, then queues all frames without further waiting, so
    /// cancellation counts only before that point.
    /// </summary>
    /// <param name="socket">The socket.</param>
    /// <param name="message">The frames.</param>
    /// <param name="cancellationToken">Cancels the send while it waits for the first frame.</param>
    /// <returns>
    /// A task that completes when every frame is queued. Null arguments fault it with
    /// <see cref="ArgumentNullException"/>, an empty message with <see cref="InvalidOperationException"/>.
    /// </returns>
    public static ValueTask SendMultipartAsync(this Socket socket, MultipartMessage message, CancellationToken cancellationToken = default)
    {
        if (socket is null)
        {
            return ValueTask.FromException(ThrowHelper.CreateArgumentNullException(nameof(socket)));
        }

        if (message is null)
        {
            return ValueTask.FromException(ThrowHelper.CreateArgumentNullException(nameof(message)));
        }

        if (message.IsEmpty)
        {
            return ValueTask.FromException(ThrowHelper.CreateInvalidOperationException("Cannot send empty multipart message"));
        }

        return SocketAsyncState.For(socket).RunWithoutResult(new SendMultipartAttempt(message), cancellationToken);
    }

    /// <summary>Receives a whole message: waits for its first frame; the others are then already queued.</summary>
    /// <param name="socket">The socket.</param>
    /// <param name="cancellationToken">Cancels the receive while it waits; a cancelled receive consumes nothing.</param>
    /// <returns>A new container the caller disposes. A null <paramref name="socket"/> faults the task with <see cref="ArgumentNullException"/>.</returns>
    public static ValueTask<MultipartMessage> RecvMultipartAsync(this Socket socket, CancellationToken cancellationToken = default)
    {
        if (socket is null)
        {
            return ValueTask.FromException<MultipartMessage>(ThrowHelper.CreateArgumentNullException(nameof(socket)));
        }

        return SocketAsyncState.For(socket).Run<RecvMultipartAttempt, MultipartMessage>(default, cancellationToken);
    }
}
