using Managed.Zmq.Pipes;

namespace Managed.Zmq.Patterns;

/// <summary>DEALER (RFC 28): round-robin send and fair-queued receive, no envelope.</summary>
internal sealed class Dealer : Pattern
{
    private readonly LoadBalancer _out = new();
    private readonly FairQueue _in = new();

    public Dealer(IPatternHost socket)
        : base(socket)
    {
    }

    public override void Attach(Pipe pipe)
    {
        _out.Add(pipe);
        _in.Add(pipe);
    }

    public override void Detach(Pipe pipe)
    {
        _out.Remove(pipe);
        _in.Remove(pipe);
    }

    public override SendStatus Send(in OutboundFrame frame) => _out.Send(frame);

    public override RecvStatus Recv<TSink>(ref TSink sink)
    {
        _in.Conflate = Socket.Options.Conflate;
        return Pull.Receive(_in, ref sink);
    }

    public override bool CanReceive => _in.HasMessage;

    public override bool CanSend => _out.CanSend;
}
