using System.Runtime.InteropServices;
using Managed.Zmq.Buffers;
using Managed.Zmq.Options;
using Managed.Zmq.Security.Zap;

namespace Managed.Zmq.InteropTests.Native;

/// <summary>
/// Minimal P/Invoke binding to the system libzmq (Debian's libzmq5, 4.3.4), used only by the
/// interop tests as the reference peer. Test-only native code: the core library has none.
/// </summary>
internal static unsafe partial class LibZmq
{
    private const string Lib = "libzmq.so.5";

    // Socket types, options, flags and errno values as numbered by zmq.h.
    public const int ZMQ_PAIR = 0, ZMQ_PUB = 1, ZMQ_SUB = 2, ZMQ_REQ = 3, ZMQ_REP = 4, ZMQ_DEALER = 5,
        ZMQ_ROUTER = 6, ZMQ_PULL = 7, ZMQ_PUSH = 8, ZMQ_XPUB = 9, ZMQ_XSUB = 10;

    public const int ZMQ_ROUTING_ID = 5, ZMQ_SUBSCRIBE = 6, ZMQ_UNSUBSCRIBE = 7, ZMQ_RCVMORE = 13,
        ZMQ_LINGER = 17, ZMQ_MAXMSGSIZE = 22, ZMQ_SNDHWM = 23, ZMQ_RCVHWM = 24, ZMQ_RCVTIMEO = 27, ZMQ_SNDTIMEO = 28,
        ZMQ_LAST_ENDPOINT = 32, ZMQ_ROUTER_MANDATORY = 33, ZMQ_XPUB_VERBOSE = 40,
        ZMQ_PROBE_ROUTER = 51;

    public const int ZMQ_RECONNECT_IVL = 18, ZMQ_HEARTBEAT_IVL = 75, ZMQ_HEARTBEAT_TTL = 76, ZMQ_HEARTBEAT_TIMEOUT = 77;

    public const int ZMQ_DONTWAIT = 1, ZMQ_SNDMORE = 2, ZMQ_POLLIN = 1;

    public const int ZMQ_EVENT_CONNECTED = 0x0001, ZMQ_EVENT_ACCEPTED = 0x0020, ZMQ_EVENT_DISCONNECTED = 0x0200,
        ZMQ_EVENT_HANDSHAKE_SUCCEEDED = 0x1000;

    public const int EAGAIN = 11, EINTR = 4, EHOSTUNREACH = 113;

    // Security options (zmq.h: ZMQ_MECHANISM 43 … ZMQ_CURVE_SERVERKEY 50, ZMQ_ZAP_DOMAIN 55).
    public const int ZMQ_PLAIN_SERVER = 44, ZMQ_PLAIN_USERNAME = 45, ZMQ_PLAIN_PASSWORD = 46,
        ZMQ_CURVE_SERVER = 47, ZMQ_CURVE_PUBLICKEY = 48, ZMQ_CURVE_SECRETKEY = 49, ZMQ_CURVE_SERVERKEY = 50,
        ZMQ_ZAP_DOMAIN = 55, ZMQ_HANDSHAKE_IVL = 66, ZMQ_IMMEDIATE = 39;

    // Monitor events beyond the ones above (docs/libzmq-behaviour.md L23).
    public const int ZMQ_EVENT_CONNECT_DELAYED = 0x0002, ZMQ_EVENT_CONNECT_RETRIED = 0x0004,
        ZMQ_EVENT_HANDSHAKE_FAILED_NO_DETAIL = 0x0800, ZMQ_EVENT_HANDSHAKE_FAILED_PROTOCOL = 0x2000,
        ZMQ_EVENT_HANDSHAKE_FAILED_AUTH = 0x4000, ZMQ_EVENT_ALL = 0xFFFF;

    // Protocol-error values carried by HANDSHAKE_FAILED_PROTOCOL (docs/libzmq-behaviour.md L23).
    public const int ZMQ_PROTOCOL_ERROR_ZMTP_INVALID_SEQUENCE = 0x10000002,
        ZMQ_PROTOCOL_ERROR_ZMTP_KEY_EXCHANGE = 0x10000003,
        ZMQ_PROTOCOL_ERROR_ZMTP_MALFORMED_COMMAND_HELLO = 0x10000013,
        ZMQ_PROTOCOL_ERROR_ZMTP_MALFORMED_COMMAND_INITIATE = 0x10000014,
        ZMQ_PROTOCOL_ERROR_ZMTP_CRYPTOGRAPHIC = 0x11000001;

    /// <summary>zmq_msg_t: 64 opaque bytes, pointer-aligned.</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct ZmqMsg
    {
        private fixed long _opaque[8];
    }

    /// <summary>zmq_pollitem_t on POSIX: socket pointer, int fd, short events, short revents.</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct PollItem
    {
        public nint Socket;
        public int Fd;
        public short Events;
        public short Revents;
    }

    [LibraryImport(Lib)] public static partial void zmq_version(out int major, out int minor, out int patch);
    [LibraryImport(Lib)] public static partial int zmq_errno();
    [LibraryImport(Lib)] public static partial nint zmq_strerror(int errnum);

    [LibraryImport(Lib)] public static partial nint zmq_ctx_new();
    [LibraryImport(Lib)] public static partial int zmq_ctx_term(nint context);
    [LibraryImport(Lib)] public static partial int zmq_ctx_shutdown(nint context);

    [LibraryImport(Lib)] public static partial nint zmq_socket(nint context, int type);
    [LibraryImport(Lib)] public static partial int zmq_close(nint socket);

    [LibraryImport(Lib, StringMarshalling = StringMarshalling.Utf8)]
    public static partial int zmq_bind(nint socket, string endpoint);
    [LibraryImport(Lib, StringMarshalling = StringMarshalling.Utf8)]
    public static partial int zmq_connect(nint socket, string endpoint);
    [LibraryImport(Lib, StringMarshalling = StringMarshalling.Utf8)]
    public static partial int zmq_unbind(nint socket, string endpoint);
    [LibraryImport(Lib, StringMarshalling = StringMarshalling.Utf8)]
    public static partial int zmq_disconnect(nint socket, string endpoint);

    [LibraryImport(Lib)] public static partial int zmq_setsockopt(nint socket, int option, void* value, nuint size);
    [LibraryImport(Lib)] public static partial int zmq_getsockopt(nint socket, int option, void* value, nuint* size);

    [LibraryImport(Lib)] public static partial int zmq_send(nint socket, void* buffer, nuint size, int flags);
    [LibraryImport(Lib)] public static partial int zmq_recv(nint socket, void* buffer, nuint size, int flags);

    [LibraryImport(Lib)] public static partial int zmq_msg_init(ZmqMsg* msg);
    [LibraryImport(Lib)] public static partial int zmq_msg_recv(ZmqMsg* msg, nint socket, int flags);
    [LibraryImport(Lib)] public static partial void* zmq_msg_data(ZmqMsg* msg);
    [LibraryImport(Lib)] public static partial nuint zmq_msg_size(ZmqMsg* msg);
    [LibraryImport(Lib)] public static partial int zmq_msg_more(ZmqMsg* msg);
    [LibraryImport(Lib)] public static partial int zmq_msg_close(ZmqMsg* msg);

    /// <summary>A message property (metadata) as a NUL-terminated string owned by the message; null with EINVAL when absent.</summary>
    [LibraryImport(Lib, StringMarshalling = StringMarshalling.Utf8)]
    public static partial byte* zmq_msg_gets(ZmqMsg* msg, string property);

    [LibraryImport(Lib, StringMarshalling = StringMarshalling.Utf8)]
    public static partial int zmq_socket_monitor(nint socket, string endpoint, int events);

    [LibraryImport(Lib)] public static partial int zmq_poll(PollItem* items, int count, long timeout);

    /// <summary>Writes a Z85 key pair (40 characters + NUL each) into two 41-byte buffers.</summary>
    [LibraryImport(Lib)] public static partial int zmq_curve_keypair(byte* publicKey, byte* secretKey);

    /// <summary>Z85-encodes <paramref name="size"/> bytes (a multiple of 4) into <paramref name="dest"/> (size * 5 / 4 + 1 bytes); null on error.</summary>
    [LibraryImport(Lib)] public static partial byte* zmq_z85_encode(byte* dest, byte* data, nuint size);

    /// <summary>Decodes a NUL-terminated Z85 string into <paramref name="dest"/> (length * 4 / 5 bytes); null on error.</summary>
    [LibraryImport(Lib)] public static partial byte* zmq_z85_decode(byte* dest, byte* text);

    [LibraryImport(Lib, StringMarshalling = StringMarshalling.Utf8)]
    public static partial int zmq_has(string capability);

    public static string StrError(int errno) => Marshal.PtrToStringUTF8(zmq_strerror(errno)) ?? $"errno {errno}";
}

/// <summary>A libzmq call failed; carries libzmq's errno.</summary>
internal sealed class NativeZmqException(string call, int errno)
    : Exception($"libzmq {call} failed: {LibZmq.StrError(errno)} (errno {errno})")
{
    public int Errno { get; } = errno;
}
