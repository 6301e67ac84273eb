namespace Managed.Zmq.Wire;

/// <summary>What the first octets of a peer's greeting say about its protocol version.</summary>
internal enum ZmtpGreetingKind
{
    /// <summary>Too few octets to tell yet.</summary>
    NeedMoreData,

    /// <summary>ZMTP 3.x or later: read the rest of the 64-octet greeting.</summary>
    Zmtp3,

    /// <summary>ZMTP 1.0, which has no greeting signature (RFC 23 §Detecting ZMTP 1.0 and 2.0 Peers).</summary>
    Unversioned,

    /// <summary>A versioned peer older than ZMTP 3.0: revision 0 or 1 (RFC 15).</summary>
    Zmtp2OrOlder,
}
