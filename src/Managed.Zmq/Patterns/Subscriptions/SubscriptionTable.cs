using System.Runtime.CompilerServices;
using Managed.Zmq.Buffers;
using Managed.Zmq.Options;
using Managed.Zmq.Pipes;
using Managed.Zmq.Security.Zap;

namespace Managed.Zmq.Patterns.Subscriptions;

/// <summary>
/// A publisher's subscriptions: for each topic, the set of connections holding it (libzmq keeps a set
/// per connection, docs/libzmq-behaviour.md L12), in one radix trie. Matching a message walks the trie along the message once
/// and yields each matching connection once, so its cost is the message's length plus the matches,
/// however many topics and connections there are. Every pipe given here must carry a
/// <see cref="SubscriberState"/> as its PatternState.
/// </summary>
internal sealed class SubscriptionTable
{
    private readonly RadixTrie<PipeSet> _trie = new();

    /// <summary>Distinct topics held by at least one connection.</summary>
    public int TopicCount => _trie.Count;

    /// <summary>Trie nodes in use (for tests: zero once every subscription is gone).</summary>
    internal int NodeCount => _trie.NodeCount;

    /// <summary>
    /// Adds <paramref name="pipe"/> to <paramref name="topic"/>'s set; false when it was there already.
    /// <paramref name="first"/>: no connection held the topic before.
    /// </summary>
    public bool Subscribe(ReadOnlySpan<byte> topic, Pipe pipe, out bool first)
    {
        ref var set = ref _trie.GetOrAdd(topic, out first);
        if (!set.Add(pipe))
        {
            return false;
        }

        State(pipe).Subscriptions++;
        return true;
    }

    /// <summary>
    /// Takes <paramref name="pipe"/> out of <paramref name="topic"/>'s set; false when it was not in it.
    /// <paramref name="last"/>: no connection holds the topic any more.
    /// </summary>
    public bool Unsubscribe(ReadOnlySpan<byte> topic, Pipe pipe, out bool last)
    {
        last = false;
        ref var set = ref _trie.Find(topic);
        if (Unsafe.IsNullRef(ref set) || !set.Remove(pipe))
        {
            return false;
        }

        State(pipe).Subscriptions--;
        if (set.Count == 0)
        {
            _trie.Remove(topic);
            last = true;
        }

        return true;
    }

    /// <summary>
    /// Takes a leaving connection out of every set (RFC 29: it unsubscribes from everything), telling
    /// <paramref name="sink"/> of each topic nobody holds any more. Walks the trie until the
    /// connection's last topic is found; a connection without subscriptions costs nothing.
    /// </summary>
    public void RemovePipe<TSink>(Pipe pipe, TSink sink)
        where TSink : ITopicGoneSink
    {
        var state = State(pipe);
        if (state.Subscriptions == 0)
        {
            return;
        }

        var visitor = new PipeRemover<TSink>(pipe, state.Subscriptions, sink);
        _trie.Walk(ref visitor);
        state.Subscriptions = 0;
    }

    /// <summary>
    /// Gives <paramref name="sink"/> each connection subscribed to a prefix of <paramref name="message"/>,
    /// once: <paramref name="stamp"/> must differ from every stamp used before on this table.
    /// Allocates nothing.
    /// </summary>
    /// <remarks>
    /// A connection can only be offered twice when two of the message's prefixes are held, so the first set of
    /// connections met is offered without marking them; a second set marks the first one's before its own
    /// (<see cref="SubscriberState.MatchStamp"/>). A publisher whose subscribers all hold one prefix, the usual
    /// fan-out, then touches no per-connection state but the pipe itself.
    /// </remarks>
    /// <param name="message">The message's first frame.</param>
    /// <param name="stamp">This match's stamp.</param>
    /// <param name="sink">Receives the matches.</param>
    /// <param name="stampEveryMatch">Leave every matched connection's stamp at <paramref name="stamp"/>, for a caller
    /// that reads the stamps afterwards (Invert_Matching).</param>
    public void Match<TSink>(ReadOnlySpan<byte> message, long stamp, ref TSink sink, bool stampEveryMatch)
        where TSink : struct, IMatchSink
    {
        var visitor = new MatchVisitor<TSink>(stamp, sink, stampEveryMatch);
        _trie.Match(message, ref visitor);
        sink = visitor.Sink;
    }

    private static SubscriberState State(Pipe pipe) => (SubscriberState)pipe.PatternState!;

    private struct MatchVisitor<TSink>(long stamp, TSink sink, bool stamping) : ITrieMatchVisitor<PipeSet>
        where TSink : struct, IMatchSink
    {
        public TSink Sink = sink;

        /// <summary>Whether offers mark their connection; off until a second set is met (or asked for from the start).</summary>
        private bool _stamping = stamping;

        /// <summary>The set offered without marks, while <see cref="_stamping"/> is off; empty until the first set is met.</summary>
        private PipeSet _unstamped;

        public bool Visit(ref PipeSet value)
        {
            if (!_stamping)
            {
                if (_unstamped.IsEmpty)
                {
                    _unstamped = value;
                    return OfferAll(ref value);
                }

                // A second prefix matches: from now on a connection may come again, so mark the ones already offered.
                _stamping = true;
                Stamp(ref _unstamped);
            }

            return OfferAll(ref value);
        }

        private bool OfferAll(ref PipeSet value)
        {
            if (value.Single is { } single)
            {
                return Offer(single);
            }

            foreach (var pipe in value.Many!)
            {
                if (!Offer(pipe))
                {
                    return false;
                }
            }

            return true;
        }

        private bool Offer(Pipe pipe)
        {
            if (_stamping)
            {
                var state = State(pipe);
                if (state.MatchStamp == stamp)
                {
                    return true;
                }

                state.MatchStamp = stamp;
            }

            return Sink.Matched(pipe);
        }

        private readonly void Stamp(ref PipeSet value)
        {
            if (value.Single is { } single)
            {
                State(single).MatchStamp = stamp;
                return;
            }

            foreach (var pipe in value.Many!)
            {
                State(pipe).MatchStamp = stamp;
            }
        }
    }

    private struct PipeRemover<TSink>(Pipe pipe, int remaining, TSink sink) : ITrieWalkVisitor<PipeSet>
        where TSink : ITopicGoneSink
    {
        private int _remaining = remaining;

        public readonly bool Done => _remaining == 0;

        public bool Visit(ReadOnlySpan<byte> key, ref PipeSet value)
        {
            if (!value.Remove(pipe))
            {
                return true;
            }

            _remaining--;
            if (value.Count > 0)
            {
                return true;
            }

            sink.TopicGone(key);
            return false;
        }
    }
}
