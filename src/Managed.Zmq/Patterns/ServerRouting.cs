using Managed.Zmq.Pipes;
using Managed.Zmq.Sockets;

namespace Managed.Zmq.Patterns;

/// <summary>
/// The routing SERVER (RFC 41) and PEER (RFC 51) share, as libzmq's PEER is its SERVER plus a connect that returns
/// the id: fair-queued receive of single-part messages, each stamped with the routing id the socket gave the pipe it
/// came through; a send goes to the pipe its routing id names. As libzmq's SERVER: an unknown (or 0) routing id
/// fails with EHOSTUNREACH, a multipart send with EINVAL, and a full peer makes the send wait (or EAGAIN without
/// waiting) rather than drop. A pipe gets its id when it attaches, so a connect's pipe has one before its
/// connection is up, and keeps it across reconnects.
/// </summary>
internal abstract class ServerRouting : Pattern
{
    private readonly FairQueue _in = new();
    private readonly Dictionary<uint, Pipe> _byId = [];

    /// <summary>The next id to give a pipe: starts at a random value and skips 0, which means "no peer" (libzmq's SERVER does the same).</summary>
    private uint _nextId = (uint)Random.Shared.NextInt64(1, uint.MaxValue + 1L);

    protected ServerRouting(IPatternHost socket)
        : base(socket)
    {
    }

    /// <summary>The routing id <paramref name="pipe"/> was given when it attached; 0 when it is not attached (any more).</summary>
    public uint RoutingIdOf(Pipe pipe) =>
        pipe.PatternState is uint id && _byId.TryGetValue(id, out var current) && current == pipe ? id : 0;

    public override void Attach(Pipe pipe)
    {
        uint id;
        do
        {
            id = _nextId++;
        }
        while (id == 0 || _byId.ContainsKey(id));

        // Boxed once per pipe; Detach reads it back to find the table entry.
        pipe.PatternState = id;
        _byId[id] = pipe;
        _in.Add(pipe);
    }

    public override void Detach(Pipe pipe)
    {
        if (pipe.PatternState is uint id && _byId.TryGetValue(id, out var current) && current == pipe)
        {
            _byId.Remove(id);
        }

        pipe.PatternState = null;
        _in.Remove(pipe);
    }

    public override SendStatus Send(in OutboundFrame frame)
    {
        if (frame.More)
        {
            return SendStatus.InvalidArgument;
        }

        if (!_byId.TryGetValue(frame.RoutingId, out var pipe))
        {
            return SendStatus.HostUnreachable;
        }

        if (!pipe.CanWrite)
        {
            return SendStatus.WouldBlock;
        }

        pipe.WriteFrame(frame);
        return SendStatus.Sent;
    }

    public override RecvStatus Recv<TSink>(ref TSink sink)
    {
        if (!SingleFrameQueue.TryPeek(_in, out var pipe, out var frame))
        {
            return RecvStatus.WouldBlock;
        }

        sink.Deliver(frame.WithRoutingId((uint)pipe.PatternState!));
        _in.Consume(pipe, frame);
        return RecvStatus.Received;
    }

    public override bool CanReceive => SingleFrameQueue.TryPeek(_in, out _, out _);

    /// <summary>As libzmq's SERVER: always writable, since whether a send blocks depends on the peer it names.</summary>
    public override bool CanSend => true;
}
