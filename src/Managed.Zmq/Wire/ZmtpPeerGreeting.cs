using Managed.Zmq.Buffers;
using Managed.Zmq.Options;
using Managed.Zmq.Security.Zap;

namespace Managed.Zmq.Wire;

/// <summary>The meaningful fields of a peer's 64-octet ZMTP 3.x greeting.</summary>
internal readonly struct ZmtpPeerGreeting
{
    /// <summary>Creates a parsed greeting.</summary>
    public ZmtpPeerGreeting(byte major, byte minor, ZmtpMechanism mechanism, bool asServer)
    {
        Major = major;
        Minor = minor;
        Mechanism = mechanism;
        AsServer = asServer;
    }

    /// <summary>Octet 10, the major version (revision).</summary>
    public byte Major { get; }

    /// <summary>Octet 11, the minor version.</summary>
    public byte Minor { get; }

    /// <summary>The mechanism named in octets 12–31, or <see cref="ZmtpMechanism.Unknown"/>.</summary>
    public ZmtpMechanism Mechanism { get; }

    /// <summary>Octet 32, as received.</summary>
    /// <remarks>Informational only: libzmq always sends 0 and takes roles from local options (docs/libzmq-behaviour.md L5), so never reject on it.</remarks>
    public bool AsServer { get; }

    /// <summary>True when the peer speaks exactly ZMTP 3.0.</summary>
    /// <remarks>
    /// A 3.0 peer needs subscriptions as 0x01/0x00 messages rather than SUBSCRIBE/CANCEL commands.
    /// Every other accepted version (3.1, 3.2, 4.0 and the odd revision 2) is spoken to as 3.1,
    /// because RFC 37 §Version Negotiation says to use our own protocol with an equal or higher
    /// peer, and libzmq draws the line in the same place (docs/libzmq-behaviour.md L2).
    /// </remarks>
    public bool IsZmtp30 => Major == 3 && Minor == 0;
}
