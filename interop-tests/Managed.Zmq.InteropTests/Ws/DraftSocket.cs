using System.Text;
using Managed.Zmq.InteropTests.Infrastructure;
using Managed.Zmq.InteropTests.Native;

namespace Managed.Zmq.InteropTests.Ws;

/// <summary>A context of the draft-enabled libzmq (<see cref="DraftLibZmq"/>).</summary>
internal sealed class DraftContext : IPeer
{
    private nint _handle;

    public DraftContext()
    {
        _handle = DraftLibZmq.CtxNew();
        if (_handle == 0)
            throw new NativeZmqException("zmq_ctx_new (draft)", DraftLibZmq.Errno());
    }

    public nint Handle => _handle != 0 ? _handle : throw new ObjectDisposedException(nameof(DraftContext));

    public DraftSocket Socket(SocketType type) => new(this, type);

    IEnd IPeer.Socket(SocketType type) => Socket(type);

    public void Dispose()
    {
        var handle = Interlocked.Exchange(ref _handle, 0);
        if (handle == 0)
            return;
        while (DraftLibZmq.CtxTerm(handle) != 0 && DraftLibZmq.Errno() == LibZmq.EINTR)
        {
        }
    }
}

/// <summary>
/// A socket of the draft-enabled libzmq seen through <see cref="IEnd"/>: as <see cref="NativeSocket"/>,
/// linger 0 and send/receive timeouts, so no blocking call on it can hang a test.
/// </summary>
internal sealed unsafe class DraftSocket : IEnd
{
    private static int s_monitors;
    private readonly DraftContext _context;
    private nint _handle;

    public DraftSocket(DraftContext context, SocketType type)
    {
        _context = context;
        Type = type;
        _handle = DraftLibZmq.Socket(context.Handle, (int)type);
        if (_handle == 0)
            throw new NativeZmqException("zmq_socket (draft)", DraftLibZmq.Errno());
        SetOption(LibZmq.ZMQ_LINGER, 0);
        SetOption(LibZmq.ZMQ_RCVTIMEO, (int)Timeouts.Io.TotalMilliseconds);
        SetOption(LibZmq.ZMQ_SNDTIMEO, (int)Timeouts.Io.TotalMilliseconds);
    }

    public SocketType Type { get; }

    public string Name => $"libzmq-draft {Type.ToString().ToUpperInvariant()}";

    private nint Handle => _handle != 0 ? _handle : throw new ObjectDisposedException(Name);

    public string Bind(string endpoint)
    {
        Check(DraftLibZmq.Bind(Handle, endpoint), "zmq_bind");
        return LastEndpoint;
    }

    public void Connect(string endpoint) => Check(DraftLibZmq.Connect(Handle, endpoint), "zmq_connect");

    public string LastEndpoint
    {
        get
        {
            var buffer = stackalloc byte[256];
            nuint size = 256;
            Check(DraftLibZmq.GetSockOpt(Handle, LibZmq.ZMQ_LAST_ENDPOINT, buffer, &size), "zmq_getsockopt");
            var length = (int)size;
            if (length > 0 && buffer[length - 1] == 0)
                length--;
            return Encoding.UTF8.GetString(buffer, length);
        }
    }

    public void SetOption(int option, int value) =>
        Check(DraftLibZmq.SetSockOpt(Handle, option, &value, sizeof(int)), "zmq_setsockopt");

    public void SetOption(int option, byte[] value)
    {
        fixed (byte* p = value)
            Check(DraftLibZmq.SetSockOpt(Handle, option, p, (nuint)value.Length), "zmq_setsockopt");
    }

    public void SetOption(int option, string value) => SetOption(option, Encoding.UTF8.GetBytes(value));

    public void Subscribe(byte[] topic) => SetOption(LibZmq.ZMQ_SUBSCRIBE, topic);

    public void Unsubscribe(byte[] topic) => SetOption(LibZmq.ZMQ_UNSUBSCRIBE, topic);

    /// <summary>Starts zmq_socket_monitor and returns the connected PAIR that receives the events.</summary>
    public DraftSocket Monitor(int events)
    {
        var endpoint = $"inproc://draft-monitor-{Interlocked.Increment(ref s_monitors)}";
        Check(DraftLibZmq.SocketMonitor(Handle, endpoint, events), "zmq_socket_monitor");
        var pair = _context.Socket(SocketType.Pair);
        pair.Connect(endpoint);
        return pair;
    }

    /// <summary>On a monitor PAIR: the next event and its value, or null if none arrives within <paramref name="timeout"/>.</summary>
    public (int Event, int Value)? NextEvent(TimeSpan timeout)
    {
        var message = TryRecvMessage(timeout);
        return message is null ? null : (BitConverter.ToUInt16(message[0], 0), BitConverter.ToInt32(message[0], 2));
    }

    public void SendMessage(params byte[][] frames)
    {
        Messages.RequireFrames(frames);
        for (var i = 0; i < frames.Length; i++)
        {
            if (!TrySend(frames[i], i < frames.Length - 1 ? LibZmq.ZMQ_SNDMORE : 0, out var errno))
                throw new NativeZmqException("zmq_send (draft)", errno);
        }
    }

    public bool TrySendMessage(params byte[][] frames)
    {
        Messages.RequireFrames(frames);
        var more = frames.Length > 1 ? LibZmq.ZMQ_SNDMORE : 0;
        if (!TrySend(frames[0], LibZmq.ZMQ_DONTWAIT | more, out var errno))
        {
            if (errno is LibZmq.EAGAIN or LibZmq.EHOSTUNREACH)
                return false;
            throw new NativeZmqException("zmq_send (draft)", errno);
        }

        for (var i = 1; i < frames.Length; i++)
        {
            if (!TrySend(frames[i], i < frames.Length - 1 ? LibZmq.ZMQ_SNDMORE : 0, out errno))
                throw new NativeZmqException("zmq_send (draft)", errno);
        }

        return true;
    }

    private bool TrySend(byte[] frame, int flags, out int errno)
    {
        errno = 0;
        fixed (byte* p = frame)
        {
            while (DraftLibZmq.Send(Handle, p, (nuint)frame.Length, flags) < 0)
            {
                errno = DraftLibZmq.Errno();
                if (errno != LibZmq.EINTR)
                    return false;
            }
        }

        return true;
    }

    public byte[][] RecvMessage()
    {
        var frames = new List<byte[]>();
        bool more;
        do
        {
            frames.Add(TryRecvFrame(0, out more, out var errno) ?? throw new NativeZmqException("zmq_msg_recv (draft)", errno));
        }
        while (more);
        return [.. frames];
    }

    public byte[][]? TryRecvMessage(TimeSpan timeout)
    {
        if (!WaitReadable(timeout))
            return null;
        var first = TryRecvFrame(LibZmq.ZMQ_DONTWAIT, out var more, out var errno) ?? throw new NativeZmqException("zmq_msg_recv (draft)", errno);
        var frames = new List<byte[]> { first };
        while (more)
            frames.Add(TryRecvFrame(0, out more, out errno) ?? throw new NativeZmqException("zmq_msg_recv (draft)", errno));
        return [.. frames];
    }

    private bool WaitReadable(TimeSpan timeout)
    {
        var deadline = Environment.TickCount64 + (long)timeout.TotalMilliseconds;
        while (true)
        {
            var item = new LibZmq.PollItem { Socket = Handle, Events = LibZmq.ZMQ_POLLIN };
            var rc = DraftLibZmq.Poll(&item, 1, Math.Max(0, deadline - Environment.TickCount64));
            if (rc > 0)
                return true;
            if (rc == 0)
                return false;
            var errno = DraftLibZmq.Errno();
            if (errno != LibZmq.EINTR)
                throw new NativeZmqException("zmq_poll (draft)", errno);
        }
    }

    private byte[]? TryRecvFrame(int flags, out bool more, out int errno)
    {
        more = false;
        errno = 0;
        LibZmq.ZmqMsg msg;
        Check(DraftLibZmq.MsgInit(&msg), "zmq_msg_init");
        try
        {
            while (DraftLibZmq.MsgRecv(&msg, Handle, flags) < 0)
            {
                errno = DraftLibZmq.Errno();
                if (errno != LibZmq.EINTR)
                    return null;
            }

            more = DraftLibZmq.MsgMore(&msg) != 0;
            return new ReadOnlySpan<byte>(DraftLibZmq.MsgData(&msg), (int)DraftLibZmq.MsgSize(&msg)).ToArray();
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

    private static void Check(int rc, string call)
    {
        if (rc != 0)
            throw new NativeZmqException(call + " (draft)", DraftLibZmq.Errno());
    }

    public override string ToString() => Name;
}
