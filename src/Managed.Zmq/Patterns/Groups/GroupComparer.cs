using System.Diagnostics.CodeAnalysis;

namespace Managed.Zmq.Patterns.Groups;

/// <summary>
/// Compares groups byte for byte (RFC 48: exact matching, no prefixes), and lets a table keyed by group arrays be
/// looked up with a span, so matching a received or sent message's group allocates nothing.
/// </summary>
internal sealed class GroupComparer : IEqualityComparer<byte[]>, IAlternateEqualityComparer<ReadOnlySpan<byte>, byte[]>
{
    public static readonly GroupComparer Instance = new();

    private GroupComparer()
    {
    }

    public bool Equals(byte[]? x, byte[]? y) => x.AsSpan().SequenceEqual(y);

    public int GetHashCode([DisallowNull] byte[] obj) => GetHashCode((ReadOnlySpan<byte>)obj);

    public bool Equals(ReadOnlySpan<byte> alternate, byte[] other) => alternate.SequenceEqual(other);

    public int GetHashCode(ReadOnlySpan<byte> alternate)
    {
        var hash = new HashCode();
        hash.AddBytes(alternate);
        return hash.ToHashCode();
    }

    public byte[] Create(ReadOnlySpan<byte> alternate) => alternate.ToArray();
}
