namespace Managed.Zmq.Patterns.Subscriptions;

/// <summary>Receives every key and value of a trie (<see cref="RadixTrie{TValue}.Walk"/>).</summary>
internal interface ITrieWalkVisitor<TValue>
{
    /// <summary>True once the visitor needs no more keys: the walk stops descending.</summary>
    bool Done { get; }

    /// <summary>One key and its value; return false when the value is now empty, to have the key removed.</summary>
    bool Visit(ReadOnlySpan<byte> key, ref TValue value);
}
