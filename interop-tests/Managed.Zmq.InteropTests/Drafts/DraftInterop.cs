#if !INTEROP_WITHOUT_CORE
using Managed.Zmq.InteropTests.Infrastructure;
using Managed.Zmq.InteropTests.Native;
using Managed.Zmq.InteropTests.Resilience;
using Managed.Zmq.InteropTests.Ws;

namespace Managed.Zmq.InteropTests.Drafts;

/// <summary>What the SCATTER/GATHER and CHANNEL interop tests share: bind endpoints per transport, our test sockets, joining and the checks both make.</summary>
internal static class DraftInterop
{
    /// <summary>An endpoint to bind on <paramref name="transport"/> ("tcp", "ipc" or "ws"): an ephemeral port or a fresh ipc path.</summary>
    public static string BindEndpoint(string transport) => transport switch
    {
        "tcp" => "tcp://127.0.0.1:*",
        "ipc" => "ipc://" + Path.Combine(Path.GetTempPath(), "mzq-draft-" + Guid.NewGuid().ToString("N")[..12]),
        "ws" => "ws://127.0.0.1:*/zmq",
        _ => throw new ArgumentOutOfRangeException(nameof(transport), transport, null),
    };

    /// <summary>One of our sockets with linger 0 and the interop I/O timeouts, so no call on it can hang a test.</summary>
    public static Socket Open(Context context, SocketType type)
    {
        var socket = new Socket(context, type);
        socket.SetOption(SocketOption.Linger, 0);
        socket.SetOption(SocketOption.Rcvtimeo, (int)Timeouts.Io.TotalMilliseconds);
        socket.SetOption(SocketOption.Sndtimeo, (int)Timeouts.Io.TotalMilliseconds);
        return socket;
    }

    /// <summary>Binds one end and connects the other; <paramref name="oursBinds"/> says which binds.</summary>
    public static void Join(Socket ours, DraftSocket theirs, string transport, bool oursBinds)
    {
        if (oursBinds)
        {
            ours.Bind(BindEndpoint(transport));
            theirs.Connect(ours.GetOptionString(SocketOption.Last_Endpoint));
        }
        else
        {
            ours.Connect(theirs.Bind(BindEndpoint(transport)));
        }
    }

    /// <summary>
    /// A send with ZMQ_SNDMORE on a single-part <paramref name="type"/> fails with EINVAL on libzmq's socket and on ours
    /// alike.
    /// </summary>
    public static void AssertSendMoreRefusedAlike(SocketType type)
    {
        using var theirContext = new DraftContext();
        using var theirs = theirContext.Socket(type);
        using var context = new Context();
        using var ours = Open(context, type);

        var native = Assert.Throws<NativeZmqException>(() => theirs.SendMessage("a"u8.ToArray(), "b"u8.ToArray()));
        var managed = Assert.Throws<ZmqException>(() => ours.Send("a", SendFlags.SendMore));

        Assert.Equal(ZmqConstants.EINVAL, native.Errno);
        Assert.Equal(native.Errno, managed.ErrorNumber);
    }

    /// <summary>The libzmq events <see cref="AssertHandshakeRefused"/> reads: how a handshake ended.</summary>
    public const int HandshakeOutcomeEvents = LibZmq.ZMQ_EVENT_HANDSHAKE_SUCCEEDED | LibZmq.ZMQ_EVENT_HANDSHAKE_FAILED_NO_DETAIL
        | LibZmq.ZMQ_EVENT_HANDSHAKE_FAILED_PROTOCOL | LibZmq.ZMQ_EVENT_DISCONNECTED;

    /// <summary>
    /// The one connection between our socket and libzmq's ended in the handshake, refused: neither side reports
    /// success and both see it close. Whichever side reads the other's READY first refuses it and closes (libzmq does
    /// not reconnect after a protocol error), and under NULL neither reports more than the close for a bad
    /// Socket-Type (docs/libzmq-behaviour.md L6). When libzmq closes first, its reset can discard its READY before ours
    /// reads it, and ours sees the connection lost (HANDSHAKE_FAILED_NO_DETAIL).
    /// </summary>
    public static void AssertHandshakeRefused(MonitorReader ours, DraftSocket theirMonitor)
    {
        AssertOursRefusedSilently(ours);
        var theirs = new List<(int Event, int Value)>();
        while (theirs.Count == 0 || theirs[^1].Event != LibZmq.ZMQ_EVENT_DISCONNECTED)
        {
            var next = theirMonitor.NextEvent(Timeouts.Io);
            Assert.True(next is not null, $"libzmq reported no DISCONNECTED; saw {string.Join(", ", theirs)}");
            theirs.Add(next.Value);
        }

        string seen = $"ours saw {string.Join(", ", ours.Seen.Select(e => $"{(int)e.Event}:{e.Value}"))}; libzmq saw {string.Join(", ", theirs)}";
        Assert.False(theirs.Any(e => e.Event is LibZmq.ZMQ_EVENT_HANDSHAKE_SUCCEEDED or LibZmq.ZMQ_EVENT_HANDSHAKE_FAILED_PROTOCOL),
            "libzmq reported more than the close: " + seen);
    }

    /// <summary>
    /// Our end of a connection refused in the handshake for its Socket-Type closed with neither success nor a
    /// protocol event (docs/libzmq-behaviour.md L6); HANDSHAKE_FAILED_NO_DETAIL is allowed, for when the peer closed
    /// first (see <see cref="AssertHandshakeRefused"/>).
    /// </summary>
    public static void AssertOursRefusedSilently(MonitorReader ours)
    {
        ours.WaitFor(SocketMonitorEvent.Disconnected);
        Assert.False(ours.Seen.Any(e => (int)e.Event is LibZmq.ZMQ_EVENT_HANDSHAKE_SUCCEEDED or LibZmq.ZMQ_EVENT_HANDSHAKE_FAILED_PROTOCOL),
            $"ours reported more than the close: {string.Join(", ", ours.Seen.Select(e => $"{(int)e.Event}:{e.Value}"))}");
    }
}
#endif
