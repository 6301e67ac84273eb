using System.Diagnostics.CodeAnalysis;
using Managed.Zmq.Internal;
using Managed.Zmq.Patterns;

namespace Managed.Zmq.Sockets;

/// <summary>
/// The one mapping from a failed send or receive to what the caller sees: libzmq's errno in a
/// <see cref="ZmqException"/>, or <see cref="ObjectDisposedException"/> for a socket disposed while the call waited
/// (Net.Zmq's behaviour). The blocking, non-blocking and async calls all throw through here.
/// </summary>
internal static class StatusErrors
{
    /// <summary>libzmq's errno for a send that did not go; <see cref="ZmqConstants.ENOTSOCK"/> for a closed socket.</summary>
    public static int ToErrno(SendStatus status) => status switch
    {
        SendStatus.WouldBlock => ZmqConstants.EAGAIN,
        SendStatus.NotSupported => ZmqConstants.ENOTSUP,
        SendStatus.InvalidState => ZmqConstants.EFSM,
        SendStatus.HostUnreachable => ZmqConstants.EHOSTUNREACH,
        SendStatus.InvalidArgument => ZmqConstants.EINVAL,
        SendStatus.Terminated => ZmqConstants.ETERM,
        _ => ZmqConstants.ENOTSOCK,
    };

    /// <summary>libzmq's errno for a receive that got nothing; <see cref="ZmqConstants.ENOTSOCK"/> for a closed socket.</summary>
    public static int ToErrno(RecvStatus status) => status switch
    {
        RecvStatus.WouldBlock => ZmqConstants.EAGAIN,
        RecvStatus.NotSupported => ZmqConstants.ENOTSUP,
        RecvStatus.InvalidState => ZmqConstants.EFSM,
        RecvStatus.Terminated => ZmqConstants.ETERM,
        _ => ZmqConstants.ENOTSOCK,
    };

    /// <summary>The exception for a failed send (for the async calls, which throw it themselves).</summary>
    public static Exception Create(SendStatus status) => status == SendStatus.Closed
        ? ThrowHelper.CreateObjectDisposedException(nameof(Socket))
        : ThrowHelper.CreateZmqException(ToErrno(status));

    /// <summary>The exception for a failed receive (for the async calls, which throw it themselves).</summary>
    public static Exception Create(RecvStatus status) => status == RecvStatus.Closed
        ? ThrowHelper.CreateObjectDisposedException(nameof(Socket))
        : ThrowHelper.CreateZmqException(ToErrno(status));

    /// <summary>Throws for a failed send, out of line so the caller's fast path stays small.</summary>
    [DoesNotReturn]
    public static void Throw(SendStatus status) => throw Create(status);

    /// <summary>Throws for a failed receive, out of line so the caller's fast path stays small.</summary>
    [DoesNotReturn]
    public static void Throw(RecvStatus status) => throw Create(status);
}
