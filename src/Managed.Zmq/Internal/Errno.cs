namespace Managed.Zmq.Internal;

/// <summary>
/// System error numbers the library reports in monitor events but does not publish in <see cref="ZmqConstants"/>
/// (libzmq's C API does not name them either): the Linux values, which libzmq passes through from its system calls.
/// </summary>
internal static class Errno
{
    /// <summary>Broken pipe: libzmq's errno for a stream the peer closed (a read of 0 octets).</summary>
    public const int EPIPE = 32;
}
