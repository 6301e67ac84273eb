
using Managed.Zmq.Pipes;
using Managed.Zmq.Sockets;

namespace Managed.Zmq.Patterns;

/// <summary>
/// DEALER (RFC 28): round-robin send and fair-queued receive, no envelope. With one direction
/// switched off it is PUSH or PULL (RFC 30), which differ from DEALER only there.
/// </summary>
internal sealed class Dealer : Pattern
{
    private readonly LoadBalancer _out = new();
    private readonly FairQueue _in = new();
    private readonly bool _canSend;
    private readonly bool _canReceive;

    public Dealer(SocketCore socket, bool canSend, bool canReceive)
        : base(socket)
    {
        _canSend = canSend;
        _canReceive = canReceive;
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

    public override SendStatus Send(ReadOnlySpan<byte> frame, bool more)
        => _canSend ? _out.Send(frame, more) : SendStatus.NotSupported;

    public override RecvStatus Recv<TSink>(ref TSink sink)
    {
        if (!_canReceive)
        {
            return RecvStatus.NotSupported;
        }

        _in.Conflate = Socket.Options.Conflate;
        if (!_in.TryPeek(out var pipe, out var header, out var body))
        {
            return RecvStatus.WouldBlock;
        }

        sink.Deliver(body, header.More);
        _in.Consume(pipe, header);
        return RecvStatus.Received;
    }

    public override bool CanReceive => _canReceive && _in.HasMessage;

    public override bool CanSend => _canSend && _out.CanSend;
}
