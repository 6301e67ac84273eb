namespace Managed.Zmq.InteropTests.Infrastructure;

/// <summary>Our side of a link: a Managed.Zmq context.</summary>
internal sealed class ManagedPeer : IPeer
{
    private readonly Context _context = new();

    public IEnd Socket(SocketType type) => new ManagedEnd(_context, type);

    public void Dispose() => _context.Dispose();
}

/// <summary>A Managed.Zmq socket seen through <see cref="IEnd"/>, using the public API only.</summary>
internal sealed class ManagedEnd : IEnd
{
    private readonly Socket _socket;

    public ManagedEnd(Context context, SocketType type)
    {
        Type = type;
        _socket = new Socket(context, type);
        _socket.SetOption(SocketOption.Linger, 0);
        _socket.SetOption(SocketOption.Rcvtimeo, IoTimeoutMs);
        _socket.SetOption(SocketOption.Sndtimeo, IoTimeoutMs);
    }

    private static int IoTimeoutMs => (int)Timeouts.Io.TotalMilliseconds;

    public SocketType Type { get; }

    public string Name => $"Managed.Zmq {Type.ToString().ToUpperInvariant()}";

    /// <summary>The underlying socket, for scenarios that exercise API beyond <see cref="IEnd"/>.</summary>
    public Socket Socket => _socket;

    public string Bind(string endpoint)
    {
        _socket.Bind(endpoint);
        return _socket.GetOptionString(SocketOption.Last_Endpoint);
    }

    public string BindEphemeral() => Bind("tcp://127.0.0.1:*");

    public void Connect(string endpoint) => _socket.Connect(endpoint);

    public void SetOption(int option, int value) => _socket.SetOption((SocketOption)option, value);

    public void SetOption(int option, byte[] value) => _socket.SetOption((SocketOption)option, value);

    public void Subscribe(byte[] topic) => _socket.Subscribe(topic);

    public void Unsubscribe(byte[] topic) => _socket.Unsubscribe(topic);

    public void SendMessage(params byte[][] frames)
    {
        Messages.RequireFrames(frames);
        _socket.SendMultipart((IEnumerable<byte[]>)frames);
    }

    public bool TrySendMessage(params byte[][] frames)
    {
        Messages.RequireFrames(frames);
        var more = frames.Length > 1 ? SendFlags.SendMore : SendFlags.None;
        try
        {
            if (!_socket.Send(frames[0], SendFlags.DontWait | more))
                return false;
        }
        catch (ZmqException e) when (e.ErrorNumber == ZmqConstants.EHOSTUNREACH)
        {
            return false;
        }

        for (var i = 1; i < frames.Length; i++)
            _socket.Send(frames[i], i < frames.Length - 1 ? SendFlags.SendMore : SendFlags.None);
        return true;
    }

    public byte[][] RecvMessage()
    {
        using var message = _socket.RecvMultipart();
        return message.Select(frame => frame.ToArray()).ToArray();
    }

    public byte[][]? TryRecvMessage(TimeSpan timeout)
    {
        _socket.SetOption(SocketOption.Rcvtimeo, (int)timeout.TotalMilliseconds); // 0: do not wait at all
        try
        {
            return RecvMessage();
        }
        catch (ZmqException e) when (e.ErrorNumber == ZmqConstants.EAGAIN)
        {
            return null;
        }
        finally
        {
            _socket.SetOption(SocketOption.Rcvtimeo, IoTimeoutMs);
        }
    }

    public void Dispose() => _socket.Dispose();

    public override string ToString() => Name;
}
