namespace Managed.Zmq.Patterns;

/// <summary>
/// Prefix subscriptions with a count per topic (RFC 29 §The SUB Socket Type: subscribing twice
/// needs two unsubscribes). A linear list: subscription sets are small, and matching a message
/// against a few prefixes is cheaper than a trie's pointer chasing. Replace with a trie when a
/// benchmark with many topics says so.
/// </summary>
internal sealed class TopicSet
{
    private readonly List<byte[]> _topics = [];
    private readonly List<int> _counts = [];

    public int Count => _topics.Count;

    public IReadOnlyList<byte[]> Topics => _topics;

    /// <summary>Adds one reference; true when the topic is new.</summary>
    public bool Add(ReadOnlySpan<byte> topic)
    {
        int index = IndexOf(topic);
        if (index >= 0)
        {
            _counts[index]++;
            return false;
        }

        _topics.Add(topic.ToArray());
        _counts.Add(1);
        return true;
    }

    /// <summary>Drops one reference; true when the last one went (false also when absent).</summary>
    public bool Remove(ReadOnlySpan<byte> topic)
    {
        int index = IndexOf(topic);
        if (index < 0)
        {
            return false;
        }

        if (--_counts[index] > 0)
        {
            return false;
        }

        _topics.RemoveAt(index);
        _counts.RemoveAt(index);
        return true;
    }

    /// <summary>Removes the topic whatever its count; true when it was there.</summary>
    public bool RemoveAll(ReadOnlySpan<byte> topic)
    {
        int index = IndexOf(topic);
        if (index < 0)
        {
            return false;
        }

        _topics.RemoveAt(index);
        _counts.RemoveAt(index);
        return true;
    }

    public bool Contains(ReadOnlySpan<byte> topic) => IndexOf(topic) >= 0;

    /// <summary>True when some topic is a prefix of <paramref name="message"/> (RFC 29: byte-wise prefix match).</summary>
    public bool Matches(ReadOnlySpan<byte> message)
    {
        foreach (var topic in _topics)
        {
            if (message.StartsWith(topic))
            {
                return true;
            }
        }

        return false;
    }

    public void Clear()
    {
        _topics.Clear();
        _counts.Clear();
    }

    private int IndexOf(ReadOnlySpan<byte> topic)
    {
        for (int i = 0; i < _topics.Count; i++)
        {
            if (topic.SequenceEqual(_topics[i]))
            {
                return i;
            }
        }

        return -1;
    }
}
