using Managed.Zmq.Buffers;
using Managed.Zmq.Options;
using Managed.Zmq.Security.Zap;

namespace Managed.Zmq.Wire;

/// <summary>The properties of a READY (or INITIATE) metadata block that the handshake acts on.</summary>
internal readonly ref struct ZmtpReadyProperties
{
    /// <summary>Creates the result of a parse.</summary>
    public ZmtpReadyProperties(bool hasSocketType, ReadOnlySpan<byte> socketType, bool hasIdentity, ReadOnlySpan<byte> identity)
    {
        HasSocketType = hasSocketType;
        SocketType = socketType;
        HasIdentity = hasIdentity;
        Identity = identity;
    }

    /// <summary>True when a Socket-Type property was present.</summary>
    /// <remarks>libzmq accepts a peer without one (docs/libzmq-behaviour.md L6), so its absence is the caller's decision.</remarks>
    public bool HasSocketType { get; }

    /// <summary>The raw Socket-Type value; see <see cref="ZmtpSocketTypes.TryParseName"/>.</summary>
    public ReadOnlySpan<byte> SocketType { get; }

    /// <summary>True when an Identity property was present, even an empty one.</summary>
    public bool HasIdentity { get; }

    /// <summary>The Identity value, 0 or more octets.</summary>
    public ReadOnlySpan<byte> Identity { get; }
}
