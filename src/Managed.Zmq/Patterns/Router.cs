
using Managed.Zmq.Pipes;

namespace Managed.Zmq.Patterns;

/// <summary>
/// ROUTER (RFC 28): names every peer by a routing id, prefixes each received message with it,
/// and routes each sent message by its first frame. Unroutable messages are dropped, or fail with
/// EHOSTUNREACH under Router_Mandatory; it never blocks (full peers: drop, or EAGAIN when mandatory).
/// </summary>
internal sealed class Router : Pattern
{
    private readonly FairQueue _in = new();
    private readonly Dictionary<byte[], Pipe> _byId = new(RoutingIdComparer.Instance);
    private readonly Dictionary<byte[], Pipe>.AlternateLookup<ReadOnlySpan<byte>> _lookup;

    /// <summary>The pipe the last message was routed to, while it is still identified (<see cref="Forget"/> clears it).</summary>
    private Pipe? _lastDestination;

    private readonly GeneratedRoutingIds _generatedIds = new();

    /// <summary>Receive: the pipe whose message is being delivered after its id frame went out.</summary>
    private Pipe? _receiving;

    /// <summary>Send: where the current message goes (null with <see cref="_sendInProgress"/> = drop it).</summary>
    private Pipe? _sendPipe;
    private bool _sendInProgress;

    public Router(IPatternHost socket)
        : base(socket)
    {
        _lookup = _byId.GetAlternateLookup<ReadOnlySpan<byte>>();
    }

    public override void Attach(Pipe pipe)
    {
        // A connect pipe learns its peer's id only when the handshake completes (Connected).
        if (!pipe.FromConnect || pipe.HasBeenConnected || pipe.RoutingId.Length > 0)
        {
            Identify(pipe);
        }
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
        byte[] id = pipe.RoutingId.Length > 0 ? pipe.RoutingId
            : pipe.PeerIdentity.Length > 0 ? pipe.PeerIdentity
            : _generatedIds.Next();

        if (_byId.TryGetValue(id, out var existing))
        {
            if (!Socket.Options.RouterHandover)
            {
                // docs/libzmq-behaviour.md L16: a duplicate id is ignored; the newcomer stays anonymous and unheard.
                return;
            }

            Forget(existing);
            existing.Engine?.Close();
        }

        pipe.RoutingId = id;
        pipe.PatternState = id;
        _byId[id] = pipe;
        _in.Add(pipe);
    }


    public override void Detach(Pipe pipe) => Forget(pipe);

    /// <summary>Identified peers' pipes: a peer whose routing id was taken already is never heard.</summary>
    public override bool Reads(Pipe pipe) => pipe.PatternState is byte[];

    private void Forget(Pipe pipe)
    {
        if (pipe.PatternState is byte[] id && _byId.TryGetValue(id, out var current) && current == pipe)
        {
            _byId.Remove(id);
        }

        pipe.PatternState = null;
        _in.Remove(pipe);
        if (_receiving == pipe)
        {
            _receiving = null;
        }

        if (_sendPipe == pipe)
        {
            _sendPipe = null;
        }

        if (_lastDestination == pipe)
        {
            _lastDestination = null;
        }
    }

    public override RecvStatus Recv<TSink>(ref TSink sink)
    {
        if (_receiving is { } pipe)
        {
            if (!pipe.TryPeekFrame(out var frame))
            {
                return RecvStatus.WouldBlock;
            }

            sink.Deliver(frame);
            bool last = !frame.More;
            _in.Consume(pipe, frame);
            if (last)
            {
                _receiving = null;
            }

            return RecvStatus.Received;
        }

        if (!_in.TryPeek(out pipe, out var first))
        {
            return RecvStatus.WouldBlock;
        }

        // RFC 28 §The ROUTER Socket Type: the source's id goes first, as its own frame.
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
                // A lone id frame carries nothing to send.
                return SendStatus.Sent;
            }

            // Consecutive messages usually go to the same peer: its id is compared before the table is hashed.
            var pipe = _lastDestination;
            var id = frame.Bytes;
            if ((pipe is null || !id.SequenceEqual(pipe.RoutingId)) && _lookup.TryGetValue(id, out pipe))
            {
                _lastDestination = pipe;
            }

            if (pipe is null)
            {
                if (Socket.Options.RouterMandatory)
                {
                    return SendStatus.HostUnreachable;
                }
            }
            else if (!pipe.CanWrite)
            {
                if (Socket.Options.RouterMandatory)
                {
                    return SendStatus.WouldBlock;
                }

                pipe.MessagesDroppedAtHwm++;
                pipe = null;
            }

            _sendPipe = pipe;
            _sendInProgress = true;
            return SendStatus.Sent;
        }

        _sendPipe?.WriteFrame(frame);
        if (!more)
        {
            _sendInProgress = false;
            _sendPipe = null;
        }

        return SendStatus.Sent;
    }

    public override bool CanReceive => _receiving is not null || _in.HasMessage;

    public override bool CanSend
    {
        get
        {
            if (!Socket.Options.RouterMandatory)
            {
                return true;
            }

            foreach (var pipe in _byId.Values)
            {
                if (pipe.CanWrite)
                {
                    return true;
                }
            }

            return false;
        }
    }
}
