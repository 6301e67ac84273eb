using Managed.Zmq.Internal;

namespace Managed.Zmq;

/// <summary>The exception thrown for every failure Managed.Zmq reports with a ZeroMQ error number.</summary>
/// <remarks>
/// Misuse of arguments, disposal and state is reported with the usual BCL exceptions instead. The library itself only
/// ever throws this exact type, never a subclass.
/// </remarks>
public class ZmqException : Exception
{
    /// <summary>
    /// Initializes a new instance with the last error number Managed.Zmq recorded on the calling thread (0 if none),
    /// and the standard text for it.
    /// </summary>
    public ZmqException()
        : this(LastError.Value)
    {
    }

    /// <summary>Initializes a new instance with an error number and the standard text for it.</summary>
    /// <param name="errorNumber">The error number, comparable with the <see cref="ZmqConstants"/> error fields.</param>
    public ZmqException(int errorNumber)
        : base(GetStandardMessage(errorNumber))
    {
        ErrorNumber = errorNumber;
    }

    /// <summary>Initializes a new instance with an error number and a caller-supplied text.</summary>
    /// <param name="errorNumber">The error number, comparable with the <see cref="ZmqConstants"/> error fields.</param>
    /// <param name="message">The text of the exception.</param>
    public ZmqException(int errorNumber, string message)
        : base(message)
    {
        ErrorNumber = errorNumber;
    }

    /// <summary>Gets the error number: <see cref="ZmqConstants.EAGAIN"/> for "would block" (35 on macOS, 11 elsewhere),
    /// otherwise the platform-independent value of the same-named <see cref="ZmqConstants"/> field.</summary>
    public int ErrorNumber { get; }

    /// <summary>Gets <see cref="ErrorNumber"/> as an <see cref="Zmq.ErrorCode"/>, with EAGAIN normalised so that
    /// <c>ErrorCode == ErrorCode.EAGAIN</c> holds on every OS.</summary>
    /// <remarks>Numbers the enum does not name pass through as numeric values.</remarks>
    public ErrorCode ErrorCode => ToErrorCode(ErrorNumber);

    private static ErrorCode ToErrorCode(int errorNumber) =>
        errorNumber == ZmqConstants.EAGAIN ? ErrorCode.EAGAIN : (ErrorCode)errorNumber;

    private static string GetStandardMessage(int errorNumber) =>
        ToErrorCode(errorNumber) switch
        {
            ErrorCode.ENOENT => "No such file or directory",
            ErrorCode.EINTR => "Interrupted system call",
            ErrorCode.EAGAIN => "Resource temporarily unavailable",
            ErrorCode.EACCES => "Permission denied",
            ErrorCode.EFAULT => "Bad address",
            ErrorCode.ENODEV => "No such device",
            ErrorCode.EINVAL => "Invalid argument",
            ErrorCode.EMFILE => "Too many open files",
            ErrorCode.ENAMETOOLONG => "File name too long",
            ErrorCode.ENOTSOCK => "Socket operation on non-socket",
            ErrorCode.EMSGSIZE => "Message too long",
            ErrorCode.EPROTONOSUPPORT => "Protocol not supported",
            ErrorCode.ENOTSUP => "Operation not supported",
            ErrorCode.EAFNOSUPPORT => "Address family not supported by protocol",
            ErrorCode.EADDRINUSE => "Address already in use",
            ErrorCode.EADDRNOTAVAIL => "Cannot assign requested address",
            ErrorCode.ENETDOWN => "Network is down",
            ErrorCode.ENETUNREACH => "Network is unreachable",
            ErrorCode.ENETRESET => "Network dropped connection on reset",
            ErrorCode.ECONNABORTED => "Software caused connection abort",
            ErrorCode.ECONNRESET => "Connection reset by peer",
            ErrorCode.ENOBUFS => "No buffer space available",
            ErrorCode.ENOTCONN => "Transport endpoint is not connected",
            ErrorCode.ETIMEDOUT => "Connection timed out",
            ErrorCode.ECONNREFUSED => "Connection refused",
            ErrorCode.EHOSTUNREACH => "No route to host",
            ErrorCode.EINPROGRESS => "Operation now in progress",
            ErrorCode.EFSM => "Operation cannot be accomplished in current state",
            ErrorCode.ENOCOMPATPROTO => "The protocol is not compatible with the socket type",
            ErrorCode.ETERM => "Context was terminated",
            ErrorCode.EMTHREAD => "No thread available",
            ErrorCode.EBUFFERSMALL => "Buffer size is smaller than expected",
            ErrorCode.ESIZEMISMATCH => "Received size does not match expected size",
            _ => $"Unknown error {errorNumber}",
        };
}
