
using Managed.Zmq.Pipes;
using Managed.Zmq.Sockets;

namespace Managed.Zmq.Patterns;

/// <summary>
/// PAIR (RFC 31): exactly one peer. A second peer is ignored, its messages never delivered (docs/libzmq-behaviour.md L18).
/// </summary>
internal sealed class Pair : Pattern
{
    private Pipe? _pipe;

    public Pair(SocketCore socket)
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

    public override void Detach(Pipe pipe)
    {
        if (_pipe == pipe)
        {
            _pipe = null;
        }
    }

    public override SendStatus Send(ReadOnlySpan<byte> frame, bool more)
    {
        var pipe = _pipe;
        if (pipe is null || (!pipe.SendInProgress && !pipe.CanWrite))
        {
            return SendStatus.WouldBlock;
        }

        pipe.WriteFrame(frame, more);
        pipe.SendInProgress = more;
        return SendStatus.Sent;
    }

    public override RecvStatus Recv<TSink>(ref TSink sink)
    {
        var pipe = _pipe;
        while (pipe is not null && pipe.TryPeekFrame(out var header, out var body))
        {
            if (header.IsCommand)
            {
                pipe.ConsumeFrame(header);
                continue;
            }

            sink.Deliver(body, header.More);
            pipe.ConsumeFrame(header);
            return RecvStatus.Received;
        }

        return RecvStatus.WouldBlock;
    }

    public override bool CanReceive
    {
        get
        {
            var pipe = _pipe;
            while (pipe is not null && pipe.TryPeekFrame(out var header, out _))
            {
                if (!header.IsCommand)
                {
                    return true;
                }

                pipe.ConsumeFrame(header);
            }

            return false;
        }
    }

    public override bool CanSend => _pipe is { } pipe && (pipe.SendInProgress || pipe.CanWrite);
}
