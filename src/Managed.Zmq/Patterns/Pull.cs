using Managed.Zmq.Pipes;

namespace Managed.Zmq.Patterns;

/// <summary>PULL (RFC 30): fair-queued receive from every peer; it cannot send.</summary>
internal sealed class Pull : Pattern
{
    private readonly FairQueue _in = new();

    public Pull(IPatternHost socket)
        : base(socket)
    {
    }

    public override void Attach(Pipe pipe) => _in.Add(pipe);

    public override void Detach(Pipe pipe) => _in.Remove(pipe);

    public override SendStatus Send(in OutboundFrame frame) => SendStatus.NotSupported;

    public override RecvStatus Recv<TSink>(ref TSink sink)
    {
        _in.Conflate = Socket.Options.Conflate;
        return Receive(_in, ref sink);
    }

    /// <summary>Delivers the next frame the fair queue has, as it lies (PULL, DEALER).</summary>
    internal static RecvStatus Receive<TSink>(FairQueue queue, ref TSink sink)
        where TSink : IFrameSink, allows ref struct
    {
        if (!queue.TryPeek(out var pipe, out var frame))
        {
            return RecvStatus.WouldBlock;
        }

        sink.Deliver(frame);
        queue.Consume(pipe, frame);
        return RecvStatus.Received;
    }

    public override bool CanReceive => _in.HasMessage;

    public override bool CanSend => false;
}
