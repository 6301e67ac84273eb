namespace Managed.Zmq.Patterns.Subscriptions;

/// <summary>Receives the values whose keys are prefixes of a message (<see cref="RadixTrie{TValue}.Match"/>).</summary>
internal interface ITrieMatchVisitor<TValue>
{
    /// <summary>One matching value; return false to stop matching.</summary>
    bool Visit(ref TValue value);
}
