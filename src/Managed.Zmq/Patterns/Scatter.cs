using Managed.Zmq.Pipes;

namespace Managed.Zmq.Patterns;

/// <summary>
/// SCATTER (RFC 49): PUSH's round-robin send over the GATHER peers with room, of single-part messages only; it cannot
/// receive. As libzmq's SCATTER: a multipart send fails with EINVAL (nothing is queued) and, with no peer that has
/// room, the send waits (or EAGAIN without waiting) rather than drop.
/// </summary>
internal sealed class Scatter : Pattern
{
    private readonly LoadBalancer _out = new();

    public Scatter(IPatternHost socket)
        : base(socket)
    {
    }

    public override void Attach(Pipe pipe) => _out.Add(pipe);

    public override void Detach(Pipe pipe) => _out.Remove(pipe);

    public override SendStatus Send(in OutboundFrame frame) => frame.More ? SendStatus.InvalidArgument : _out.Send(frame);

    public override RecvStatus Recv<TSink>(ref TSink sink) => RecvStatus.NotSupported;

    /// <summary>Never: SCATTER receives nothing, so what a misbehaving peer sent goes with it.</summary>
    public override bool Reads(Pipe pipe) => false;

    public override bool CanReceive => false;

    public override bool CanSend => _out.CanSend;
}
