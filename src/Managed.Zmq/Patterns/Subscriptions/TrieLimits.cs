using Managed.Zmq.Internal;

namespace Managed.Zmq.Patterns.Subscriptions;

/// <summary>Sizes of <see cref="RadixTrie{TValue}"/>'s arrays: small to start, since most nodes have one or two children.</summary>
internal static class TrieLimits
{
    /// <summary>A node's first children array; it doubles as children are added.</summary>
    public const int InitialChildren = Tuning.Pipes.TrieInitialChildren;

    /// <summary>Children are told apart by their first byte, so a node never has more.</summary>
    public const int MaxChildren = 256;

    /// <summary>The first stack of a walk (nodes deep); it doubles when a deeper trie needs it.</summary>
    public const int InitialWalkDepth = Tuning.Pipes.TrieInitialWalkDepth;

    /// <summary>The first key buffer of a walk (bytes); it doubles when a longer key needs it.</summary>
    public const int InitialWalkKeyLength = Tuning.Pipes.TrieInitialWalkKeyLength;

    /// <summary>A walk stack deeper than this is dropped after the walk rather than kept.</summary>
    public const int RetainedWalkDepth = Tuning.Pipes.TrieRetainedWalkDepth;

    /// <summary>A walk key buffer longer than this is dropped after the walk rather than kept.</summary>
    public const int RetainedWalkKeyLength = Tuning.Pipes.TrieRetainedWalkKeyLength;

    /// <summary>
    /// Labels up to this long are stored in the node itself rather than in an array of their own,
    /// which saves an object (header and length) per node; most labels are a few bytes.
    /// </summary>
    public const int InlineLabelBytes = Tuning.Pipes.TrieInlineLabelBytes;
}
