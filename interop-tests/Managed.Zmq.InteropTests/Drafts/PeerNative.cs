using System.Runtime.InteropServices;
using System.Text;
using Managed.Zmq.InteropTests.Infrastructure;
using Managed.Zmq.InteropTests.Native;
using Managed.Zmq.InteropTests.Ws;

namespace Managed.Zmq.InteropTests.Drafts;

/// <summary>
/// A libzmq PEER socket (RFC 51) of the draft-enabled libzmq (<see cref="DraftLibZmq"/>, loaded by path beside
/// Debian's libzmq5, which has no draft API), with the draft calls PEER needs: <c>zmq_connect_peer</c> and the
/// routing id on <c>zmq_msg_t</c>. Linger 0 and send/receive timeouts, so no call on it can hang a test. When the
/// draft library is missing the first call throws with the command that builds it: the tests fail, never skip.
/// </summary>
internal sealed unsafe class PeerNative : IDisposable
{
    /// <summary>zmq.h's draft section: ZMQ_PEER 19.</summary>
    public const int ZMQ_PEER = 19;

    private static int s_monitors;
    private readonly DraftContext _context;
    private nint _handle;

    public PeerNative(DraftContext context, int type = ZMQ_PEER)
    {
        _context = context;
        _handle = DraftLibZmq.Socket(context.Handle, type);
        if (_handle == 0)
            throw new NativeZmqException("zmq_socket (draft)", DraftLibZmq.Errno());
        SetOption(LibZmq.ZMQ_LINGER, 0);
        SetOption(LibZmq.ZMQ_RCVTIMEO, (int)Timeouts.Io.TotalMilliseconds);
        SetOption(LibZmq.ZMQ_SNDTIMEO, (int)Timeouts.Io.TotalMilliseconds);
    }

    private nint Handle => _handle != 0 ? _handle : throw new ObjectDisposedException(nameof(PeerNative));

    /// <summary>zmq_bind; returns ZMQ_LAST_ENDPOINT.</summary>
    public string Bind(string endpoint)
    {
        Check(DraftLibZmq.Bind(Handle, endpoint), "zmq_bind");
        var buffer = stackalloc byte[256];
        nuint size = 256;
        Check(DraftLibZmq.GetSockOpt(Handle, LibZmq.ZMQ_LAST_ENDPOINT, buffer, &size), "zmq_getsockopt");
        int length = (int)size;
        if (length > 0 && buffer[length - 1] == 0)
            length--;
        return Encoding.UTF8.GetString(buffer, length);
    }

    /// <summary>zmq_connect_peer: the new peer's routing id, or 0 with <paramref name="errno"/> set.</summary>
    public uint TryConnectPeer(string endpoint, out int errno)
    {
        var bytes = Encoding.UTF8.GetBytes(endpoint + "\0");
        uint id;
        fixed (byte* p = bytes)
            id = ((delegate* unmanaged<nint, byte*, uint>)Export("zmq_connect_peer"))(Handle, p);
        errno = id == 0 ? DraftLibZmq.Errno() : 0;
        return id;
    }

    public uint ConnectPeer(string endpoint)
    {
        uint id = TryConnectPeer(endpoint, out int errno);
        return id != 0 ? id : throw new NativeZmqException("zmq_connect_peer (draft)", errno);
    }

    /// <summary>Starts zmq_socket_monitor (every event) and returns the connected PAIR that receives them.</summary>
    public DraftSocket Monitor()
    {
        string endpoint = $"inproc://peer-native-monitor-{Interlocked.Increment(ref s_monitors)}";
        Check(DraftLibZmq.SocketMonitor(Handle, endpoint, LibZmq.ZMQ_EVENT_ALL), "zmq_socket_monitor");
        var pair = _context.Socket(SocketType.Pair);
        pair.Connect(endpoint);
        return pair;
    }

    public void SetOption(int option, int value) =>
        Check(DraftLibZmq.SetSockOpt(Handle, option, &value, sizeof(int)), "zmq_setsockopt");

    /// <summary>Sends <paramref name="text"/> to the peer <paramref name="routingId"/> names (zmq_msg_set_routing_id, zmq_msg_send).</summary>
    public void Send(uint routingId, string text)
    {
        var bytes = Encoding.UTF8.GetBytes(text);
        LibZmq.ZmqMsg msg;
        Check(((delegate* unmanaged<LibZmq.ZmqMsg*, nuint, int>)Export("zmq_msg_init_size"))(&msg, (nuint)bytes.Length), "zmq_msg_init_size");
        bytes.CopyTo(new Span<byte>(DraftLibZmq.MsgData(&msg), bytes.Length));
        if (((delegate* unmanaged<LibZmq.ZmqMsg*, uint, int>)Export("zmq_msg_set_routing_id"))(&msg, routingId) != 0)
        {
            int errno = DraftLibZmq.Errno();
            DraftLibZmq.MsgClose(&msg);
            throw new NativeZmqException("zmq_msg_set_routing_id (draft)", errno);
        }

        while (((delegate* unmanaged<LibZmq.ZmqMsg*, nint, int, int>)Export("zmq_msg_send"))(&msg, Handle, 0) < 0)
        {
            int errno = DraftLibZmq.Errno();
            if (errno != LibZmq.EINTR)
            {
                DraftLibZmq.MsgClose(&msg);
                throw new NativeZmqException("zmq_msg_send (draft)", errno);
            }
        }
    }

    /// <summary>Receives one message (zmq_msg_recv) and its routing id (zmq_msg_routing_id).</summary>
    public (string Text, uint RoutingId) Recv()
    {
        LibZmq.ZmqMsg msg;
        Check(DraftLibZmq.MsgInit(&msg), "zmq_msg_init");
        try
        {
            while (DraftLibZmq.MsgRecv(&msg, Handle, 0) < 0)
            {
                int errno = DraftLibZmq.Errno();
                if (errno != LibZmq.EINTR)
                    throw new NativeZmqException("zmq_msg_recv (draft)", errno);
            }

            string text = Encoding.UTF8.GetString(new ReadOnlySpan<byte>(DraftLibZmq.MsgData(&msg), (int)DraftLibZmq.MsgSize(&msg)));
            uint routingId = ((delegate* unmanaged<LibZmq.ZmqMsg*, uint>)Export("zmq_msg_routing_id"))(&msg);
            return (text, routingId);
        }
        finally
        {
            DraftLibZmq.MsgClose(&msg);
        }
    }

    public void Dispose()
    {
        var handle = Interlocked.Exchange(ref _handle, 0);
        if (handle != 0)
            DraftLibZmq.Close(handle);
    }

    private static nint Export(string name) => NativeLibrary.GetExport(DraftLibZmq.Handle, name);

    private static void Check(int rc, string call)
    {
        if (rc != 0)
            throw new NativeZmqException(call + " (draft)", DraftLibZmq.Errno());
    }
}
