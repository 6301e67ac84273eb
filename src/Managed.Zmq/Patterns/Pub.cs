using Managed.Zmq.Patterns.Subscriptions;
using Managed.Zmq.Buffers;
using Managed.Zmq.Options;
using Managed.Zmq.Pipes;
using Managed.Zmq.Security.Zap;

namespace Managed.Zmq.Patterns;

/// <summary>
/// PUB and XPUB (RFC 29): each message goes to every subscriber whose subscriptions match its first
/// frame, and is dropped for a subscriber whose queue is full. Subscriptions arrive in both forms
/// whatever the peer's version (docs/libzmq-behaviour.md L12) and are kept in one <see cref="SubscriptionTable"/>, a set of
/// connections per topic. XPUB also hands new and last-gone topics (or all of them, when verbose)
/// and any other upstream message to the application.
/// Upstream frames are applied on the application's thread, in batches of at most
/// <see cref="SubscriptionLimits.FramesPerSend"/> before each send and taking the connections in
/// turn, so a flood of subscriptions from one peer neither stalls a send nor starves the others.
/// </summary>
internal sealed class Pub : Pattern, ITopicGoneSink
{
    private readonly bool _isXPub;
    private readonly List<Pipe> _pipes = [];
    private readonly List<Pipe> _targets = [];

    /// <summary>Which connections hold each topic.</summary>
    private readonly SubscriptionTable _subscriptions = new();

    /// <summary>XPUB: frames waiting for the application's Recv.</summary>
    private readonly Queue<(byte[] Frame, bool More)> _upstream = new();

    private bool _sending;
    private Pipe? _lastSubscriber;

    /// <summary>Upstream frames, a whole message per connection in turn; idle connections cost a batch nothing.</summary>
    private readonly FairQueue _upstreamQueue = new(surfaceSubscriptions: true);

    /// <summary>Tells one message's matching from the previous one's (<see cref="SubscriberState.MatchStamp"/>).</summary>
    private long _matchStamp;

    public Pub(IPatternHost socket, bool isXPub)
        : base(socket)
    {
        _isXPub = isXPub;
    }

    public override void Attach(Pipe pipe)
    {
        pipe.PatternState = new SubscriberState();
        _pipes.Add(pipe);
        _upstreamQueue.Add(pipe);
        if (Socket.Options.XpubWelcomeMessage is { } welcome)
        {
            pipe.WriteFrame(new OutboundFrame(welcome, more: false));
        }
    }

    public override void Detach(Pipe pipe)
    {
        _pipes.Remove(pipe);
        _upstreamQueue.Remove(pipe);
        _targets.Remove(pipe);

        // RFC 29 §The XPUB Socket Type: a subscriber that goes away unsubscribes from everything it had.
        if (pipe.PatternState is SubscriberState)
        {
            _subscriptions.RemovePipe(pipe, this);
        }

        if (_lastSubscriber == pipe)
        {
            _lastSubscriber = null;
        }
    }

    /// <summary>A leaving connection held the last reference to <paramref name="topic"/>.</summary>
    void ITopicGoneSink.TopicGone(ReadOnlySpan<byte> topic)
    {
        if (_isXPub && !Socket.Options.XpubManual)
        {
            Enqueue(subscribe: false, topic);
        }
    }

    /// <summary>
    /// Applies up to <paramref name="budget"/> upstream frames (a whole non-subscription message counts
    /// as one), taking the connections in turn from where the last batch stopped. True when it stopped
    /// at the budget, so frames may be left.
    /// </summary>
    private bool DrainSubscriptions(int budget)
    {
        while (_upstreamQueue.TryPeek(out var pipe, out var frame))
        {
            if (budget-- == 0)
            {
                // The fair queue moves on to the next connection: a flooding peer cannot hold the rest back.
                return true;
            }

            ApplyFrame(pipe, frame);
        }

        return false;
    }

    private void ApplyFrame(Pipe pipe, in InboundFrame frame)
    {
        // The pipe decodes both forms, the command (3.1, or inproc's own) and the 0x01/0x00 message.
        if (pipe.TryReadSubscription(frame, out bool subscribe, out var topic))
        {
            Apply(pipe, subscribe, topic);
            _upstreamQueue.Consume(pipe, frame);
            return;
        }

        if (frame.IsCommand)
        {
            // Any other command is ignored (docs/libzmq-behaviour.md L11).
            _upstreamQueue.Consume(pipe, frame);
            return;
        }

        // Anything else from a subscriber: PUB discards it, XPUB passes it up (RFC 29).
        bool more = frame.More;
        if (_isXPub)
        {
            _upstream.Enqueue((frame.Body.ToArray(), more));
        }

        _upstreamQueue.Consume(pipe, frame);
        while (more && _upstreamQueue.TryPeek(out _, out var next))
        {
            more = next.More;
            if (_isXPub)
            {
                _upstream.Enqueue((next.Body.ToArray(), more));
            }

            _upstreamQueue.Consume(pipe, next);
        }
    }

    /// <summary>XPUB receive: applies batches until one yields something to receive or nothing is left.</summary>
    private void DrainForReceive()
    {
        while (_upstream.Count == 0 && DrainSubscriptions(SubscriptionLimits.FramesPerSend))
        {
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

        if (subscribe)
        {
            // docs/libzmq-behaviour.md L12: a set per connection, so a repeated SUBSCRIBE has no further effect.
            bool added = _subscriptions.Subscribe(topic, pipe, out bool first);
            if (_isXPub && ((added && first) || options.XpubVerbose || options.XpubVerboser))
            {
                Enqueue(subscribe: true, topic);
            }
        }
        else if (_subscriptions.Unsubscribe(topic, pipe, out bool last))
        {
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

        if (_lastSubscriber is { } pipe)
        {
            if (subscribe)
            {
                _subscriptions.Subscribe(topic, pipe, out _);
            }
            else
            {
                _subscriptions.Unsubscribe(topic, pipe, out _);
            }
        }

        return 0;
    }

    public override SendStatus Send(in OutboundFrame frame)
    {
        bool more = frame.More;
        if (!_sending)
        {
            DrainSubscriptions(SubscriptionLimits.FramesPerSend);
            _targets.Clear();
            bool noDrop = Socket.Options.XpubNodrop; // PUB takes it too: libzmq's PUB is its XPUB
            long stamp = ++_matchStamp;
            var sink = new TargetCollector(_targets, noDrop, collect: !Socket.Options.InvertMatching);
            _subscriptions.Match(frame.Bytes, stamp, ref sink, stampEveryMatch: !sink.Collect);
            if (!sink.Collect)
            {
                // Invert_Matching: every connection the message did not match.
                foreach (var pipe in _pipes)
                {
                    if (((SubscriberState)pipe.PatternState!).MatchStamp != stamp && !sink.Target(pipe))
                    {
                        break;
                    }
                }
            }

            if (sink.Blocked)
            {
                // Xpub_Nodrop turns the drop into EAGAIN (as in Net.Zmq).
                _targets.Clear();
                return SendStatus.WouldBlock;
            }
        }

        foreach (var pipe in _targets)
        {
            pipe.WriteFrame(frame);
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

        DrainForReceive();
        if (!_upstream.TryDequeue(out var item))
        {
            return RecvStatus.WouldBlock;
        }

        sink.Deliver(new InboundFrame(item.Frame, item.More ? FrameFlags.More : FrameFlags.None));
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

            DrainForReceive();
            return _upstream.Count > 0;
        }
    }

    public override bool CanSend => true;

    /// <summary>
    /// Builds the target list of one message: a matched connection that can take it is a target, and a
    /// full one is skipped (the message is dropped for it) or, under Xpub_Nodrop, blocks the send.
    /// With <see cref="Collect"/> false (Invert_Matching) matching only stamps the matched connections.
    /// </summary>
    private struct TargetCollector(List<Pipe> targets, bool noDrop, bool collect) : IMatchSink
    {
        public readonly bool Collect = collect;

        public bool Blocked;

        public bool Matched(Pipe pipe)
        {
            if (!Collect)
            {
                return true;
            }

            return Target(pipe);
        }

        /// <summary>Takes <paramref name="pipe"/> as a target; false when the send must block.</summary>
        public bool Target(Pipe pipe)
        {
            if (pipe.CanWrite)
            {
                targets.Add(pipe);
                return true;
            }

            if (noDrop)
            {
                Blocked = true;
                return false;
            }

            pipe.MessagesDroppedAtHwm++;
            return true;
        }
    }
}
