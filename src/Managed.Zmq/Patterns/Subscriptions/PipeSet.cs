
using Managed.Zmq.Buffers;
using Managed.Zmq.Options;
using Managed.Zmq.Pipes;
using Managed.Zmq.Security.Zap;

namespace Managed.Zmq.Patterns.Subscriptions;

/// <summary>
/// The connections subscribed to one topic at a publisher. A set, not a count: libzmq's publisher
/// treats a repeated SUBSCRIBE on one connection as one (docs/libzmq-behaviour.md L12). Nearly every topic has a single
/// subscriber, so that case is one reference and costs no collection.
/// </summary>
internal struct PipeSet
{
    /// <summary>Null, a <see cref="Pipe"/>, or a <see cref="HashSet{T}"/> of two or more.</summary>
    private object? _items;

    public readonly int Count => _items switch
    {
        null => 0,
        Pipe => 1,
        _ => ((HashSet<Pipe>)_items).Count,
    };

    /// <summary>True when <paramref name="pipe"/> was not in the set.</summary>
    public bool Add(Pipe pipe)
    {
        switch (_items)
        {
            case null:
                _items = pipe;
                return true;
            case Pipe single:
                if (single == pipe)
                {
                    return false;
                }

                _items = new HashSet<Pipe>(ReferenceEqualityComparer.Instance) { single, pipe };
                return true;
            default:
                return ((HashSet<Pipe>)_items).Add(pipe);
        }
    }

    /// <summary>True when <paramref name="pipe"/> was in the set.</summary>
    public bool Remove(Pipe pipe)
    {
        switch (_items)
        {
            case null:
                return false;
            case Pipe single:
                if (single != pipe)
                {
                    return false;
                }

                _items = null;
                return true;
            default:
                var set = (HashSet<Pipe>)_items;
                if (!set.Remove(pipe))
                {
                    return false;
                }

                if (set.Count == 1)
                {
                    using var remaining = set.GetEnumerator();
                    remaining.MoveNext();
                    _items = remaining.Current;
                }

                return true;
        }
    }

    /// <summary>True when the set has no member (a trie node holds only sets with members).</summary>
    public readonly bool IsEmpty => _items is null;

    /// <summary>The single member, or null when there are none or several (then use <see cref="Many"/>).</summary>
    public readonly Pipe? Single => _items as Pipe;

    /// <summary>The members when there are two or more, else null.</summary>
    public readonly HashSet<Pipe>? Many => _items as HashSet<Pipe>;
}
