using Managed.Zmq.Core;
using Managed.Zmq.Wire;

namespace Managed.Zmq.Patterns;

/// <summary>
/// PUB and XPUB (RFC 29): each message goes to every subscriber whose subscriptions match its first
/// frame, and is dropped for a subscriber whose queue is full. Subscriptions arrive in both forms
/// whatever the peer's version (L12) and are kept as a set per connection. XPUB also hands new and
/// last-gone topics (or all of them, when verbose) and any other upstream message to the application.
/// </summary>
internal sealed class Pub : Pattern
{
    private readonly bool _isXPub;
    private readonly List<Pipe> _pipes = [];
    private readonly List<Pipe> _targets = [];

    /// <summary>How many connections hold each topic: XPUB reports the first and the last.</summary>
    private readonly TopicSet _allTopics = new();

    /// <summary>XPUB: frames waiting for the application's Recv.</summary>
    private readonly Queue<(byte[] Frame, bool More)> _upstream = new();

    private bool _sending;
    private Pipe? _lastSubscriber;

    public Pub(SocketCore socket, bool isXPub)
        : base(socket)
    {
        _isXPub = isXPub;
    }

    public override void Attach(Pipe pipe)
    {
        pipe.PatternState = new TopicSet();
        _pipes.Add(pipe);
        if (Socket.Options.XpubWelcomeMessage is { } welcome)
        {
            pipe.WriteFrame(welcome, more: false);
        }
    }

    public override void Detach(Pipe pipe)
    {
        _pipes.Remove(pipe);
        _targets.Remove(pipe);
        if (pipe.PatternState is TopicSet topics)
        {
            // RFC 29 §The XPUB Socket Type: a subscriber that goes away unsubscribes from everything it had.
            foreach (var topic in topics.Topics)
            {
                if (_allTopics.Remove(topic) && _isXPub && !Socket.Options.XpubManual)
                {
                    Enqueue(subscribe: false, topic);
                }
            }
        }

        if (_lastSubscriber == pipe)
        {
            _lastSubscriber = null;
        }
    }

    /// <summary>Applies what subscribers sent since the last call; runs before every send and receive.</summary>
    private void DrainSubscriptions()
    {
        foreach (var pipe in _pipes)
        {
            while (pipe.TryPeekFrame(out var header, out var body))
            {
                if (header.IsCommand)
                {
                    if (ZmtpCommandCodec.TryParse(body, out var command)
                        && ZmtpSubscription.TryParseCommand(command, out bool subscribe, out var topic))
                    {
                        Apply(pipe, subscribe, topic);
                    }

                    pipe.ConsumeFrame(header);
                    continue;
                }

                if (!header.More && ZmtpSubscription.TryParseMessage(body, out bool isSubscribe, out var messageTopic))
                {
                    Apply(pipe, isSubscribe, messageTopic);
                    pipe.ConsumeFrame(header);
                    continue;
                }

                // Anything else from a subscriber: PUB discards it, XPUB passes it up (RFC 29).
                bool more = header.More;
                if (_isXPub)
                {
                    _upstream.Enqueue((body.ToArray(), more));
                }

                pipe.ConsumeFrame(header);
                while (more && pipe.TryPeekFrame(out header, out body))
                {
                    if (_isXPub)
                    {
                        _upstream.Enqueue((body.ToArray(), header.More));
                    }

                    more = header.More;
                    pipe.ConsumeFrame(header);
                }
            }
        }
    }

    private void Apply(Pipe pipe, bool subscribe, ReadOnlySpan<byte> topic)
    {
        var options = Socket.Options;
        if (_isXPub && options.XpubManual)
        {
            // The application decides, through Subscribe/Unsubscribe on this socket.
            _lastSubscriber = pipe;
            Enqueue(subscribe, topic);
            return;
        }

        var topics = (TopicSet)pipe.PatternState!;
        if (subscribe)
        {
            // L12: a set per connection, so a repeated SUBSCRIBE has no further effect.
            bool first = false;
            if (!topics.Contains(topic))
            {
                topics.Add(topic);
                first = _allTopics.Add(topic);
            }

            if (_isXPub && (first || options.XpubVerbose || options.XpubVerboser))
            {
                Enqueue(subscribe: true, topic);
            }
        }
        else if (topics.RemoveAll(topic))
        {
            bool last = _allTopics.Remove(topic);
            if (_isXPub && (last || options.XpubVerboser))
            {
                Enqueue(subscribe: false, topic);
            }
        }
    }

    private void Enqueue(bool subscribe, ReadOnlySpan<byte> topic)
    {
        var frame = new byte[topic.Length + 1];
        frame[0] = subscribe ? (byte)1 : (byte)0;
        topic.CopyTo(frame.AsSpan(1));
        _upstream.Enqueue((frame, false));
    }

    public override int Subscribe(ReadOnlySpan<byte> topic, bool subscribe)
    {
        if (!_isXPub || !Socket.Options.XpubManual)
        {
            return ZmqConstants.EINVAL;
        }

        if (_lastSubscriber?.PatternState is TopicSet topics)
        {
            if (subscribe)
            {
                if (!topics.Contains(topic))
                {
                    topics.Add(topic);
                    _allTopics.Add(topic);
                }
            }
            else if (topics.RemoveAll(topic))
            {
                _allTopics.Remove(topic);
            }
        }

        return 0;
    }

    public override SendStatus Send(ReadOnlySpan<byte> frame, bool more)
    {
        if (!_sending)
        {
            DrainSubscriptions();
            _targets.Clear();
            bool invert = Socket.Options.InvertMatching;
            bool noDrop = _isXPub && Socket.Options.XpubNodrop;
            foreach (var pipe in _pipes)
            {
                if (((TopicSet)pipe.PatternState!).Matches(frame) == invert)
                {
                    continue;
                }

                if (pipe.CanWrite)
                {
                    _targets.Add(pipe);
                }
                else if (noDrop)
                {
                    // Xpub_Nodrop turns the drop into EAGAIN (API §8.2).
                    _targets.Clear();
                    return SendStatus.WouldBlock;
                }
            }
        }

        foreach (var pipe in _targets)
        {
            pipe.WriteFrame(frame, more);
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
        if (!_isXPub)
        {
            return RecvStatus.NotSupported;
        }

        DrainSubscriptions();
        if (!_upstream.TryDequeue(out var item))
        {
            return RecvStatus.WouldBlock;
        }

        sink.Deliver(item.Frame, item.More);
        return RecvStatus.Received;
    }

    public override bool CanReceive
    {
        get
        {
            if (!_isXPub)
            {
                return false;
            }

            DrainSubscriptions();
            return _upstream.Count > 0;
        }
    }

    public override bool CanSend => true;
}
