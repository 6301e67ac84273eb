using System.Buffers.Binary;
using Managed.Zmq.Buffers;
using Managed.Zmq.Options;
using Managed.Zmq.Security.Zap;

namespace Managed.Zmq.Wire;

/// <summary>Walks the properties of a metadata block (READY, INITIATE) one at a time, without allocating.</summary>
/// <remarks>
/// Mutable ref struct: keep it in a local and call <see cref="TryReadNext"/> until it returns
/// false, then look at <see cref="IsMalformed"/> to tell a clean end from a bad block.
/// </remarks>
internal ref struct ZmtpMetadataReader
{
    /// <summary>The octets not yet read.</summary>
    private ReadOnlySpan<byte> _remaining;

    /// <summary>Set once a property failed to decode; stays set.</summary>
    private bool _isMalformed;

    /// <summary>Creates a reader over a whole metadata block.</summary>
    public ZmtpMetadataReader(ReadOnlySpan<byte> properties)
    {
        _remaining = properties;
        _isMalformed = false;
    }

    /// <summary>True when reading stopped at a property that does not fit the grammar.</summary>
    public readonly bool IsMalformed => _isMalformed;

    /// <summary>Reads the next property.</summary>
    /// <returns>False at the end of the block, and also when it is malformed (see <see cref="IsMalformed"/>).</returns>
    /// <remarks>
    /// A zero-length name is accepted although RFC 23 forbids it, because libzmq accepts it (docs/libzmq-behaviour.md L6)
    /// and nothing here depends on names being non-empty. Anything else that does not fit —
    /// octets left over that cannot hold a name and a value length, a value running past the
    /// end, or a value length of 2^31 or more — makes the whole block malformed.
    /// </remarks>
    public bool TryReadNext(out ReadOnlySpan<byte> name, out ReadOnlySpan<byte> value)
    {
        name = default;
        value = default;
        if (_isMalformed || _remaining.IsEmpty)
        {
            return false;
        }

        int nameLength = _remaining[0];
        int valueOffset = 1 + nameLength + sizeof(uint);
        if (_remaining.Length < valueOffset)
        {
            return Fail();
        }

        // RFC 23 §The NULL Security Mechanism: a value is 0 to 2^31-1 octets.
        uint valueLength = BinaryPrimitives.ReadUInt32BigEndian(_remaining.Slice(1 + nameLength, sizeof(uint)));
        if (valueLength > ZmtpMetadata.MaxValueLength || valueLength > (uint)(_remaining.Length - valueOffset))
        {
            return Fail();
        }

        name = _remaining.Slice(1, nameLength);
        value = _remaining.Slice(valueOffset, (int)valueLength);
        _remaining = _remaining.Slice(valueOffset + (int)valueLength);
        return true;
    }

    private bool Fail()
    {
        _isMalformed = true;
        _remaining = default;
        return false;
    }
}
