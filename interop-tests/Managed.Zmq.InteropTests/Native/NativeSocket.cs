using System.Text;
using Managed.Zmq.InteropTests.Infrastructure;

namespace Managed.Zmq.InteropTests.Native;

/// <summary>
/// Thin wrapper over a libzmq socket. Created with ZMQ_LINGER 0 and send/receive timeouts, so no
/// blocking call on it can hang a test.
/// </summary>
internal sealed unsafe class NativeSocket : IEnd
{
    private nint _handle;

    private static int s_monitors;
    private readonly NativeContext _context;

    public NativeSocket(NativeContext context, SocketType type)
    {
        _context = context;
        Type = type;
        _handle = LibZmq.zmq_socket(context.Handle, (int)type);
        if (_handle == 0)
            throw new NativeZmqException("zmq_socket", LibZmq.zmq_errno());
        SetOption(LibZmq.ZMQ_LINGER, 0);
        SetOption(LibZmq.ZMQ_RCVTIMEO, (int)Timeouts.Io.TotalMilliseconds);
        SetOption(LibZmq.ZMQ_SNDTIMEO, (int)Timeouts.Io.TotalMilliseconds);
    }

    public SocketType Type { get; }

    public string Name => $"libzmq {Type.ToString().ToUpperInvariant()}";

    public nint Handle => _handle != 0 ? _handle : throw new ObjectDisposedException(Name);

    public string Bind(string endpoint)
    {
        Check(LibZmq.zmq_bind(Handle, endpoint), "zmq_bind");
        return LastEndpoint;
    }

    public string BindEphemeral() => Bind("tcp://127.0.0.1:*");

    public void Connect(string endpoint) => Check(LibZmq.zmq_connect(Handle, endpoint), "zmq_connect");

    public void Unbind(string endpoint) => Check(LibZmq.zmq_unbind(Handle, endpoint), "zmq_unbind");

    public void Disconnect(string endpoint) => Check(LibZmq.zmq_disconnect(Handle, endpoint), "zmq_disconnect");

    /// <summary>ZMQ_LAST_ENDPOINT, without its terminating NUL.</summary>
    public string LastEndpoint
    {
        get
        {
            var buffer = stackalloc byte[256];
            nuint size = 256;
            Check(LibZmq.zmq_getsockopt(Handle, LibZmq.ZMQ_LAST_ENDPOINT, buffer, &size), "zmq_getsockopt");
            var length = (int)size;
            if (length > 0 && buffer[length - 1] == 0)
                length--;
            return Encoding.UTF8.GetString(buffer, length);
        }
    }

    public void SetOption(int option, int value) =>
        Check(LibZmq.zmq_setsockopt(Handle, option, &value, sizeof(int)), "zmq_setsockopt");

    public void SetOption(int option, byte[] value)
    {
        fixed (byte* p = value)
            Check(LibZmq.zmq_setsockopt(Handle, option, p, (nuint)value.Length), "zmq_setsockopt");
    }

    /// <summary>
    /// Starts zmq_socket_monitor for <paramref name="events"/> and returns the connected PAIR that
    /// receives them; read them with <see cref="NextEvent"/>.
    /// </summary>
    public NativeSocket Monitor(int events)
    {
        var endpoint = $"inproc://interop-monitor-{Interlocked.Increment(ref s_monitors)}";
        Check(LibZmq.zmq_socket_monitor(Handle, endpoint, events), "zmq_socket_monitor");
        var pair = _context.Socket(SocketType.Pair);
        pair.Connect(endpoint);
        return pair;
    }

    /// <summary>On a monitor PAIR: the next event number, or null if none arrives within <paramref name="timeout"/>.</summary>
    public int? NextEvent(TimeSpan timeout)
    {
        var message = TryRecvMessage(timeout);
        return message is null ? null : BitConverter.ToUInt16(message[0], 0);
    }

    /// <summary>On a monitor PAIR: the next event and its value, or null if none arrives within <paramref name="timeout"/>.</summary>
    public (int Event, int Value, string Address)? NextEventWithValue(TimeSpan timeout)
    {
        var message = TryRecvMessage(timeout);
        if (message is null)
            return null;
        return (BitConverter.ToUInt16(message[0], 0), BitConverter.ToInt32(message[0], 2),
            message.Length > 1 ? Encoding.UTF8.GetString(message[1]) : "");
    }

    /// <summary>A string option (PLAIN credentials, ZAP domain, Z85 keys) as its UTF-8 bytes, no NUL.</summary>
    public void SetOption(int option, string value) => SetOption(option, Encoding.UTF8.GetBytes(value));

    public void Subscribe(byte[] topic) => SetOption(LibZmq.ZMQ_SUBSCRIBE, topic);

    public void Unsubscribe(byte[] topic) => SetOption(LibZmq.ZMQ_UNSUBSCRIBE, topic);

    /// <summary>Sends one frame, blocking up to ZMQ_SNDTIMEO.</summary>
    public void Send(byte[] frame, bool more = false)
    {
        if (!TrySend(frame, more ? LibZmq.ZMQ_SNDMORE : 0, out var errno))
            throw new NativeZmqException("zmq_send", errno);
    }

    public void SendMessage(params byte[][] frames)
    {
        Messages.RequireFrames(frames);
        for (var i = 0; i < frames.Length; i++)
            Send(frames[i], more: i < frames.Length - 1);
    }

    public bool TrySendMessage(params byte[][] frames)
    {
        Messages.RequireFrames(frames);
        var more = frames.Length > 1 ? LibZmq.ZMQ_SNDMORE : 0;
        if (!TrySend(frames[0], LibZmq.ZMQ_DONTWAIT | more, out var errno))
        {
            if (errno is LibZmq.EAGAIN or LibZmq.EHOSTUNREACH)
                return false;
            throw new NativeZmqException("zmq_send", errno);
        }

        // Once the first frame is accepted, the rest of the message is never refused.
        for (var i = 1; i < frames.Length; i++)
            Send(frames[i], more: i < frames.Length - 1);
        return true;
    }

    private bool TrySend(byte[] frame, int flags, out int errno)
    {
        errno = 0;
        fixed (byte* p = frame)
        {
            while (LibZmq.zmq_send(Handle, p, (nuint)frame.Length, flags) < 0)
            {
                errno = LibZmq.zmq_errno();
                if (errno != LibZmq.EINTR)
                    return false;
            }
        }

        return true;
    }

    /// <summary>Receives one frame, blocking up to ZMQ_RCVTIMEO (whatever the socket has now).</summary>
    public byte[] Recv(out bool more)
    {
        var frame = TryRecvFrame(0, out more, out var errno);
        return frame ?? throw new NativeZmqException("zmq_msg_recv", errno);
    }

    /// <summary>Receives one frame, waiting at most <paramref name="timeout"/>; null on timeout.</summary>
    public byte[]? TryRecv(TimeSpan timeout, out bool more)
    {
        more = false;
        if (!WaitReadable(timeout))
            return null;
        var frame = TryRecvFrame(LibZmq.ZMQ_DONTWAIT, out more, out var errno);
        return frame ?? throw new NativeZmqException("zmq_msg_recv", errno);
    }

    /// <summary>
    /// On a ROUTER: receives [routing id, body] and reads the body's <paramref name="properties"/> with zmq_msg_gets
    /// (null for one the message does not have).
    /// </summary>
    public (string Body, Dictionary<string, string?> Properties) RecvRoutedWithProperties(params string[] properties)
    {
        Recv(out bool more);
        if (!more)
            throw new InvalidOperationException("a ROUTER delivers the routing id frame first");
        LibZmq.ZmqMsg msg;
        if (LibZmq.zmq_msg_init(&msg) != 0)
            throw new NativeZmqException("zmq_msg_init", LibZmq.zmq_errno());
        try
        {
            // The body is already queued: ROUTER hands whole messages over.
            if (LibZmq.zmq_msg_recv(&msg, Handle, 0) < 0)
                throw new NativeZmqException("zmq_msg_recv", LibZmq.zmq_errno());
            string body = Encoding.UTF8.GetString(new ReadOnlySpan<byte>(LibZmq.zmq_msg_data(&msg), (int)LibZmq.zmq_msg_size(&msg)));
            var values = new Dictionary<string, string?>();
            foreach (var name in properties)
            {
                byte* value = LibZmq.zmq_msg_gets(&msg, name);
                values[name] = value is null ? null : System.Runtime.InteropServices.Marshal.PtrToStringUTF8((nint)value);
            }

            return (body, values);
        }
        finally
        {
            LibZmq.zmq_msg_close(&msg);
        }
    }

    public byte[][] RecvMessage()
    {
        var frames = new List<byte[]> { Recv(out var more) };
        while (more)
            frames.Add(Recv(out more));
        return [.. frames];
    }

    public byte[][]? TryRecvMessage(TimeSpan timeout)
    {
        var first = TryRecv(timeout, out var more);
        if (first is null)
            return null;
        var frames = new List<byte[]> { first };
        while (more)
            frames.Add(Recv(out more));
        return [.. frames];
    }

    private bool WaitReadable(TimeSpan timeout)
    {
        var deadline = Environment.TickCount64 + (long)timeout.TotalMilliseconds;
        while (true)
        {
            var item = new LibZmq.PollItem { Socket = Handle, Events = LibZmq.ZMQ_POLLIN };
            var left = Math.Max(0, deadline - Environment.TickCount64);
            var rc = LibZmq.zmq_poll(&item, 1, left);
            if (rc > 0)
                return true;
            if (rc == 0)
                return false;
            var errno = LibZmq.zmq_errno();
            if (errno != LibZmq.EINTR)
                throw new NativeZmqException("zmq_poll", errno);
        }
    }

    private byte[]? TryRecvFrame(int flags, out bool more, out int errno)
    {
        more = false;
        errno = 0;
        LibZmq.ZmqMsg msg;
        Check(LibZmq.zmq_msg_init(&msg), "zmq_msg_init");
        try
        {
            while (LibZmq.zmq_msg_recv(&msg, Handle, flags) < 0)
            {
                errno = LibZmq.zmq_errno();
                if (errno != LibZmq.EINTR)
                    return null;
            }

            more = LibZmq.zmq_msg_more(&msg) != 0;
            return new ReadOnlySpan<byte>(LibZmq.zmq_msg_data(&msg), (int)LibZmq.zmq_msg_size(&msg)).ToArray();
        }
        finally
        {
            LibZmq.zmq_msg_close(&msg);
        }
    }

    public void Dispose()
    {
        var handle = Interlocked.Exchange(ref _handle, 0);
        if (handle != 0)
            LibZmq.zmq_close(handle);
    }

    private static void Check(int rc, string call)
    {
        if (rc != 0)
            throw new NativeZmqException(call, LibZmq.zmq_errno());
    }

    public override string ToString() => Name;
}
