using System.Runtime.InteropServices;

namespace Managed.Zmq.InteropTests.Ws;

/// <summary>
/// The draft-enabled libzmq (ws://, wss://) that interop-tests/native/build-draft-libzmq.sh builds
/// from Debian's zeromq3 source: Debian's libzmq5, which the other interop tests load, is built
/// without drafts. Loaded by path beside the system library and called through function pointers,
/// so the two never mix. Found through MANAGED_ZMQ_DRAFT_LIBZMQ (the .so path, as .ci/run sets it)
/// or else the newest build under the script's default cache; when neither exists the tests FAIL,
/// with the command that builds it (interop tests are never skipped).
/// </summary>
internal static unsafe class DraftLibZmq
{
    public const string EnvironmentVariable = "MANAGED_ZMQ_DRAFT_LIBZMQ";
    public const string DefaultCacheRoot = "/var/cache/managed-zmq/libzmq-draft";

    // zmq_draft.h of libzmq 4.3.4 (the source the script builds).
    public const int ZMQ_WSS_KEY_PEM = 103, ZMQ_WSS_CERT_PEM = 104, ZMQ_WSS_TRUST_PEM = 105,
        ZMQ_WSS_HOSTNAME = 106, ZMQ_WSS_TRUST_SYSTEM = 107;

    private static readonly Lazy<nint> s_handle = new(Load);

    public static string? FindLibrary()
    {
        var configured = Environment.GetEnvironmentVariable(EnvironmentVariable);
        if (!string.IsNullOrEmpty(configured))
            return configured;
        if (!Directory.Exists(DefaultCacheRoot))
            return null;
        return Directory.GetDirectories(DefaultCacheRoot)
            .Select(dir => Path.Combine(dir, "lib", "libzmq.so.5"))
            .Where(File.Exists)
            .OrderByDescending(File.GetLastWriteTimeUtc)
            .FirstOrDefault();
    }

    private static nint Load()
    {
        var path = FindLibrary();
        if (path is null || !File.Exists(path))
        {
            throw new InvalidOperationException(
                $"The draft-enabled libzmq was not found ({EnvironmentVariable}={Environment.GetEnvironmentVariable(EnvironmentVariable) ?? "unset"}, " +
                $"nothing under {DefaultCacheRoot}). Build it with: bash interop-tests/native/build-draft-libzmq.sh");
        }

        // Both libraries carry the SONAME libzmq.so.5: the system one is loaded first, so that a
        // later lookup by that name (the other interop tests' binding) still finds Debian's build.
        NativeLibrary.Load("libzmq.so.5");
        return NativeLibrary.Load(path);
    }

    private static nint Export(string name) => NativeLibrary.GetExport(s_handle.Value, name);

    public static nint Handle => s_handle.Value;

    public static nint CtxNew() => ((delegate* unmanaged<nint>)Export("zmq_ctx_new"))();
    public static int CtxTerm(nint context) => ((delegate* unmanaged<nint, int>)Export("zmq_ctx_term"))(context);
    public static nint Socket(nint context, int type) => ((delegate* unmanaged<nint, int, nint>)Export("zmq_socket"))(context, type);
    public static int Close(nint socket) => ((delegate* unmanaged<nint, int>)Export("zmq_close"))(socket);
    public static int Errno() => ((delegate* unmanaged<int>)Export("zmq_errno"))();

    public static int Bind(nint socket, string endpoint) => WithUtf8(endpoint, p => ((delegate* unmanaged<nint, byte*, int>)Export("zmq_bind"))(socket, p));
    public static int Connect(nint socket, string endpoint) => WithUtf8(endpoint, p => ((delegate* unmanaged<nint, byte*, int>)Export("zmq_connect"))(socket, p));
    public static int SocketMonitor(nint socket, string endpoint, int events) =>
        WithUtf8(endpoint, p => ((delegate* unmanaged<nint, byte*, int, int>)Export("zmq_socket_monitor"))(socket, p, events));

    public static int SetSockOpt(nint socket, int option, void* value, nuint size) =>
        ((delegate* unmanaged<nint, int, void*, nuint, int>)Export("zmq_setsockopt"))(socket, option, value, size);
    public static int GetSockOpt(nint socket, int option, void* value, nuint* size) =>
        ((delegate* unmanaged<nint, int, void*, nuint*, int>)Export("zmq_getsockopt"))(socket, option, value, size);

    public static int Send(nint socket, void* buffer, nuint size, int flags) =>
        ((delegate* unmanaged<nint, void*, nuint, int, int>)Export("zmq_send"))(socket, buffer, size, flags);

    public static int MsgInit(Native.LibZmq.ZmqMsg* msg) => ((delegate* unmanaged<Native.LibZmq.ZmqMsg*, int>)Export("zmq_msg_init"))(msg);
    public static int MsgRecv(Native.LibZmq.ZmqMsg* msg, nint socket, int flags) =>
        ((delegate* unmanaged<Native.LibZmq.ZmqMsg*, nint, int, int>)Export("zmq_msg_recv"))(msg, socket, flags);
    public static void* MsgData(Native.LibZmq.ZmqMsg* msg) => ((delegate* unmanaged<Native.LibZmq.ZmqMsg*, void*>)Export("zmq_msg_data"))(msg);
    public static nuint MsgSize(Native.LibZmq.ZmqMsg* msg) => ((delegate* unmanaged<Native.LibZmq.ZmqMsg*, nuint>)Export("zmq_msg_size"))(msg);
    public static int MsgMore(Native.LibZmq.ZmqMsg* msg) => ((delegate* unmanaged<Native.LibZmq.ZmqMsg*, int>)Export("zmq_msg_more"))(msg);
    public static int MsgClose(Native.LibZmq.ZmqMsg* msg) => ((delegate* unmanaged<Native.LibZmq.ZmqMsg*, int>)Export("zmq_msg_close"))(msg);
    public static int Poll(Native.LibZmq.PollItem* items, int count, long timeout) =>
        ((delegate* unmanaged<Native.LibZmq.PollItem*, int, long, int>)Export("zmq_poll"))(items, count, timeout);

    public static int Has(string capability) => WithUtf8(capability, p => ((delegate* unmanaged<byte*, int>)Export("zmq_has"))(p));

    public static void Version(out int major, out int minor, out int patch)
    {
        int a, b, c;
        ((delegate* unmanaged<int*, int*, int*, void>)Export("zmq_version"))(&a, &b, &c);
        (major, minor, patch) = (a, b, c);
    }

    private delegate int Utf8Call(byte* text);

    private static int WithUtf8(string text, Utf8Call call)
    {
        var bytes = System.Text.Encoding.UTF8.GetBytes(text + "\0");
        fixed (byte* p = bytes)
            return call(p);
    }
}
