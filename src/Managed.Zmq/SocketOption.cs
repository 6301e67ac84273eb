namespace Managed.Zmq;

/// <summary>Socket options, numbered as libzmq 4.3 numbers them and spelled as Net.Zmq spells them.</summary>
/// <remarks>
/// Eight members are aliases that share a value with a canonical member (for example <see cref="RcvMore"/> and
/// <see cref="Rcvmore"/>), so <c>ToString()</c> may return either spelling.
/// </remarks>
public enum SocketOption
{
    /// <summary>(type long, default 0, access RW) any uint64 bitmask; I/O worker affinity for new connections (best effort).</summary>
    Affinity = 4,

    /// <summary>(type bytes, default empty, access RW) 1–255 bytes; sent to peers in the handshake of later connections; ROUTER peers use it as the routing id.</summary>
    Routing_Id = 5,

    /// <summary>(type bytes, access W [SUB; XPUB with Xpub_Manual]) prefix filter; empty = all; counted.</summary>
    Subscribe = 6,

    /// <summary>(type bytes, access W [SUB; XPUB with Xpub_Manual]) removes one matching subscription.</summary>
    Unsubscribe = 7,

    /// <summary>(type int, default 100, access RW) &gt; 0; stored (multicast).</summary>
    Rate = 8,

    /// <summary>(type int ms, default 10000, access RW) ≥ 0; stored (multicast).</summary>
    Recovery_Ivl = 9,

    /// <summary>(type int, default -1, access RW) ≥ -1; OS send buffer for TCP/IPC sockets; -1 = OS default.</summary>
    Sndbuf = 11,

    /// <summary>(type int, default -1, access RW) ≥ -1; OS receive buffer.</summary>
    Rcvbuf = 12,

    /// <summary>(type int, default 0, access R) 1 if the last frame received had MORE; backs HasMore.</summary>
    Rcvmore = 13,

    /// <summary>Alias of <see cref="Rcvmore"/>, the spelling the Net.Zmq guide uses.</summary>
    RcvMore = Rcvmore,

    /// <summary>(type int/long/nint, access R) non-zero, stable per socket [T]. In this version it is an opaque value, not a pollable OS handle. Readable with any T of at least 4 bytes.</summary>
    Fd = 14,

    /// <summary>(type int, access R) current readiness: bit 1 = POLLIN, bit 2 = POLLOUT (§5.3).</summary>
    Events = 15,

    /// <summary>(type int, default the type, access R) equals (int)SocketType.</summary>
    Type = 16,

    /// <summary>(type int ms, default -1, access RW) ≥ -1; -1 = keep pending messages forever after Dispose; 0 = discard at once (§8.7).</summary>
    Linger = 17,

    /// <summary>(type int ms, default 100, access RW) ≥ -1; -1 = never reconnect.</summary>
    Reconnect_Ivl = 18,

    /// <summary>(type int, default 100, access RW) ≥ 0; listen backlog of later binds.</summary>
    Backlog = 19,

    /// <summary>(type int ms, default 0, access RW) ≥ 0; with a value &gt; Reconnect_Ivl, the interval doubles per attempt up to this cap; 0 = no backoff.</summary>
    Reconnect_Ivl_Max = 21,

    /// <summary>(type long, default -1, access RW) any int64; -1 = unlimited. An inbound message larger than this makes the library drop that connection.</summary>
    Maxmsgsize = 22,

    /// <summary>(type int, default 1000, access RW) ≥ 0; 0 = unlimited; outbound queue limit per pipe, counted in messages; pipes created afterwards.</summary>
    Sndhwm = 23,

    /// <summary>Alias of <see cref="Sndhwm"/>, the spelling the Net.Zmq guide uses.</summary>
    SendHwm = Sndhwm,

    /// <summary>(type int, default 1000, access RW) ≥ 0; inbound limit per pipe.</summary>
    Rcvhwm = 24,

    /// <summary>(type int, default 1, access RW) &gt; 0; stored.</summary>
    Multicast_Hops = 25,

    /// <summary>(type int ms, default -1, access RW) ≥ -1; -1 = wait forever; 0 = EAGAIN at once; applies to blocking receives.</summary>
    Rcvtimeo = 27,

    /// <summary>Alias of <see cref="Rcvtimeo"/>, the spelling the Net.Zmq guide uses.</summary>
    RcvTimeout = Rcvtimeo,

    /// <summary>(type int ms, default -1, access RW) ≥ -1; same for blocking sends.</summary>
    Sndtimeo = 28,

    /// <summary>Alias of <see cref="Sndtimeo"/>, the spelling the Net.Zmq guide uses.</summary>
    SendTimeout = Sndtimeo,

    /// <summary>(type string, default "", access R) the last bound or connected endpoint in resolved form (§8.5).</summary>
    Last_Endpoint = 32,

    /// <summary>(type int, default 0, access W [ROUTER]) ≥ 0, non-zero = on: unroutable sends fail with EHOSTUNREACH instead of being dropped; a full peer gives EAGAIN.</summary>
    Router_Mandatory = 33,

    /// <summary>(type int, default -1, access RW) -1 (OS default), 0 (off), 1 (on).</summary>
    Tcp_Keepalive = 34,

    /// <summary>(type int, default -1, access RW) ≥ -1.</summary>
    Tcp_Keepalive_Cnt = 35,

    /// <summary>(type int s, default -1, access RW) ≥ -1.</summary>
    Tcp_Keepalive_Idle = 36,

    /// <summary>(type int s, default -1, access RW) ≥ -1.</summary>
    Tcp_Keepalive_Intvl = 37,

    /// <summary>(type int, default 0, access RW) 0/1; 1 = queue only to completed connections.</summary>
    Immediate = 39,

    /// <summary>(type int, default 0, access W [XPUB, PUB]) ≥ 0; pass duplicate subscribe messages upstream.</summary>
    Xpub_Verbose = 40,

    /// <summary>(type int, default 0, access W [ROUTER]) ≥ 0; raw-TCP mode like STREAM (deprecated).</summary>
    Router_Raw = 41,

    /// <summary>(type int, default 0 (the context's value), access RW) 0/1; 1 = IPv6 plus IPv4-mapped addresses.</summary>
    Ipv6 = 42,

    /// <summary>(type int, default 0, access R) 0 NULL, 1 PLAIN, 2 CURVE (3 GSSAPI never occurs).</summary>
    Mechanism = 43,

    /// <summary>(type int, default 0, access RW) 0/1; 1 = act as PLAIN server (Mechanism 1); reads 1 only while the socket is a PLAIN server.</summary>
    Plain_Server = 44,

    /// <summary>(type string, default "", access RW) 0–255 bytes; non-empty = PLAIN client, empty = back to NULL.</summary>
    Plain_Username = 45,

    /// <summary>(type string, default "", access RW) 0–255 bytes; as above.</summary>
    Plain_Password = 46,

    /// <summary>(type int, default 0, access RW) 0/1; 1 = CURVE server (needs Curve_Secretkey), 0 = back to NULL; reads 1 only while the socket is a CURVE server.</summary>
    Curve_Server = 47,

    /// <summary>Alias of <see cref="Curve_Server"/>, the spelling the Net.Zmq guide uses.</summary>
    CurveServer = Curve_Server,

    /// <summary>(type key, default 32 zero bytes, access RW) set: 32 raw bytes, a 40-character Z85 string, or 41 bytes (Z85 plus NUL); sets Mechanism CURVE. get: buffer of exactly 32 bytes (raw) or 41 bytes (Z85 plus NUL).</summary>
    Curve_Publickey = 48,

    /// <summary>Alias of <see cref="Curve_Publickey"/>, the spelling the Net.Zmq guide uses.</summary>
    CurvePublickey = Curve_Publickey,

    /// <summary>(type key, default zeros, access RW) as above.</summary>
    Curve_Secretkey = 49,

    /// <summary>Alias of <see cref="Curve_Secretkey"/>, the spelling the Net.Zmq guide uses.</summary>
    CurveSecretkey = Curve_Secretkey,

    /// <summary>(type key, default zeros, access RW) as above; setting it makes the socket a CURVE client.</summary>
    Curve_Serverkey = 50,

    /// <summary>Alias of <see cref="Curve_Serverkey"/>, the spelling the Net.Zmq guide uses.</summary>
    CurveServerkey = Curve_Serverkey,

    /// <summary>(type int, default 0, access W [ROUTER, DEALER, REQ]) ≥ 0; send an empty message to each new connection.</summary>
    Probe_Router = 51,

    /// <summary>(type int, default 0, access W [REQ]) ≥ 0; prefix requests with a request-id frame and match replies.</summary>
    Req_Correlate = 52,

    /// <summary>(type int, default 0, access W [REQ]) ≥ 0; allow a new request before the reply arrives.</summary>
    Req_Relaxed = 53,

    /// <summary>(type int, default 0, access RW) any int, non-zero = keep only the last message (single-part only; PULL, PUSH, SUB, PUB, DEALER).</summary>
    Conflate = 54,

    /// <summary>(type string, default "", access RW) 0–255 bytes; the domain sent in ZAP requests.</summary>
    Zap_Domain = 55,

    /// <summary>(type int, default 0, access W [ROUTER]) ≥ 0; a new connection with an already-used routing id takes over that id.</summary>
    Router_Handover = 56,

    /// <summary>(type int, default 0, access RW) ≥ 0; IP TOS/DSCP for TCP.</summary>
    Tos = 57,

    /// <summary>(type bytes, access W [ROUTER, STREAM]) 1–255 bytes; routing id to give the peer of the next Connect.</summary>
    Connect_Routing_Id = 61,

    /// <summary>(type int) GSSAPI is not available: EINVAL on get and set (LZ, as in a libzmq build without GSSAPI).</summary>
    Gssapi_Server = 62,

    /// <summary>(type string) EINVAL.</summary>
    Gssapi_Principal = 63,

    /// <summary>(type string) EINVAL.</summary>
    Gssapi_Service_Principal = 64,

    /// <summary>(type int) EINVAL.</summary>
    Gssapi_Plaintext = 65,

    /// <summary>(type int ms, default 30000, access RW) ≥ 0; 0 = no limit; a handshake not finished in time drops the connection.</summary>
    Handshake_Ivl = 66,

    /// <summary>(type string, default "", access RW) host:port of a SOCKS5 proxy for TCP connects; empty = none.</summary>
    Socks_Proxy = 68,

    /// <summary>(type int, default 0, access W [XPUB, PUB]) ≥ 0; at HWM, report EAGAIN instead of dropping.</summary>
    Xpub_Nodrop = 69,

    /// <summary>libzmq's 70 is a context option: EINVAL on sockets (use (ContextOption)70).</summary>
    Blocky = 70,

    /// <summary>(type int, default 0, access W [XPUB, PUB]) ≥ 0; the application manages subscriptions (by setting Subscribe/Unsubscribe on the XPUB).</summary>
    Xpub_Manual = 71,

    /// <summary>(type bytes, default none, access W [XPUB, PUB]) sent to each new subscriber; empty clears it.</summary>
    Xpub_Welcome_Msg = 72,

    /// <summary>(type int, default 1, access W [STREAM]) 0/1; emit zero-length frames on connect/disconnect.</summary>
    Stream_Notify = 73,

    /// <summary>(type int, default 0, access RW) any int, non-zero = on; PUB/XPUB send to non-matching SUBs, SUB receives non-matching messages.</summary>
    Invert_Matching = 74,

    /// <summary>(type int ms, default 0, access RW) ≥ 0; send a ZMTP PING at this interval; 0 = off.</summary>
    Heartbeat_Ivl = 75,

    /// <summary>(type int ms, default 0, access RW) 0–6553599; sent in PING; stored in 100 ms units, so reads round down to a multiple of 100.</summary>
    Heartbeat_Ttl = 76,

    /// <summary>(type int ms, default -1, access RW) set ≥ 0; -1 (default) = use Heartbeat_Ivl; a silent peer is dropped after this.</summary>
    Heartbeat_Timeout = 77,

    /// <summary>(type int, default 0, access W [XPUB, PUB]) ≥ 0; like Verbose, for unsubscribes too.</summary>
    Xpub_Verboser = 78,

    /// <summary>(type int ms, default 0, access RW) ≥ 0; 0 = OS default.</summary>
    Connect_Timeout = 79,

    /// <summary>(type int ms, default 0, access RW) ≥ 0; TCP retransmission timeout where the OS supports one.</summary>
    Tcp_Maxrt = 80,

    /// <summary>(type int, default 0, access R) always 0 for these socket types.</summary>
    Thread_Safe = 81,

    /// <summary>(type int, default 1500, access RW) &gt; 0; stored.</summary>
    Multicast_Maxtpdu = 84,

    /// <summary>(type long) VMCI is not available: EINVAL.</summary>
    Vmci_Buffer_Size = 85,

    /// <summary>(type long) EINVAL.</summary>
    Vmci_Buffer_Min_Size = 86,

    /// <summary>(type long) EINVAL.</summary>
    Vmci_Buffer_Max_Size = 87,

    /// <summary>(type int) EINVAL.</summary>
    Vmci_Connect_Timeout = 88,

    /// <summary>(type int, default -1, access RW) ≥ -1; a value other than -1 makes the next Bind adopt that existing OS listening socket instead of creating one.</summary>
    Use_Fd = 89,

    /// <summary>(type int) EINVAL.</summary>
    Gssapi_Principal_Nametype = 90,

    /// <summary>(type int) EINVAL.</summary>
    Gssapi_Service_Principal_Nametype = 91,

    /// <summary>(type string, default "", access RW) 0–16 bytes; binds TCP sockets to a network device (Linux; elsewhere Bind fails with ENOTSUP when non-empty).</summary>
    Bindtodevice = 92,
}
