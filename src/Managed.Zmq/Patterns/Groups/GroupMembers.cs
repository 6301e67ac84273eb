using System.Runtime.InteropServices;
using Managed.Zmq.Pipes;

namespace Managed.Zmq.Patterns.Groups;

/// <summary>
/// A RADIO's table of which connections joined which group (RFC 48). As libzmq's RADIO keeps a multimap, a JOIN is
/// one entry and a LEAVE removes one entry of that connection: a peer that joined twice (our DISH never does, a
/// libzmq one neither) must leave twice. Lookups by span allocate nothing.
/// </summary>
internal sealed class GroupMembers
{
    private readonly Dictionary<byte[], List<Pipe>> _byGroup = new(GroupComparer.Instance);
    private readonly Dictionary<byte[], List<Pipe>>.AlternateLookup<ReadOnlySpan<byte>> _lookup;

    public GroupMembers()
    {
        _lookup = _byGroup.GetAlternateLookup<ReadOnlySpan<byte>>();
    }

    /// <summary>Groups with at least one member (tests).</summary>
    public int GroupCount => _byGroup.Count;

    public void Join(ReadOnlySpan<byte> group, Pipe pipe)
    {
        ref var members = ref CollectionsMarshal.GetValueRefOrAddDefault(_lookup, group, out _);
        members ??= [];
        members.Add(pipe);
    }

    public void Leave(ReadOnlySpan<byte> group, Pipe pipe)
    {
        if (_lookup.TryGetValue(group, out var members) && members.Remove(pipe) && members.Count == 0)
        {
            _lookup.Remove(group);
        }
    }

    /// <summary>Forgets every membership of a connection that left.</summary>
    public void RemovePipe(Pipe pipe)
    {
        List<byte[]>? emptied = null;
        foreach (var (group, members) in _byGroup)
        {
            if (members.RemoveAll(member => member == pipe) > 0 && members.Count == 0)
            {
                (emptied ??= []).Add(group);
            }
        }

        if (emptied is not null)
        {
            foreach (var group in emptied)
            {
                _byGroup.Remove(group);
            }
        }
    }

    /// <summary>The connections that joined <paramref name="group"/> (an entry per JOIN); empty when none.</summary>
    public ReadOnlySpan<Pipe> Members(ReadOnlySpan<byte> group) =>
        _lookup.TryGetValue(group, out var members) ? CollectionsMarshal.AsSpan(members) : default;
}
