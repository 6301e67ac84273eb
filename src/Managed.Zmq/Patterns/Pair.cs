
using Managed.Zmq.Pipes;

namespace Managed.Zmq.Patterns;

/// <summary>
/// PAIR (RFC 31): exactly one peer. A second peer is ignored, its messages never delivered (docs/libzmq-behaviour.md L18).
/// </summary>
internal sealed class Pair : Pattern
{
    private Pipe? _pipe;

    public Pair(IPatternHost socket)
        : base(socket)
    {
    }

    public override void Attach(Pipe pipe)
    {
        if (_pipe is null)
        {
            _pipe = pipe;
        }
    }

    /// <summary>Only the one peer's pipe: a second peer is never heard.</summary>
    public override bool Reads(Pipe pipe) => pipe == _pipe;

    public override void Detach(Pipe pipe)
    {
        if (_pipe == pipe)
        {
            _pipe = null;
        }
    }

    public override SendStatus Send(in OutboundFrame frame)
    {
        var pipe = _pipe;
        if (pipe is null || (!pipe.SendInProgress && !pipe.CanWrite))
        {
            return SendStatus.WouldBlock;
        }

        pipe.WriteFrame(frame);
        pipe.SendInProgress = frame.More;
        return SendStatus.Sent;
    }

    public override RecvStatus Recv<TSink>(ref TSink sink)
    {
        var pipe = _pipe;
        while (pipe is not null && pipe.TryPeekFrame(out var frame))
        {
            if (frame.IsCommand)
            {
                pipe.ConsumeFrame(frame);
                continue;
            }

            sink.Deliver(frame);
            pipe.ConsumeFrame(frame);
            return RecvStatus.Received;
        }

        return RecvStatus.WouldBlock;
    }

    public override bool CanReceive
    {
        get
        {
            var pipe = _pipe;
            while (pipe is not null && pipe.TryPeekFrame(out var frame))
            {
                if (!frame.IsCommand)
                {
                    return true;
                }

                pipe.ConsumeFrame(frame);
            }

            return false;
        }
    }

    public override bool CanSend => _pipe is { } pipe && (pipe.SendInProgress || pipe.CanWrite);
}
