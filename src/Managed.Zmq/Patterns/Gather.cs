using Managed.Zmq.Pipes;

namespace Managed.Zmq.Patterns;

/// <summary>
/// GATHER (RFC 49): PULL's fair-queued receive from the SCATTER peers, of single-part messages only; it cannot send.
/// A multipart message from a peer is dropped whole and the connection kept, as libzmq's GATHER does. ZMQ_CONFLATE
/// does not apply: libzmq honours it for DEALER, PULL, PUSH, PUB and SUB only.
/// </summary>
internal sealed class Gather : Pattern
{
    private readonly FairQueue _in = new();

    public Gather(IPatternHost socket)
        : base(socket)
    {
    }

    public override void Attach(Pipe pipe) => _in.Add(pipe);

    public override void Detach(Pipe pipe) => _in.Remove(pipe);

    public override SendStatus Send(in OutboundFrame frame) => SendStatus.NotSupported;

    public override RecvStatus Recv<TSink>(ref TSink sink) => SingleFrameQueue.Receive(_in, ref sink);

    public override bool CanReceive => SingleFrameQueue.TryPeek(_in, out _, out _);

    public override bool CanSend => false;
}
