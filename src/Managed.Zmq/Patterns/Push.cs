using Managed.Zmq.Pipes;

namespace Managed.Zmq.Patterns;

/// <summary>PUSH (RFC 30): round-robin send over the peers with room; it cannot receive.</summary>
internal sealed class Push : Pattern
{
    private readonly LoadBalancer _out = new();

    public Push(IPatternHost socket)
        : base(socket)
    {
    }

    public override void Attach(Pipe pipe) => _out.Add(pipe);

    public override void Detach(Pipe pipe) => _out.Remove(pipe);

    public override SendStatus Send(in OutboundFrame frame) => _out.Send(frame);

    public override RecvStatus Recv<TSink>(ref TSink sink) => RecvStatus.NotSupported;

    /// <summary>Never: PUSH receives nothing, so what a misbehaving peer sent goes with it.</summary>
    public override bool Reads(Pipe pipe) => false;

    public override bool CanReceive => false;

    public override bool CanSend => _out.CanSend;
}
