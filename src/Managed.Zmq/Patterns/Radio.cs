using Managed.Zmq.Patterns.Groups;
using Managed.Zmq.Patterns.Subscriptions;
using Managed.Zmq.Pipes;

namespace Managed.Zmq.Patterns;

/// <summary>
/// RADIO (RFC 48): sends each single-part message to the peers that joined its group (exact match), as two frames,
/// the group then the body (libzmq 4.3's wire form over ZMTP, which our DISH and libzmq's expect), and drops it for
/// a peer whose queue is full, so a send never blocks; under Xpub_Nodrop (the one option libzmq's RADIO takes) a
/// full peer makes the send wait instead. The JOIN and LEAVE commands of DISH peers are applied on the
/// application's thread before each send, in bounded batches as PUB applies subscriptions; anything else a peer
/// sends is dropped. RADIO cannot receive (ENOTSUP) and refuses multipart messages (EINVAL), as libzmq's does.
/// </summary>
internal sealed class Radio : Pattern
{
    private readonly GroupMembers _members = new();

    /// <summary>udp pipes: they get every message (<see cref="Pipe.TakesEveryGroup"/>).</summary>
    private readonly List<Pipe> _everyGroup = [];

    /// <summary>Commands (and anything else) from DISH peers, a whole message per connection in turn.</summary>
    private readonly FairQueue _upstream = new(surfaceSubscriptions: true);

    /// <summary>Tells one send's targets from the previous one's, so a peer that joined twice gets a message once.</summary>
    private long _sendStamp;

    public Radio(IPatternHost socket)
        : base(socket)
    {
    }

    public override void Attach(Pipe pipe)
    {
        pipe.PatternState = new RadioPeer();
        if (pipe.TakesEveryGroup)
        {
            _everyGroup.Add(pipe);
        }
        else
        {
            _upstream.Add(pipe);
        }
    }

    public override void Detach(Pipe pipe)
    {
        _everyGroup.Remove(pipe);
        _upstream.Remove(pipe);
        if (pipe.PatternState is RadioPeer)
        {
            _members.RemovePipe(pipe);
        }

        pipe.PatternState = null;
    }

    public override SendStatus Send(in OutboundFrame frame)
    {
        if (frame.More)
        {
            return SendStatus.InvalidArgument;
        }

        ApplyCommands(SubscriptionLimits.FramesPerSend);
        var group = frame.Group;
        var members = _members.Members(group);
        if (Socket.Options.XpubNodrop && !AllHaveRoom(members))
        {
            return SendStatus.WouldBlock;
        }

        long stamp = ++_sendStamp;
        foreach (var pipe in members)
        {
            var peer = (RadioPeer)pipe.PatternState!;
            if (peer.Stamp != stamp)
            {
                peer.Stamp = stamp;
                WriteTo(pipe, group, frame);
            }
        }

        foreach (var pipe in _everyGroup)
        {
            WriteTo(pipe, group, frame);
        }

        return SendStatus.Sent;
    }

    /// <summary>Xpub_Nodrop: true when every target can take the message now.</summary>
    private bool AllHaveRoom(ReadOnlySpan<Pipe> members)
    {
        foreach (var pipe in members)
        {
            if (!pipe.CanWrite)
            {
                return false;
            }
        }

        foreach (var pipe in _everyGroup)
        {
            if (!pipe.CanWrite)
            {
                return false;
            }
        }

        return true;
    }

    /// <summary>Writes the group frame, then the body, or drops the message for a full peer (RFC 48: never blocks).</summary>
    private static void WriteTo(Pipe pipe, ReadOnlySpan<byte> group, in OutboundFrame frame)
    {
        if (!pipe.CanWrite)
        {
            pipe.MessagesDroppedAtHwm++;
            return;
        }

        pipe.WriteFrame(new OutboundFrame(group, more: true));
        pipe.WriteFrame(frame.WithMore(false));
    }

    /// <summary>Applies up to <paramref name="budget"/> frames from the peers, taking them in turn.</summary>
    private void ApplyCommands(int budget)
    {
        while (budget-- > 0 && _upstream.TryPeek(out var pipe, out var frame))
        {
            if (pipe.TryReadGroupCommand(frame, out bool join, out var group))
            {
                if (join)
                {
                    _members.Join(group, pipe);
                }
                else
                {
                    _members.Leave(group, pipe);
                }
            }

            // RFC 48: whatever else a DISH sends is discarded.
            _upstream.Consume(pipe, frame);
        }
    }

    public override RecvStatus Recv<TSink>(ref TSink sink)
    {
        ApplyCommands(SubscriptionLimits.FramesPerSend);
        return RecvStatus.NotSupported;
    }

    public override bool CanReceive => false;

    public override bool CanSend => true;

    /// <summary>Per-connection state: the stamp of the last send that reached it.</summary>
    private sealed class RadioPeer
    {
        public long Stamp;
    }
}
