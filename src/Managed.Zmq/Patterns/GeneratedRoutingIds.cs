using System.Buffers.Binary;

namespace Managed.Zmq.Patterns;

/// <summary>
/// Names for peers that announced none: 5 octets, 0x00 then a 32-bit big-endian counter that
/// starts at a random value (docs/libzmq-behaviour.md L16), as libzmq's ROUTER and STREAM generate them.
/// </summary>
internal sealed class GeneratedRoutingIds
{
    private uint _next = (uint)Random.Shared.Next();

    public byte[] Next()
    {
        var id = new byte[5];
        BinaryPrimitives.WriteUInt32BigEndian(id.AsSpan(1), _next++);
        return id;
    }
}
