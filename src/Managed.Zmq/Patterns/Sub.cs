using Managed.Zmq.Patterns.Subscriptions;
using Managed.Zmq.Pipes;

namespace Managed.Zmq.Patterns;

/// <summary>
/// SUB and XSUB (RFC 29). SUB subscribes through options, filters what it receives (libzmq filters
/// again at the subscriber, docs/libzmq-behaviour.md L12) and cannot send. XSUB subscribes by sending 0x01/0x00 messages,
/// forwards every message it sends to all publishers, and receives without filtering.
/// Subscriptions are re-sent to a publisher each time a connection to it comes up.
/// </summary>
internal sealed class Sub : Pattern
{
    /// <summary>Pipe state: its connection dropped, so the next one must hear every subscription again.</summary>
    private static readonly object s_lost = new();

    private readonly FairQueue _in = new();
    private readonly List<Pipe> _pipes = [];
    private readonly TopicSet _subscriptions = new();
    private readonly bool _isXSub;

    /// <summary>XSUB send: pipes taking the current multipart message.</summary>
    private readonly List<Pipe> _targets = [];
    private bool _sending;

    /// <summary>XSUB send: the rest of a message that is not forwarded (a redundant cancel).</summary>
    private bool _dropping;

    /// <summary>SUB receive: true between frames of a message that passed the filter.</summary>
    private bool _inMessage;

    public Sub(IPatternHost socket, bool isXSub)
        : base(socket)
    {
        _isXSub = isXSub;
    }

    public override void Attach(Pipe pipe)
    {
        _pipes.Add(pipe);
        _in.Add(pipe);

        // libzmq writes the subscriptions into a pipe as soon as it exists (at Connect for a
        // connecting socket), so they go out when the connection comes up even if the application
        // is not calling the socket then, each in the form its carrier needs (Pipe.WriteSubscription).
        WriteAll(pipe, _subscriptions);
    }

    public override void Detach(Pipe pipe)
    {
        _pipes.Remove(pipe);
        _in.Remove(pipe);
        _targets.Remove(pipe);
    }

    public override void Connected(Pipe pipe)
    {
        // A reconnect starts a new session at the publisher: re-send everything (docs/libzmq-behaviour.md L12).
        if (pipe.PatternState == s_lost)
        {
            pipe.PatternState = null;
            WriteAll(pipe, _subscriptions);
        }
    }

    public override void Disconnected(Pipe pipe) => pipe.PatternState = s_lost;

    public override int Subscribe(ReadOnlySpan<byte> topic, bool subscribe)
    {
        if (_isXSub)
        {
            return ZmqConstants.EINVAL;
        }

        // docs/libzmq-behaviour.md L12: every SUBSCRIBE goes out (the publisher keeps a set); CANCEL only at the last unsubscribe.
        bool send = true;
        if (subscribe)
        {
            _subscriptions.Add(topic);
        }
        else
        {
            send = _subscriptions.Remove(topic);
        }

        if (send)
        {
            foreach (var pipe in _pipes)
            {
                pipe.WriteSubscription(subscribe, topic);
            }
        }

        return 0;
    }

    public override SendStatus Send(in OutboundFrame outbound)
    {
        var frame = outbound.Bytes;
        bool more = outbound.More;
        if (!_isXSub)
        {
            return SendStatus.NotSupported;
        }

        if (_dropping)
        {
            _dropping = more;
            return SendStatus.Sent;
        }

        if (!_sending)
        {
            if (frame.Length > 0 && (frame[0] == 1 || frame[0] == 0))
            {
                // Remember it so it is re-sent after a reconnect; it still goes out as a plain message (docs/libzmq-behaviour.md L12).
                // Like SUB, every subscribe goes out but a cancel only when its last reference goes.
                if (frame[0] == 1)
                {
                    _subscriptions.Add(frame[1..]);
                }
                else if (!_subscriptions.Remove(frame[1..]))
                {
                    _dropping = more;
                    return SendStatus.Sent;
                }
            }

            // RFC 29 §The XSUB Socket Type: to every publisher, dropped where a queue is full, never blocking.
            _targets.Clear();
            foreach (var pipe in _pipes)
            {
                if (pipe.CanWrite)
                {
                    _targets.Add(pipe);
                }
            }
        }

        foreach (var pipe in _targets)
        {
            pipe.WriteFrame(outbound);
        }

        _sending = more;
        if (!more)
        {
            _targets.Clear();
        }

        return SendStatus.Sent;
    }

    public override RecvStatus Recv<TSink>(ref TSink sink)
    {
        // libzmq conflates a SUB, never an XSUB, whose queue a proxy forwards whole.
        _in.Conflate = !_isXSub && Socket.Options.Conflate;
        if (!TryPeekWanted(out var pipe, out var frame))
        {
            return RecvStatus.WouldBlock;
        }

        sink.Deliver(frame);
        _inMessage = frame.More;
        _in.Consume(pipe, frame);
        return RecvStatus.Received;
    }

    /// <summary>Peeks the next frame that the filter lets through, discarding whole messages it rejects.</summary>
    private bool TryPeekWanted(out Pipe pipe, out InboundFrame frame)
    {
        while (_in.TryPeek(out pipe, out frame))
        {
            if (_isXSub || _inMessage || Wanted(frame.Body))
            {
                return true;
            }

            // A filtered message is dropped whole (as in Net.Zmq).
            _in.DropMessage(pipe, frame);
        }

        return false;
    }

    private bool Wanted(ReadOnlySpan<byte> firstFrame)
    {
        bool matches = _subscriptions.Matches(firstFrame);
        return Socket.Options.InvertMatching ? !matches : matches;
    }

    public override bool CanReceive => TryPeekWanted(out _, out _);

    public override bool CanSend => _isXSub;

    /// <summary>Queues a SUBSCRIBE for every topic of <paramref name="topics"/> (a new or re-established publisher).</summary>
    private static void WriteAll(Pipe pipe, TopicSet topics)
    {
        var visitor = new SubscribeAll(pipe);
        topics.ForEach(ref visitor);
    }

    private readonly struct SubscribeAll(Pipe pipe) : ITrieWalkVisitor<int>
    {
        public bool Done => false;

        public bool Visit(ReadOnlySpan<byte> key, ref int value)
        {
            pipe.WriteSubscription(subscribe: true, key);
            return true;
        }
    }
}
