using System.Runtime.CompilerServices;
using Managed.Zmq.Patterns.Subscriptions;
using Managed.Zmq.Buffers;
using Managed.Zmq.Options;
using Managed.Zmq.Security.Zap;

namespace Managed.Zmq.Patterns;

/// <summary>
/// A subscriber's own prefix subscriptions with a count per topic: subscribing twice needs two
/// unsubscribes (RFC 29; libzmq counts on the subscriber side, docs/libzmq-behaviour.md L12). Kept in a radix trie, so adding,
/// removing and matching a message cost the topic's or message's length, not the number of topics.
/// </summary>
internal sealed class TopicSet
{
    private readonly RadixTrie<int> _trie = new();

    public int Count => _trie.Count;

    /// <summary>Trie nodes in use (for tests: zero once every topic is gone).</summary>
    internal int NodeCount => _trie.NodeCount;

    /// <summary>Adds one reference; true when the topic is new.</summary>
    public bool Add(ReadOnlySpan<byte> topic)
    {
        ref int count = ref _trie.GetOrAdd(topic, out bool added);
        count++;
        return added;
    }

    /// <summary>Drops one reference; true when the last one went (false also when absent).</summary>
    public bool Remove(ReadOnlySpan<byte> topic)
    {
        ref int count = ref _trie.Find(topic);
        if (Unsafe.IsNullRef(ref count))
        {
            return false;
        }

        if (--count > 0)
        {
            return false;
        }

        _trie.Remove(topic);
        return true;
    }

    public bool Contains(ReadOnlySpan<byte> topic) => !Unsafe.IsNullRef(ref _trie.Find(topic));

    /// <summary>True when some topic is a prefix of <paramref name="message"/> (RFC 29: byte-wise prefix match).</summary>
    public bool Matches(ReadOnlySpan<byte> message) => _trie.MatchesAny(message);

    /// <summary>Visits every topic once, whatever its count.</summary>
    public void ForEach<TVisitor>(ref TVisitor visitor)
        where TVisitor : struct, ITrieWalkVisitor<int>
        => _trie.Walk(ref visitor);
}
