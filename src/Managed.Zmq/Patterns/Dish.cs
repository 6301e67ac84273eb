using Managed.Zmq.Internal;
using Managed.Zmq.Patterns.Groups;
using Managed.Zmq.Pipes;

namespace Managed.Zmq.Patterns;

/// <summary>
/// DISH (RFC 48): fair-queued receive of the messages of the groups it joined (exact match), each stamped with its
/// group. A message arrives as two frames, the group then the body (libzmq 4.3's form, which the engine checks on
/// tcp and ipc); a message of a group not joined is dropped whole, as libzmq's DISH drops it when it is received.
/// Join and Leave reach every RADIO peer as JOIN and LEAVE commands, and every joined group is sent again to a new
/// peer and after a reconnect. As libzmq's: joining a group twice or leaving one not joined is EINVAL, sending is
/// ENOTSUP.
/// </summary>
internal sealed class Dish : Pattern
{
    /// <summary>Pipe state: its connection dropped, so the next one must hear every JOIN again.</summary>
    private static readonly object s_lost = new();

    private readonly FairQueue _in = new();
    private readonly List<Pipe> _pipes = [];
    private readonly HashSet<byte[]> _groups = new(GroupComparer.Instance);
    private readonly HashSet<byte[]>.AlternateLookup<ReadOnlySpan<byte>> _lookup;

    /// <summary>The group frame of the message being received, kept once its frame is consumed.</summary>
    private readonly byte[] _group = new byte[Tuning.RadioDish.MaxGroupLength];
    private int _groupLength;

    /// <summary>The pipe whose body frame comes next (its group is in <see cref="_group"/>); null when none.</summary>
    private Pipe? _groupPipe;

    public Dish(IPatternHost socket)
        : base(socket)
    {
        _lookup = _groups.GetAlternateLookup<ReadOnlySpan<byte>>();
    }

    /// <summary>The groups joined (tests).</summary>
    internal int GroupCount => _groups.Count;

    public override void Attach(Pipe pipe)
    {
        _pipes.Add(pipe);
        _in.Add(pipe);

        // As libzmq's DISH: the JOINs go into a pipe as soon as it exists, so they leave when the connection comes up.
        JoinAll(pipe);
    }

    public override void Detach(Pipe pipe)
    {
        _pipes.Remove(pipe);
        _in.Remove(pipe);
        if (_groupPipe == pipe)
        {
            _groupPipe = null;
        }
    }

    public override void Connected(Pipe pipe)
    {
        // A reconnect is a new session at the RADIO: it must hear every group again (libzmq's DISH on a hiccup).
        if (pipe.PatternState == s_lost)
        {
            pipe.PatternState = null;
            JoinAll(pipe);
        }
    }

    public override void Disconnected(Pipe pipe) => pipe.PatternState = s_lost;

    public override int Join(ReadOnlySpan<byte> group, bool join)
    {
        if (group.Length > Tuning.RadioDish.MaxGroupLength)
        {
            return ZmqConstants.EINVAL;
        }

        bool changed = join ? _lookup.Add(group) : _lookup.Remove(group);
        if (!changed)
        {
            return ZmqConstants.EINVAL;
        }

        foreach (var pipe in _pipes)
        {
            pipe.WriteGroupCommand(join, group);
        }

        return 0;
    }

    public override SendStatus Send(in OutboundFrame frame) => SendStatus.NotSupported;

    public override RecvStatus Recv<TSink>(ref TSink sink)
    {
        if (!TryPeekWanted(out var pipe, out var body))
        {
            return RecvStatus.WouldBlock;
        }

        sink.Deliver(body.WithGroup(_group.AsSpan(0, _groupLength)));
        _groupPipe = null;
        _in.Consume(pipe, body);
        return RecvStatus.Received;
    }

    public override bool CanReceive => TryPeekWanted(out _, out _);

    /// <summary>
    /// Peeks the body of the next message of a joined group, its group consumed into <see cref="_group"/>; drops the
    /// messages of other groups, and any message not in the group-then-body form (an inproc or engine bug: the
    /// engine ends a connection that sends one).
    /// </summary>
    private bool TryPeekWanted(out Pipe pipe, out InboundFrame body)
    {
        while (_in.TryPeek(out pipe, out var frame))
        {
            if (_groupPipe != pipe)
            {
                // A group frame: it must have MORE (a body follows) and fit a group.
                if (!frame.More || frame.Length > _group.Length)
                {
                    _in.DropMessage(pipe, frame);
                    continue;
                }

                frame.Body.CopyTo(_group);
                _groupLength = frame.Length;
                _groupPipe = pipe;
                _in.Consume(pipe, frame);
                continue;
            }

            if (frame.More || !_lookup.Contains(_group.AsSpan(0, _groupLength)))
            {
                _groupPipe = null;
                _in.DropMessage(pipe, frame);
                continue;
            }

            body = frame;
            return true;
        }

        body = default;
        return false;
    }

    public override bool CanSend => false;

    /// <summary>Queues a JOIN for every group joined (a new or re-established peer).</summary>
    private void JoinAll(Pipe pipe)
    {
        foreach (var group in _groups)
        {
            pipe.WriteGroupCommand(join: true, group);
        }
    }
}
