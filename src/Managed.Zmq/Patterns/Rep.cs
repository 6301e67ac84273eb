
using Managed.Zmq.Pipes;

namespace Managed.Zmq.Patterns;

/// <summary>
/// REP (RFC 28): fair-queues requests, strips and keeps each request's envelope (routing frames up
/// to the empty delimiter), and puts it back in front of the single reply to the same peer.
/// </summary>
internal sealed class Rep : Pattern
{
    private readonly FairQueue _in = new();
    private readonly FrameStash _envelope = new();

    private bool _sending;
    private bool _inRequest;
    private bool _inReply;
    private Pipe? _replyPipe;

    public Rep(IPatternHost socket)
        : base(socket)
    {
    }

    public override void Attach(Pipe pipe) => _in.Add(pipe);

    public override void Detach(Pipe pipe)
    {
        _in.Remove(pipe);
        if (_replyPipe == pipe)
        {
            _replyPipe = null;
        }
    }

    public override RecvStatus Recv<TSink>(ref TSink sink)
    {
        if (_sending)
        {
            return RecvStatus.InvalidState;
        }

        while (_in.TryPeek(out var pipe, out var frame))
        {
            var body = frame.Body;
            if (!_inRequest)
            {
                // Collect the envelope: frames up to and including the empty delimiter.
                if (_envelope.Count == 0 || _replyPipe != pipe)
                {
                    _envelope.Clear();
                    _replyPipe = pipe;
                }

                _envelope.Add(body);
                bool more = frame.More;
                _in.Consume(pipe, frame);
                if (!more)
                {
                    // docs/libzmq-behaviour.md L17: a request that ends before a delimiter is dropped silently.
                    _envelope.Clear();
                    _replyPipe = null;
                    continue;
                }

                if (body.Length == 0)
                {
                    _inRequest = true;
                }

                continue;
            }

            sink.Deliver(frame);
            bool last = !frame.More;
            _in.Consume(pipe, frame);
            if (last)
            {
                _inRequest = false;
                _sending = true;
            }

            return RecvStatus.Received;
        }

        return RecvStatus.WouldBlock;
    }

    public override SendStatus Send(in OutboundFrame frame)
    {
        if (!_sending)
        {
            return SendStatus.InvalidState;
        }

        var pipe = _replyPipe;
        if (pipe is not null && !pipe.IsTerminated)
        {
            if (!_inReply)
            {
                for (int i = 0; i < _envelope.Count; i++)
                {
                    pipe.WriteFrame(new OutboundFrame(_envelope[i], more: true));
                }

                _inReply = true;
            }

            // RFC 28 §The REP Socket Type: a reply to a peer that has gone is discarded, never blocked on.
            pipe.WriteFrame(frame);
        }

        if (!frame.More)
        {
            _inReply = false;
            _sending = false;
            _envelope.Clear();
            _replyPipe = null;
        }

        return SendStatus.Sent;
    }

    public override bool CanReceive => !_sending && _in.HasMessage;

    public override bool CanSend => _sending;
}
