using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using Managed.Zmq.Buffers;
using Managed.Zmq.Options;
using Managed.Zmq.Security.Zap;

namespace Managed.Zmq.Patterns.Subscriptions;

/// <summary>
/// A compressed (radix) trie of byte-string keys, each holding a <typeparamref name="TValue"/>: the
/// store behind prefix subscriptions (RFC 29: a subscription matches every message whose first frame
/// starts with it). An edge carries a run of bytes, so a million keys cost at most two million nodes
/// whatever their length, and a node's children are kept sorted by their first byte and found by
/// binary search. Adding, finding and removing a key cost its length, and matching a message costs
/// its length plus the matches: none of them depends on how many keys are stored. Every walk is a
/// loop with an explicit stack, since a peer can make the trie as deep as its longest topic.
/// Single-threaded, like the pattern that owns it.
/// </summary>
internal sealed class RadixTrie<TValue>
{
    private readonly Node _root = new([]);

    /// <summary>Nodes on the way down to the key being removed (reused, so removal does not allocate).</summary>
    private readonly List<Node> _path = [];

    /// <summary>The explicit stack of <see cref="Walk{TVisitor}"/>.</summary>
    private WalkFrame[] _frames = new WalkFrame[TrieLimits.InitialWalkDepth];

    /// <summary>The key of the node being visited by <see cref="Walk{TVisitor}"/>.</summary>
    private byte[] _walkKey = new byte[TrieLimits.InitialWalkKeyLength];

    /// <summary>Keys holding a value.</summary>
    public int Count { get; private set; }

    /// <summary>Nodes other than the root: zero again once every key has been removed.</summary>
    public int NodeCount { get; private set; }

    /// <summary>
    /// The value of <paramref name="key"/>, created (as <c>default</c>) when absent; <paramref name="added"/>
    /// says which. A caller that leaves a new value empty must <see cref="Remove"/> the key again.
    /// </summary>
    public ref TValue GetOrAdd(ReadOnlySpan<byte> key, out bool added)
    {
        var node = _root;
        int offset = 0;
        while (offset < key.Length)
        {
            var rest = key[offset..];
            int index = FindChild(node, rest[0]);
            if (index < 0)
            {
                var leaf = new Node(rest);
                InsertChild(node, ~index, leaf);
                NodeCount++;
                node = leaf;
                break;
            }

            var child = node.Children![index];
            int common = rest.CommonPrefixLength(child.Label);
            if (common < child.Label.Length)
            {
                // The key leaves this edge part-way: split it at that point.
                var middle = new Node(child.Label[..common]);
                child.SetLabel(child.Label[common..]);
                middle.Children = new Node[TrieLimits.InitialChildren];
                middle.Keys = new byte[TrieLimits.InitialChildren];
                middle.Children[0] = child;
                middle.Keys[0] = child.Label[0];
                middle.ChildCount = 1;
                node.Children[index] = middle;
                NodeCount++;
                child = middle;
            }

            node = child;
            offset += common;
        }

        added = !node.HasValue;
        if (added)
        {
            node.HasValue = true;
            Count++;
        }

        return ref node.Value;
    }

    /// <summary>The value of <paramref name="key"/>, or a null reference (<see cref="Unsafe.IsNullRef{T}(ref readonly T)"/>) when absent.</summary>
    public ref TValue Find(ReadOnlySpan<byte> key)
    {
        var node = FindNode(key, path: null);
        if (node is null || !node.HasValue)
        {
            return ref Unsafe.NullRef<TValue>();
        }

        return ref node.Value;
    }

    /// <summary>Removes <paramref name="key"/> and its value, and prunes the nodes nobody needs any more; false when absent.</summary>
    public bool Remove(ReadOnlySpan<byte> key)
    {
        _path.Clear();
        var node = FindNode(key, _path);
        if (node is null || !node.HasValue)
        {
            return false;
        }

        node.HasValue = false;
        node.Value = default!;
        Count--;

        // _path holds the root .. node's parent.
        for (int level = _path.Count - 1; level >= 0 && node != _root; level--)
        {
            var parent = _path[level];
            if (node.HasValue || node.ChildCount > 1)
            {
                break;
            }

            if (node.ChildCount == 1)
            {
                ReplaceChild(parent, node, Merge(node));
                break;
            }

            RemoveChild(parent, node);
            NodeCount--;
            node = parent;
        }

        _path.Clear();
        return true;
    }

    /// <summary>
    /// Visits the value of every stored key that is a prefix of <paramref name="message"/>, shortest
    /// first (the empty key, when stored, matches every message), while the visitor asks for more.
    /// Allocates nothing.
    /// </summary>
    public void Match<TVisitor>(ReadOnlySpan<byte> message, ref TVisitor visitor)
        where TVisitor : struct, ITrieMatchVisitor<TValue>
    {
        var node = _root;
        if (node.HasValue && !visitor.Visit(ref node.Value))
        {
            return;
        }

        int offset = 0;
        while (offset < message.Length)
        {
            int index = FindChild(node, message[offset]);
            if (index < 0)
            {
                return;
            }

            node = node.Children![index];
            if (!message[offset..].StartsWith(node.Label))
            {
                return;
            }

            offset += node.Label.Length;
            if (node.HasValue && !visitor.Visit(ref node.Value))
            {
                return;
            }
        }
    }

    /// <summary>True when some stored key is a prefix of <paramref name="message"/>.</summary>
    public bool MatchesAny(ReadOnlySpan<byte> message)
    {
        var any = default(AnyMatch);
        Match(message, ref any);
        return any.Found;
    }

    /// <summary>
    /// Visits every stored key with its value, depth first, until the visitor says it is done. A value
    /// the visitor reports empty is removed, and the nodes left without a purpose are pruned on the way
    /// back up, so one walk can drop many keys (a subscriber that leaves). Allocates only to grow its
    /// reusable stack.
    /// </summary>
    public void Walk<TVisitor>(ref TVisitor visitor)
        where TVisitor : struct, ITrieWalkVisitor<TValue>
    {
        if (_root.HasValue)
        {
            VisitNode(_root, 0, ref visitor);
        }

        int depth = 0;
        _frames[0] = new WalkFrame(_root, 0);
        while (depth >= 0)
        {
            ref var frame = ref _frames[depth];
            var node = frame.Node;
            if (frame.NextChild < node.ChildCount && !visitor.Done)
            {
                var child = node.Children![frame.NextChild++];
                int keyLength = frame.KeyLength + child.Label.Length;
                if (keyLength > _walkKey.Length)
                {
                    Array.Resize(ref _walkKey, Math.Max(keyLength, _walkKey.Length * 2));
                }

                child.Label.CopyTo(_walkKey.AsSpan(frame.KeyLength));
                if (child.HasValue)
                {
                    VisitNode(child, keyLength, ref visitor);
                }

                if (++depth == _frames.Length)
                {
                    Array.Resize(ref _frames, _frames.Length * 2);
                }

                _frames[depth] = new WalkFrame(child, keyLength);
                continue;
            }

            // Every child of this node has been visited (and compacted itself): compact its list.
            Compact(node);
            _frames[depth--] = default;
        }

        // A peer's one huge topic or deep chain must not keep its walk buffers alive for good.
        if (_walkKey.Length > TrieLimits.RetainedWalkKeyLength)
        {
            _walkKey = new byte[TrieLimits.InitialWalkKeyLength];
        }

        if (_frames.Length > TrieLimits.RetainedWalkDepth)
        {
            _frames = new WalkFrame[TrieLimits.InitialWalkDepth];
        }
    }

    private void VisitNode<TVisitor>(Node node, int keyLength, ref TVisitor visitor)
        where TVisitor : struct, ITrieWalkVisitor<TValue>
    {
        if (!visitor.Visit(_walkKey.AsSpan(0, keyLength), ref node.Value))
        {
            node.HasValue = false;
            node.Value = default!;
            Count--;
        }
    }

    /// <summary>Drops children with neither value nor children, and folds valueless single-child ones into their child.</summary>
    private void Compact(Node node)
    {
        int kept = 0;
        for (int i = 0; i < node.ChildCount; i++)
        {
            var child = node.Children![i];
            if (!child.HasValue && child.ChildCount == 0)
            {
                NodeCount--;
                continue;
            }

            node.Keys![kept] = child.Label[0];
            node.Children[kept++] = !child.HasValue && child.ChildCount == 1 ? Merge(child) : child;
        }

        if (kept < node.ChildCount)
        {
            Array.Clear(node.Children!, kept, node.ChildCount - kept);
            node.ChildCount = kept;
            ShrinkChildren(node);
        }
    }

    /// <summary>Replaces a valueless node that has one child by that child, its label extended; returns the child.</summary>
    private Node Merge(Node node)
    {
        var child = node.Children![0];
        child.Prepend(node.Label);
        node.Children = null;
        node.Keys = null;
        node.ChildCount = 0;
        NodeCount--;
        return child;
    }

    private Node? FindNode(ReadOnlySpan<byte> key, List<Node>? path)
    {
        var node = _root;
        int offset = 0;
        while (offset < key.Length)
        {
            int index = FindChild(node, key[offset]);
            if (index < 0)
            {
                return null;
            }

            var child = node.Children![index];
            if (!key[offset..].StartsWith(child.Label))
            {
                return null;
            }

            path?.Add(node);
            node = child;
            offset += child.Label.Length;
        }

        return node;
    }

    /// <summary>Binary search of the children by first byte: the index, or the complement of where it would go.</summary>
    private static int FindChild(Node node, byte first)
    {
        var keys = node.Keys;
        int low = 0;
        int high = node.ChildCount - 1;
        while (low <= high)
        {
            int middle = (low + high) >>> 1;
            byte candidate = keys![middle];
            if (candidate == first)
            {
                return middle;
            }

            if (candidate < first)
            {
                low = middle + 1;
            }
            else
            {
                high = middle - 1;
            }
        }

        return ~low;
    }

    private static void InsertChild(Node node, int index, Node child)
    {
        if (node.Children is null)
        {
            node.Children = new Node[TrieLimits.InitialChildren];
            node.Keys = new byte[TrieLimits.InitialChildren];
        }
        else if (node.ChildCount == node.Children.Length)
        {
            int capacity = Math.Min(node.Children.Length * 2, TrieLimits.MaxChildren);
            Array.Resize(ref node.Children, capacity);
            Array.Resize(ref node.Keys, capacity);
        }

        Array.Copy(node.Children, index, node.Children, index + 1, node.ChildCount - index);
        Array.Copy(node.Keys!, index, node.Keys!, index + 1, node.ChildCount - index);
        node.Children[index] = child;
        node.Keys![index] = child.Label[0];
        node.ChildCount++;
    }

    private static void ReplaceChild(Node parent, Node old, Node replacement)
    {
        int index = FindChild(parent, old.Label[0]);
        parent.Children![index] = replacement;
    }

    private static void RemoveChild(Node parent, Node child)
    {
        int index = FindChild(parent, child.Label[0]);
        int count = --parent.ChildCount;
        Array.Copy(parent.Children!, index + 1, parent.Children!, index, count - index);
        Array.Copy(parent.Keys!, index + 1, parent.Keys!, index, count - index);
        parent.Children![count] = null!;
        ShrinkChildren(parent);
    }

    /// <summary>Gives back a children array that churn left mostly empty, so memory follows the live keys.</summary>
    private static void ShrinkChildren(Node node)
    {
        if (node.ChildCount == 0)
        {
            node.Children = null;
            node.Keys = null;
        }
        else if (node.Children!.Length > TrieLimits.InitialChildren && node.ChildCount <= node.Children.Length / 4)
        {
            int capacity = Math.Max(TrieLimits.InitialChildren, node.Children.Length / 2);
            Array.Resize(ref node.Children, capacity);
            Array.Resize(ref node.Keys, capacity);
        }
    }

    private sealed class Node
    {
        /// <summary>The label when it is too long for <see cref="_inline"/>; null otherwise.</summary>
        private byte[]? _long;

        private int _length;

        /// <summary>A short label lives in the node itself: one object per node, not two.</summary>
        private InlineLabel _inline;

        public Node(ReadOnlySpan<byte> label) => SetLabel(label);

        /// <summary>The bytes on the edge from the parent (empty only for the root).</summary>
        public ReadOnlySpan<byte> Label => _long ?? MemoryMarshal.CreateReadOnlySpan(ref _inline[0], _length);

        /// <summary>Replaces the label; <paramref name="label"/> may be a part of the current one.</summary>
        public void SetLabel(ReadOnlySpan<byte> label)
        {
            if (label.Length <= TrieLimits.InlineLabelBytes)
            {
                // Copy before dropping _long: label may point into it.
                label.CopyTo(_inline);
                _long = null;
            }
            else
            {
                _long = label.ToArray();
            }

            _length = label.Length;
        }

        /// <summary>Puts <paramref name="prefix"/> in front of the label (a parent folded into this node).</summary>
        public void Prepend(ReadOnlySpan<byte> prefix)
        {
            int length = prefix.Length + _length;
            if (length <= TrieLimits.InlineLabelBytes)
            {
                Span<byte> inline = _inline;
                inline[.._length].CopyTo(inline[prefix.Length..]);
                prefix.CopyTo(inline);
                _length = length;
                return;
            }

            var label = new byte[length];
            prefix.CopyTo(label);
            Label.CopyTo(label.AsSpan(prefix.Length));
            _long = label;
            _length = length;
        }

        /// <summary>The first <see cref="ChildCount"/> entries are the children, sorted by the first byte of their label.</summary>
        public Node[]? Children;

        /// <summary>The first byte of each child's label, in step with <see cref="Children"/>: a child is found without touching the others.</summary>
        public byte[]? Keys;

        public int ChildCount;

        public bool HasValue;

        public TValue Value = default!;
    }

    private struct WalkFrame(Node node, int keyLength)
    {
        public readonly Node Node = node;

        /// <summary>The length of <see cref="Node"/>'s key, which is at the start of the walk's key buffer.</summary>
        public readonly int KeyLength = keyLength;

        public int NextChild;
    }

    [InlineArray(TrieLimits.InlineLabelBytes)]
    private struct InlineLabel
    {
        private byte _first;
    }

    private struct AnyMatch : ITrieMatchVisitor<TValue>
    {
        public bool Found;

        public bool Visit(ref TValue value)
        {
            Found = true;
            return false;
        }
    }
}
