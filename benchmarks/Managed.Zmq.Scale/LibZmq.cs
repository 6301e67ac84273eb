using System.Runtime.InteropServices;

namespace Managed.Zmq.Scale;

/// <summary>
/// Minimal P/Invoke binding to the system libzmq (Debian's libzmq5, 4.3.4): the legitimate
/// clients and the subscriber the driver runs against both servers are libzmq, so the client side
/// is the same whichever server is under test. Benchmark-only native code.
/// </summary>
internal static unsafe partial class LibZmq
{
    private const string Lib = "libzmq.so.5";

    public const int ZMQ_SUB = 2, ZMQ_DEALER = 5;
    public const int ZMQ_SUBSCRIBE = 6, ZMQ_LINGER = 17, ZMQ_RCVTIMEO = 27, ZMQ_SNDTIMEO = 28,
        ZMQ_CURVE_PUBLICKEY = 48, ZMQ_CURVE_SECRETKEY = 49, ZMQ_CURVE_SERVERKEY = 50,
        ZMQ_PLAIN_USERNAME = 45, ZMQ_PLAIN_PASSWORD = 46, ZMQ_RECONNECT_IVL = 18, ZMQ_HEARTBEAT_IVL = 75, ZMQ_HEARTBEAT_TIMEOUT = 77;
    public const int ZMQ_DONTWAIT = 1, ZMQ_SNDMORE = 2;
    public const int EAGAIN = 11, EINTR = 4;

    [LibraryImport(Lib)] public static partial void zmq_version(out int major, out int minor, out int patch);
    [LibraryImport(Lib)] public static partial int zmq_errno();
    [LibraryImport(Lib)] public static partial nint zmq_ctx_new();
    [LibraryImport(Lib)] public static partial nint zmq_socket(nint context, int type);
    [LibraryImport(Lib)] public static partial int zmq_close(nint socket);
    [LibraryImport(Lib, StringMarshalling = StringMarshalling.Utf8)]
    public static partial int zmq_connect(nint socket, string endpoint);
    [LibraryImport(Lib)] public static partial int zmq_setsockopt(nint socket, int option, void* value, nuint size);
    [LibraryImport(Lib)] public static partial int zmq_send(nint socket, void* buffer, nuint size, int flags);
    [LibraryImport(Lib)] public static partial int zmq_recv(nint socket, void* buffer, nuint size, int flags);
    [LibraryImport(Lib)] public static partial int zmq_curve_keypair(byte* publicKey, byte* secretKey);
}

/// <summary>One libzmq socket with linger 0, so closing it never waits.</summary>
internal sealed unsafe class NativeSocket : IDisposable
{
    private static readonly Lazy<nint> Context = new(LibZmq.zmq_ctx_new);
    private nint _handle;

    public NativeSocket(int type)
    {
        _handle = LibZmq.zmq_socket(Context.Value, type);
        if (_handle == 0)
        {
            throw new InvalidOperationException($"zmq_socket failed, errno {LibZmq.zmq_errno()}");
        }

        SetInt(LibZmq.ZMQ_LINGER, 0);
    }

    public static string Version
    {
        get
        {
            LibZmq.zmq_version(out int major, out int minor, out int patch);
            return $"{major}.{minor}.{patch}";
        }
    }

    public static (string Public, string Secret) CurveKeypair()
    {
        byte* pub = stackalloc byte[41];
        byte* sec = stackalloc byte[41];
        if (LibZmq.zmq_curve_keypair(pub, sec) != 0)
        {
            throw new InvalidOperationException("zmq_curve_keypair failed");
        }

        return (new string((sbyte*)pub, 0, 40), new string((sbyte*)sec, 0, 40));
    }

    public void SetInt(int option, int value) => Check(LibZmq.zmq_setsockopt(_handle, option, &value, sizeof(int)), "zmq_setsockopt");

    public void SetBytes(int option, ReadOnlySpan<byte> value)
    {
        fixed (byte* p = value)
        {
            Check(LibZmq.zmq_setsockopt(_handle, option, p, (nuint)value.Length), "zmq_setsockopt");
        }
    }

    public void SetString(int option, string value) => SetBytes(option, System.Text.Encoding.UTF8.GetBytes(value));

    public void Connect(string endpoint) => Check(LibZmq.zmq_connect(_handle, endpoint), "zmq_connect");

    /// <summary>Sends one frame; false when it timed out (SNDTIMEO) or would block.</summary>
    public bool Send(ReadOnlySpan<byte> data, bool more = false)
    {
        fixed (byte* p = data)
        {
            while (true)
            {
                int rc = LibZmq.zmq_send(_handle, p, (nuint)data.Length, more ? LibZmq.ZMQ_SNDMORE : 0);
                if (rc >= 0 || !Interrupted())
                {
                    return rc >= 0 || Fail("zmq_send");
                }
            }
        }
    }

    /// <summary>Receives one frame into <paramref name="buffer"/>; -1 when it timed out (RCVTIMEO).</summary>
    public int Recv(Span<byte> buffer)
    {
        fixed (byte* p = buffer)
        {
            while (true)
            {
                int rc = LibZmq.zmq_recv(_handle, p, (nuint)buffer.Length, 0);
                if (rc >= 0 || !Interrupted())
                {
                    return rc >= 0 ? rc : Fail("zmq_recv") ? 0 : -1;
                }
            }
        }
    }

    public void Dispose()
    {
        if (_handle != 0)
        {
            LibZmq.zmq_close(_handle);
            _handle = 0;
        }
    }

    // The runtime signals threads (GC suspension), which can interrupt a blocking libzmq call.
    private static bool Interrupted() => LibZmq.zmq_errno() == LibZmq.EINTR;

    private static bool Fail(string call)
    {
        int errno = LibZmq.zmq_errno();
        return errno == LibZmq.EAGAIN ? false : throw new InvalidOperationException($"{call} failed, errno {errno}");
    }

    private static void Check(int rc, string call)
    {
        if (rc != 0)
        {
            throw new InvalidOperationException($"{call} failed, errno {LibZmq.zmq_errno()}");
        }
    }
}
