using Managed.Zmq.Pipes;
using Managed.Zmq.Sockets;

namespace Managed.Zmq.Patterns;

/// <summary>
/// CLIENT (RFC 41): round-robin send and fair-queued receive, as DEALER, of single-part messages only: a multipart
/// send fails with EINVAL and a multipart message from a peer is dropped whole, as libzmq's CLIENT does.
/// </summary>
internal sealed class Client : Pattern
{
    private readonly LoadBalancer _out = new();
    private readonly FairQueue _in = new();

    public Client(IPatternHost socket)
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

    public override SendStatus Send(in OutboundFrame frame) => frame.More ? SendStatus.InvalidArgument : _out.Send(frame);

    public override RecvStatus Recv<TSink>(ref TSink sink) => SingleFrameQueue.Receive(_in, ref sink);

    public override bool CanReceive => SingleFrameQueue.TryPeek(_in, out _, out _);

    public override bool CanSend => _out.CanSend;
}
