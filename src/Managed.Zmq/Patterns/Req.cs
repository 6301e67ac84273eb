
using Managed.Zmq.Pipes;

namespace Managed.Zmq.Patterns;

/// <summary>
/// REQ (RFC 28): strictly alternates send and receive, puts an empty delimiter in front of each
/// request, and accepts the reply only from the peer it asked.
/// </summary>
internal sealed class Req : Pattern
{
    private readonly LoadBalancer _out = new();

    /// <summary>True while a request may be sent; false while a reply is awaited.</summary>
    private bool _sending = true;

    /// <summary>True between the first and the last frame of a request.</summary>
    private bool _inRequest;

    /// <summary>True between the first and the last frame of a reply being read.</summary>
    private bool _inReply;

    private Pipe? _replyPipe;

    /// <summary>Req_Correlate: the id put in front of the current request, checked on the reply.</summary>
    private uint _requestId = (uint)Random.Shared.Next();

    /// <summary>Receive: the correlation id frame of the reply was checked.</summary>
    private bool _idChecked;

    public Req(IPatternHost socket)
        : base(socket)
    {
    }

    public override void Attach(Pipe pipe) => _out.Add(pipe);

    /// <summary>The pipe of the request in flight only: what other peers send is never read, as libzmq's REQ discards it.</summary>
    public override bool Reads(Pipe pipe) => pipe == _replyPipe;

    public override void Detach(Pipe pipe)
    {
        _out.Remove(pipe);
        if (_replyPipe == pipe)
        {
            _replyPipe = null;
            _inReply = false;
        }
    }

    public override SendStatus Send(in OutboundFrame frame)
    {
        if (!_sending)
        {
            // Req_Relaxed lets a new request replace the one whose reply never came.
            if (!Socket.Options.ReqRelaxed || _inReply)
            {
                return SendStatus.InvalidState;
            }

            _sending = true;
            _replyPipe = null;
        }

        if (!_inRequest)
        {
            SendStatus status;
            if (Socket.Options.ReqCorrelate)
            {
                // Req_Correlate: a 4-byte request id precedes the delimiter, so stale replies can be told apart.
                _requestId++;
                Span<byte> id = stackalloc byte[4];
                BitConverter.TryWriteBytes(id, _requestId);
                status = _out.Send(new OutboundFrame(id, more: true));
                if (status != SendStatus.Sent)
                {
                    return status;
                }

                _out.Send(new OutboundFrame(default, more: true));
            }
            else
            {
                // RFC 28 §The REQ Socket Type: an empty delimiter frame goes first.
                status = _out.Send(new OutboundFrame(default, more: true));
                if (status != SendStatus.Sent)
                {
                    return status;
                }
            }

            _replyPipe = _out.LastPipe;
            _inRequest = true;
            _idChecked = false;
        }

        _out.Send(frame);
        if (!frame.More)
        {
            _inRequest = false;
            _sending = false;
        }

        return SendStatus.Sent;
    }

    public override RecvStatus Recv<TSink>(ref TSink sink)
    {
        if (_sending)
        {
            return RecvStatus.InvalidState;
        }

        var pipe = _replyPipe;
        while (pipe is not null && pipe.TryPeekFrame(out var frame))
        {
            var body = frame.Body;
            if (frame.IsCommand)
            {
                pipe.ConsumeFrame(frame);
                continue;
            }

            if (!_inReply && Socket.Options.ReqCorrelate && !_idChecked)
            {
                if (body.Length != 4 || !frame.More || BitConverter.ToUInt32(body) != _requestId)
                {
                    DiscardMessage(pipe, frame);
                    continue;
                }

                pipe.ConsumeFrame(frame);
                _idChecked = true;
                continue;
            }

            if (!_inReply)
            {
                // docs/libzmq-behaviour.md L17: a reply must start with the empty delimiter; anything else is discarded.
                if (body.Length != 0 || !frame.More)
                {
                    DiscardMessage(pipe, frame);
                    _idChecked = false;
                    continue;
                }

                pipe.ConsumeFrame(frame);
                _inReply = true;
                continue;
            }

            sink.Deliver(frame);
            pipe.ConsumeFrame(frame);
            if (!frame.More)
            {
                _inReply = false;
                _sending = true;
                _replyPipe = null;
            }

            return RecvStatus.Received;
        }

        return RecvStatus.WouldBlock;
    }

    private static void DiscardMessage(Pipe pipe, in InboundFrame frame)
    {
        bool more = frame.More;
        pipe.ConsumeFrame(frame);
        while (more && pipe.TryPeekFrame(out var next))
        {
            pipe.ConsumeFrame(next);
            more = next.More;
        }
    }

    public override bool CanReceive
    {
        get
        {
            if (_sending || _replyPipe is null)
            {
                return false;
            }

            return _inReply ? _replyPipe.TryPeekFrame(out _) : _replyPipe.InboundQueuedMessages > 0;
        }
    }

    public override bool CanSend => (_sending || Socket.Options.ReqRelaxed) && _out.CanSend;
}
