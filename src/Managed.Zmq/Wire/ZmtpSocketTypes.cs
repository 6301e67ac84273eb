namespace Managed.Zmq.Wire;

/// <summary>Socket-type names and the compatibility rules checked during the handshake.</summary>
internal static class ZmtpSocketTypes
{
    /// <summary>The Socket-Type metadata value for <paramref name="type"/>; empty for STREAM, which never speaks ZMTP.</summary>
    /// <remarks>RFC 23 §The Socket-Type Property: the values are upper case.</remarks>
    public static ReadOnlySpan<byte> GetName(SocketType type) => type switch
    {
        SocketType.Pair => "PAIR"u8,
        SocketType.Pub => "PUB"u8,
        SocketType.Sub => "SUB"u8,
        SocketType.Req => "REQ"u8,
        SocketType.Rep => "REP"u8,
        SocketType.Dealer => "DEALER"u8,
        SocketType.Router => "ROUTER"u8,
        SocketType.Pull => "PULL"u8,
        SocketType.Push => "PUSH"u8,
        SocketType.XPub => "XPUB"u8,
        SocketType.XSub => "XSUB"u8,
        SocketType.Server => "SERVER"u8,
        SocketType.Client => "CLIENT"u8,
        SocketType.Radio => "RADIO"u8,
        SocketType.Dish => "DISH"u8,
        SocketType.Gather => "GATHER"u8,
        SocketType.Scatter => "SCATTER"u8,
        SocketType.Channel => "CHANNEL"u8,
        SocketType.Peer => "PEER"u8,
        _ => default,
    };

    /// <summary>Maps a received Socket-Type value to a socket type.</summary>
    /// <remarks>
    /// The match is exact and case-sensitive, as libzmq's is (docs/libzmq-behaviour.md L6): a value such as "dealer" is
    /// not a socket type, and neither is "STREAM" nor a draft type this library does not implement. CHANNEL (20) is
    /// libzmq's highest socket type number; the numbers with no name here are skipped.
    /// </remarks>
    public static bool TryParseName(ReadOnlySpan<byte> name, out SocketType type)
    {
        for (var candidate = SocketType.Pair; candidate <= SocketType.Channel; candidate++)
        {
            var known = GetName(candidate);
            if (!known.IsEmpty && name.SequenceEqual(known))
            {
                type = candidate;
                return true;
            }
        }

        type = default;
        return false;
    }

    /// <summary>True when a <paramref name="local"/> socket may talk to a peer announcing <paramref name="peer"/>.</summary>
    /// <remarks>RFC 23 §The Socket-Type Property lists the legal pairs, RFC 41 adds CLIENT–SERVER, RFC 48 RADIO–DISH,
    /// RFC 49 SCATTER–GATHER, RFC 51 PEER–PEER and RFC 52 CHANNEL–CHANNEL (libzmq accepts no other peer for any of them);
    /// the relation is symmetric.</remarks>
    public static bool AreCompatible(SocketType local, SocketType peer) => local switch
    {
        SocketType.Req => peer is SocketType.Rep or SocketType.Router,
        SocketType.Rep => peer is SocketType.Req or SocketType.Dealer,
        SocketType.Dealer => peer is SocketType.Rep or SocketType.Dealer or SocketType.Router,
        SocketType.Router => peer is SocketType.Req or SocketType.Dealer or SocketType.Router,
        SocketType.Pub or SocketType.XPub => peer is SocketType.Sub or SocketType.XSub,
        SocketType.Sub or SocketType.XSub => peer is SocketType.Pub or SocketType.XPub,
        SocketType.Push => peer is SocketType.Pull,
        SocketType.Pull => peer is SocketType.Push,
        SocketType.Pair => peer is SocketType.Pair,
        SocketType.Server => peer is SocketType.Client,
        SocketType.Client => peer is SocketType.Server,
        SocketType.Radio => peer is SocketType.Dish,
        SocketType.Dish => peer is SocketType.Radio,
        SocketType.Gather => peer is SocketType.Scatter,
        SocketType.Scatter => peer is SocketType.Gather,
        SocketType.Channel => peer is SocketType.Channel,
        SocketType.Peer => peer is SocketType.Peer, // RFC 51: PEER talks to PEER only, as libzmq's check_socket_type
        _ => false,
    };

    /// <summary>True for the socket types that send an Identity property in READY.</summary>
    /// <remarks>RFC 23 §The Identity Property allows it only for REQ, DEALER and ROUTER; libzmq sends it for exactly those (docs/libzmq-behaviour.md L6).</remarks>
    public static bool SendsIdentity(SocketType type) => type is SocketType.Req or SocketType.Dealer or SocketType.Router;
}
