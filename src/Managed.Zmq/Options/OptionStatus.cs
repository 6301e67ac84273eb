namespace Managed.Zmq.Options;

/// <summary>Results of <see cref="SocketOptions.TrySet"/> and <see cref="SocketOptions.TryGet"/> besides a plain errno.</summary>
/// <remarks>
/// Positive values are errno numbers the public layer turns into <c>ZmqException</c>.
/// Only EINVAL is produced here: libzmq reports every option misuse (width, range, access, socket type) with it.
/// </remarks>
internal static class OptionStatus
{
    /// <summary>The value was stored, or written into the caller's buffer.</summary>
    public const int Ok = 0;

    /// <summary>
    /// Access, width and socket type were valid, but the value lives in the socket (Rcvmore, Events, Fd,
    /// Last_Endpoint) or the write is an action the socket performs (Subscribe, Unsubscribe).
    /// </summary>
    public const int HandledBySocket = -1;

    /// <summary>EINVAL: wrong width, out of range, wrong direction, wrong socket type or unknown option.</summary>
    public const int InvalidArgument = ZmqConstants.EINVAL;
}
