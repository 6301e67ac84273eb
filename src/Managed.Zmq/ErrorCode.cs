namespace Managed.Zmq;

/// <summary>The error conditions a <see cref="ZmqException"/> reports, with libzmq's numbering.</summary>
/// <remarks>Values match the same-named <see cref="ZmqConstants"/> fields; <see cref="EAGAIN"/> is always 11 here,
/// and <see cref="ZmqException.ErrorCode"/> maps the macOS value 35 onto it.</remarks>
public enum ErrorCode
{
    /// <summary>No such file or directory (Unbind/Disconnect of an unknown endpoint).</summary>
    ENOENT = 2,

    /// <summary>Interrupted system call (never (kept for parity)).</summary>
    EINTR = 4,

    /// <summary>Resource temporarily unavailable (an operation would block (DontWait, or a send/receive timeout)).</summary>
    EAGAIN = 11,

    /// <summary>Permission denied (the OS refuses a bind (privileged port, ipc path)).</summary>
    EACCES = 13,

    /// <summary>Bad address (never (parity)).</summary>
    EFAULT = 14,

    /// <summary>No such device (bind to an unknown interface name).</summary>
    ENODEV = 19,

    /// <summary>Invalid argument (invalid option, value, width, endpoint syntax, socket type, Z85 text, or key).</summary>
    EINVAL = 22,

    /// <summary>Too many open files (MaxSockets exceeded, or the OS is out of handles).</summary>
    EMFILE = 24,

    /// <summary>File name too long (an ipc:// path that does not fit a Unix-domain socket address).</summary>
    ENAMETOOLONG = 36,

    /// <summary>Socket operation on non-socket (Poll on a disposed registered socket).</summary>
    ENOTSOCK = 88,

    /// <summary>Message too long (OS report only).</summary>
    EMSGSIZE = 90,

    /// <summary>Protocol not supported (unknown or unbuilt transport (pgm, epgm, norm, tipc, vmci, …); a monitor endpoint that is not inproc).</summary>
    EPROTONOSUPPORT = 93,

    /// <summary>Operation not supported (the operation is not allowed for the socket type (Send on SUB/PULL, Recv on PUB/PUSH); Bindtodevice outside Linux).</summary>
    ENOTSUP = 95,

    /// <summary>Address family not supported by protocol (OS report).</summary>
    EAFNOSUPPORT = 97,

    /// <summary>Address already in use (the TCP/IPC address is in use; the inproc name or monitor endpoint is already bound).</summary>
    EADDRINUSE = 98,

    /// <summary>Cannot assign requested address (bind to an address that is not local).</summary>
    EADDRNOTAVAIL = 99,

    /// <summary>Network is down (OS report).</summary>
    ENETDOWN = 100,

    /// <summary>Network is unreachable (OS report).</summary>
    ENETUNREACH = 101,

    /// <summary>Network dropped connection on reset (OS report).</summary>
    ENETRESET = 102,

    /// <summary>Software caused connection abort (OS report (monitor values)).</summary>
    ECONNABORTED = 103,

    /// <summary>Connection reset by peer (OS report (monitor values)).</summary>
    ECONNRESET = 104,

    /// <summary>No buffer space available (OS report).</summary>
    ENOBUFS = 105,

    /// <summary>Transport endpoint is not connected (OS report).</summary>
    ENOTCONN = 107,

    /// <summary>Connection timed out (Connect_Timeout / Tcp_Maxrt expiry (monitor values)).</summary>
    ETIMEDOUT = 110,

    /// <summary>Connection refused (failed TCP connect (monitor values)).</summary>
    ECONNREFUSED = 111,

    /// <summary>No route to host (ROUTER with Router_Mandatory = 1 sends to an unknown routing id).</summary>
    EHOSTUNREACH = 113,

    /// <summary>Operation now in progress (OS report).</summary>
    EINPROGRESS = 115,

    /// <summary>Operation cannot be accomplished in current state (REQ/REP state violation).</summary>
    EFSM = 156384763,

    /// <summary>The protocol is not compatible with the socket type (the transport does not suit the socket type (udp:// on any supported type)).</summary>
    ENOCOMPATPROTO = 156384764,

    /// <summary>Context was terminated (the context has been shut down or terminated).</summary>
    ETERM = 156384765,

    /// <summary>No thread available (IoThreads = 0 with tcp:///ipc://).</summary>
    EMTHREAD = 156384766,

    /// <summary>Buffer size is smaller than expected (Recv(Message, expectSize): buffer too small).</summary>
    EBUFFERSMALL = 156384812,

    /// <summary>Received size does not match expected size (Recv(Message, expectSize): frame length ≠ expectSize).</summary>
    ESIZEMISMATCH = 156384813,
}
