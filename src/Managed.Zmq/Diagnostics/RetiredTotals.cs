using System.Runtime.InteropServices;

namespace Managed.Zmq.Diagnostics;

/// <summary>
/// What pipes or sockets that have gone counted, by key (an endpoint, or a socket type and an endpoint), so that
/// a counter does not go back when its pipes do. Bounded: a process that uses ever-new endpoints (wildcard binds,
/// peers found by discovery) would otherwise keep one entry per endpoint for its whole life. Past
/// its capacity in keys, the key retired longest ago is folded into its overflow key: the sum over all keys
/// never goes back, while the folded key's own total is gone (docs/observability.md, "How many series").
/// </summary>
/// <remarks>Not thread-safe: the owner holds its lock around every call. Not on any message path.</remarks>
internal sealed class RetiredTotals<TKey>
    where TKey : notnull
{
    private readonly Dictionary<TKey, LinkedListNode<(TKey Key, PipeTotals Totals)>> _entries;

    /// <summary>Least recently retired first.</summary>
    private readonly LinkedList<(TKey Key, PipeTotals Totals)> _order = new();

    /// <summary>Folded keys' totals, by overflow key; as many keys as <see cref="_overflowKeyOf"/> can return.</summary>
    private readonly Dictionary<TKey, PipeTotals> _overflow;

    private readonly Func<TKey, TKey> _overflowKeyOf;

    private readonly IEqualityComparer<TKey> _comparer;

    /// <summary>The most keys kept apart; older ones are folded into their overflow keys.</summary>
    private readonly int _capacity;

    /// <param name="capacity">The most keys kept apart.</param>
    /// <param name="overflowKeyOf">The key a folded key's counts join: one of a small fixed set. An overflow key
    /// given to <see cref="Add"/> (counts another owner already folded) joins the overflow at once.</param>
    /// <param name="comparer">Compares keys.</param>
    public RetiredTotals(int capacity, Func<TKey, TKey> overflowKeyOf, IEqualityComparer<TKey>? comparer = null)
    {
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(capacity);
        _capacity = capacity;
        _overflowKeyOf = overflowKeyOf;
        _comparer = comparer ?? EqualityComparer<TKey>.Default;
        _entries = new(_comparer);
        _overflow = new(_comparer);
    }

    /// <summary>Keys kept apart now (not counting the overflow keys).</summary>
    public int Count => _entries.Count;

    /// <summary>Adds <paramref name="counts"/> to <paramref name="key"/>'s total, which becomes the most recent.</summary>
    public void Add(TKey key, in PipeTotals counts)
    {
        if (_comparer.Equals(_overflowKeyOf(key), key))
        {
            // Counts already folded (a socket's own overflow, retired into the process's totals) stay folded.
            AddInto(_overflow, key, counts);
            return;
        }

        if (_entries.TryGetValue(key, out var node))
        {
            _order.Remove(node);
        }
        else
        {
            node = new LinkedListNode<(TKey Key, PipeTotals Totals)>((key, default));
            _entries.Add(key, node);
        }

        node.ValueRef.Totals.AddCounts(counts);
        _order.AddLast(node);
        while (_entries.Count > _capacity)
        {
            var oldest = _order.First!;
            _order.RemoveFirst();
            _entries.Remove(oldest.Value.Key);
            AddInto(_overflow, _overflowKeyOf(oldest.Value.Key), oldest.Value.Totals);
        }
    }

    /// <summary>Every key's total, the overflow keys' included. The collector, under its owner's lock.</summary>
    public void CopyTo(Dictionary<TKey, PipeTotals> into)
    {
        foreach (var (key, totals) in _order)
        {
            AddInto(into, key, totals);
        }

        foreach (var (key, totals) in _overflow)
        {
            AddInto(into, key, totals);
        }
    }

    private static void AddInto(Dictionary<TKey, PipeTotals> into, TKey key, in PipeTotals totals)
    {
        ref var sum = ref CollectionsMarshal.GetValueRefOrAddDefault(into, key, out _);
        sum.AddCounts(totals);
    }
}
