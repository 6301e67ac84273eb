using Managed.Zmq.Pipes;

namespace Managed.Zmq.Patterns;

/// <summary>
/// CHANNEL (RFC 52): PAIR's one peer, with single-part messages only. As libzmq's CHANNEL: a multipart send fails
/// with EINVAL, a send with no peer or a full one waits (or EAGAIN without waiting), a multipart message from the
/// peer is dropped whole, and a second peer is ignored as PAIR ignores it (docs/libzmq-behaviour.md L18).
/// </summary>
/// <remarks>The receive side is the single-part fair queue of the other thread-safe types, holding the one pipe.</remarks>
internal sealed class Channel : Pattern
{
    private readonly FairQueue _in = new();
    private Pipe? _pipe;

    public Channel(IPatternHost socket)
        : base(socket)
    {
    }

    public override void Attach(Pipe pipe)
    {
        if (_pipe is null)
        {
            _pipe = pipe;
            _in.Add(pipe);
        }
    }

    /// <summary>Only the one peer's pipe: a second peer is never heard.</summary>
    public override bool Reads(Pipe pipe) => pipe == _pipe;

    public override void Detach(Pipe pipe)
    {
        if (_pipe == pipe)
        {
            _pipe = null;
            _in.Remove(pipe);
        }
    }

    public override SendStatus Send(in OutboundFrame frame)
    {
        if (frame.More)
        {
            return SendStatus.InvalidArgument;
        }

        var pipe = _pipe;
        if (pipe is null || !pipe.CanWrite)
        {
            return SendStatus.WouldBlock;
        }

        pipe.WriteFrame(frame);
        return SendStatus.Sent;
    }

    public override RecvStatus Recv<TSink>(ref TSink sink) => SingleFrameQueue.Receive(_in, ref sink);

    public override bool CanReceive => SingleFrameQueue.TryPeek(_in, out _, out _);

    public override bool CanSend => _pipe is { } pipe && pipe.CanWrite;
}
