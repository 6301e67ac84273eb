
using Managed.Zmq.Pipes;

namespace Managed.Zmq.Patterns;

/// <summary>
/// STREAM: raw TCP peers, each named by an id like a ROUTER's. Receives are [id][bytes], and with
/// Stream_Notify (the default) [id][empty] when a connection comes up and when it goes. Sends are
/// [id][bytes]; an empty second frame closes that connection; an unknown id gives EHOSTUNREACH.
/// </summary>
internal sealed class RawStream : Pattern
{
    private readonly Dictionary<byte[], Pipe> _byId = new(RoutingIdComparer.Instance);
    private readonly Dictionary<byte[], Pipe>.AlternateLookup<ReadOnlySpan<byte>> _lookup;
    private readonly FairQueue _in = new();

    /// <summary>Connect/disconnect notifications waiting to be received.</summary>
    private readonly Queue<byte[]> _notifications = new();

    private readonly GeneratedRoutingIds _generatedIds = new();

    /// <summary>Receive: the id frame went out; the data (or notification's empty) frame comes next.</summary>
    private Pipe? _receiving;
    private bool _notificationPending;

    /// <summary>Send: the connection the current message goes to.</summary>
    private Pipe? _sendPipe;
    private bool _sendInProgress;

    public RawStream(IPatternHost socket)
        : base(socket)
    {
        _lookup = _byId.GetAlternateLookup<ReadOnlySpan<byte>>();
    }

    public override void Attach(Pipe pipe)
    {
        if (pipe.FromConnect && !pipe.HasBeenConnected)
        {
            // A connect pipe joins when its connection is up (Connected).
            return;
        }

        Identify(pipe);
    }

    public override void Connected(Pipe pipe)
    {
        if (pipe.PatternState is null)
        {
            Identify(pipe);
        }
    }

    private void Identify(Pipe pipe)
    {
        byte[] id = pipe.RoutingId.Length > 0 ? pipe.RoutingId : _generatedIds.Next();
        pipe.RoutingId = id;
        pipe.PatternState = id;
        _byId[id] = pipe;
        _in.Add(pipe);
        if (Socket.Options.StreamNotify)
        {
            _notifications.Enqueue(id);
        }
    }


    public override void Disconnected(Pipe pipe) => Detach(pipe);

    /// <summary>Pipes of connections still in the table: one whose connection was lost is never read again.</summary>
    public override bool Reads(Pipe pipe) => pipe.PatternState is byte[];

    public override void Detach(Pipe pipe)
    {
        if (pipe.PatternState is not byte[] id)
        {
            return;
        }

        _byId.Remove(id);
        _in.Remove(pipe);
        pipe.PatternState = null;
        if (_receiving == pipe)
        {
            _receiving = null;
        }

        if (_sendPipe == pipe)
        {
            _sendPipe = null;
        }

        if (Socket.Options.StreamNotify)
        {
            _notifications.Enqueue(id);
        }
    }

    public override RecvStatus Recv<TSink>(ref TSink sink)
    {
        if (_notificationPending)
        {
            // Notifications come from no connection's byte stream: they carry no metadata.
            sink.Deliver(new InboundFrame(default, FrameFlags.None));
            _notificationPending = false;
            return RecvStatus.Received;
        }

        if (_receiving is { } pipe)
        {
            if (!pipe.TryPeekFrame(out var frame))
            {
                return RecvStatus.WouldBlock;
            }

            sink.Deliver(frame.WithFlags(FrameFlags.None));
            _in.Consume(pipe, frame);
            _receiving = null;
            return RecvStatus.Received;
        }

        if (_notifications.TryDequeue(out var id))
        {
            sink.Deliver(new InboundFrame(id, FrameFlags.More));
            _notificationPending = true;
            return RecvStatus.Received;
        }

        if (!_in.TryPeek(out pipe, out var first))
        {
            return RecvStatus.WouldBlock;
        }

        sink.Deliver(new InboundFrame(pipe.RoutingId, FrameFlags.More, first.Metadata));
        _receiving = pipe;
        return RecvStatus.Received;
    }

    public override SendStatus Send(in OutboundFrame frame)
    {
        bool more = frame.More;
        if (!_sendInProgress)
        {
            if (!more)
            {
                // The id frame must be followed by the data frame.
                return SendStatus.HostUnreachable;
            }

            if (!_lookup.TryGetValue(frame.Bytes, out var pipe))
            {
                return SendStatus.HostUnreachable;
            }

            if (!pipe.CanWrite)
            {
                return SendStatus.WouldBlock;
            }

            _sendPipe = pipe;
            _sendInProgress = true;
            return SendStatus.Sent;
        }

        // Raw bytes carry no message boundaries: each frame after the id is sent as it is.
        _sendPipe?.WriteFrame(frame.WithMore(false));
        if (!more)
        {
            _sendInProgress = false;
            _sendPipe = null;
        }

        return SendStatus.Sent;
    }

    public override bool CanReceive => _notificationPending || _receiving is not null || _notifications.Count > 0 || _in.HasMessage;

    public override bool CanSend => true;
}
