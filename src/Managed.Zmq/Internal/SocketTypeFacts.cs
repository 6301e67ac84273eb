namespace Managed.Zmq.Internal;

/// <summary>
/// What the layers need to know of a <see cref="SocketType"/> beyond its routing rules: whether the socket can be
/// created at all and whether several threads may use it at once. A new socket type is added here once.
/// </summary>
internal static class SocketTypeFacts
{
    /// <summary>True for the socket types this library implements; any other value is refused with EINVAL, as libzmq does.</summary>
    public static bool IsSupported(SocketType socketType) => (uint)socketType <= (uint)SocketType.Scatter
        || socketType is SocketType.Peer or SocketType.Channel;

    /// <summary>
    /// True for libzmq's thread-safe draft types (its <c>ZMQ_THREAD_SAFE</c> option reads 1): sends, receives and
    /// polls may come from several threads at once.
    /// </summary>
    public static bool IsThreadSafe(SocketType socketType) => socketType is SocketType.Server or SocketType.Client
        or SocketType.Radio or SocketType.Dish or SocketType.Gather or SocketType.Scatter or SocketType.Peer
        or SocketType.Channel;

    /// <summary>True for the types that may queue one message to several peers at once (RFC 29, RFC 48).</summary>
    public static bool Distributes(SocketType socketType) => socketType is SocketType.Pub or SocketType.XPub
        or SocketType.Radio;
}
