namespace Managed.Zmq;

/// <summary>Socket options, numbered as libzmq 4.3 numbers them and spelled as Net.Zmq spells them.</summary>
/// <remarks>
/// Eight members are aliases that share a value with a canonical member (for example <see cref="RcvMore"/> and
/// <see cref="Rcvmore"/>), so <c>ToString()</c> may return either spelling.
/// </remarks>
public enum SocketOption
{
    /// <summary>
    /// Any uint64 bitmask; as libzmq's ZMQ_AFFINITY, bit i lets new connections and listeners of this socket run on
    /// the context's I/O thread i (0, the default, allows every thread). A mask naming no existing thread allows all.
    /// </summary>
    /// <remarks>Accessor type: long. Default: 0. Access: read-write.</remarks>
    Affinity = 4,

    /// <summary>1–255 bytes; sent to peers in the handshake of later connections; ROUTER peers use it as the routing id.</summary>
    /// <remarks>Accessor type: bytes. Default: empty. Access: read-write.</remarks>
    Routing_Id = 5,

    /// <summary>Prefix filter; empty = all; counted.</summary>
    /// <remarks>Accessor type: bytes. Access: write-only [SUB; XPUB with Xpub_Manual].</remarks>
    Subscribe = 6,

    /// <summary>Removes one matching subscription.</summary>
    /// <remarks>Accessor type: bytes. Access: write-only [SUB; XPUB with Xpub_Manual].</remarks>
    Unsubscribe = 7,

    /// <summary>
    /// &gt; 0; stored and read back as libzmq does. Only the pgm:// and epgm:// transports use it, and this library
    /// refuses those with EPROTONOSUPPORT (as a libzmq built without OpenPGM), so it changes nothing on tcp, ipc or inproc.
    /// </summary>
    /// <remarks>Accessor type: int. Default: 100. Access: read-write.</remarks>
    Rate = 8,

    /// <summary>
    /// ≥ 0; stored and read back as libzmq does. Only pgm:// and epgm:// use it, which this library refuses with
    /// EPROTONOSUPPORT (as a libzmq built without OpenPGM).
    /// </summary>
    /// <remarks>Accessor type: int ms. Default: 10000. Access: read-write.</remarks>
    Recovery_Ivl = 9,

    /// <summary>≥ -1; OS send buffer for TCP/IPC sockets; -1 = OS default.</summary>
    /// <remarks>Accessor type: int. Default: -1. Access: read-write.</remarks>
    Sndbuf = 11,

    /// <summary>≥ -1; OS receive buffer.</summary>
    /// <remarks>Accessor type: int. Default: -1. Access: read-write.</remarks>
    Rcvbuf = 12,

    /// <summary>1 if the last frame received had MORE; backs HasMore.</summary>
    /// <remarks>Accessor type: int. Default: 0. Access: read-only.</remarks>
    Rcvmore = 13,

    /// <summary>Alias of <see cref="Rcvmore"/>, a spelling Net.Zmq code uses (docs/migrating.md).</summary>
    RcvMore = Rcvmore,

    /// <summary>Non-zero, stable per socket. In this version it is an opaque value, not a pollable OS handle. Readable with any T of at least 4 bytes.</summary>
    /// <remarks>Accessor type: int/long/nint. Access: read-only.</remarks>
    Fd = 14,

    /// <summary>Current readiness: bit 1 = POLLIN, bit 2 = POLLOUT, as libzmq's ZMQ_EVENTS.</summary>
    /// <remarks>Accessor type: int. Access: read-only.</remarks>
    Events = 15,

    /// <summary>Equals (int)SocketType.</summary>
    /// <remarks>Accessor type: int. Default: the type. Access: read-only.</remarks>
    Type = 16,

    /// <summary>≥ -1; -1 = keep pending messages forever after Dispose; 0 = discard at once (docs/tuning.md, linger and shutdown).</summary>
    /// <remarks>Accessor type: int ms. Default: -1. Access: read-write.</remarks>
    Linger = 17,

    /// <summary>≥ -1; -1 = never reconnect.</summary>
    /// <remarks>Accessor type: int ms. Default: 100. Access: read-write.</remarks>
    Reconnect_Ivl = 18,

    /// <summary>≥ 0; listen backlog of later binds.</summary>
    /// <remarks>Accessor type: int. Default: 100. Access: read-write.</remarks>
    Backlog = 19,

    /// <summary>≥ 0; with a value &gt; Reconnect_Ivl, the interval doubles per attempt up to this cap; 0 = no backoff.</summary>
    /// <remarks>Accessor type: int ms. Default: 0. Access: read-write.</remarks>
    Reconnect_Ivl_Max = 21,

    /// <summary>Any int64; -1 = unlimited. An inbound message larger than this makes the library drop that connection.</summary>
    /// <remarks>Accessor type: long. Default: -1. Access: read-write.</remarks>
    Maxmsgsize = 22,

    /// <summary>≥ 0; 0 = unlimited; outbound queue limit per pipe, counted in messages; pipes created afterwards.</summary>
    /// <remarks>Accessor type: int. Default: 1000. Access: read-write.</remarks>
    Sndhwm = 23,

    /// <summary>Alias of <see cref="Sndhwm"/>, a spelling Net.Zmq code uses (docs/migrating.md).</summary>
    SendHwm = Sndhwm,

    /// <summary>≥ 0; inbound limit per pipe.</summary>
    /// <remarks>Accessor type: int. Default: 1000. Access: read-write.</remarks>
    Rcvhwm = 24,

    /// <summary>
    /// &gt; 0; stored and read back as libzmq does. Multicast transports use it: here udp:// (RADIO), whose multicast
    /// datagrams get it as their TTL; pgm:// and epgm:// are refused (EPROTONOSUPPORT).
    /// </summary>
    /// <remarks>Accessor type: int. Default: 1. Access: read-write.</remarks>
    Multicast_Hops = 25,

    /// <summary>≥ -1; -1 = wait forever; 0 = EAGAIN at once; applies to blocking receives.</summary>
    /// <remarks>Accessor type: int ms. Default: -1. Access: read-write.</remarks>
    Rcvtimeo = 27,

    /// <summary>Alias of <see cref="Rcvtimeo"/>, a spelling Net.Zmq code uses (docs/migrating.md).</summary>
    RcvTimeout = Rcvtimeo,

    /// <summary>≥ -1; same for blocking sends.</summary>
    /// <remarks>Accessor type: int ms. Default: -1. Access: read-write.</remarks>
    Sndtimeo = 28,

    /// <summary>Alias of <see cref="Sndtimeo"/>, a spelling Net.Zmq code uses (docs/migrating.md).</summary>
    SendTimeout = Sndtimeo,

    /// <summary>The last bound or connected endpoint in resolved form, as libzmq's ZMQ_LAST_ENDPOINT.</summary>
    /// <remarks>Accessor type: string. Default: "". Access: read-only.</remarks>
    Last_Endpoint = 32,

    /// <summary>≥ 0, non-zero = on: unroutable sends fail with EHOSTUNREACH instead of being dropped; a full peer gives EAGAIN.</summary>
    /// <remarks>Accessor type: int. Default: 0. Access: write-only [ROUTER].</remarks>
    Router_Mandatory = 33,

    /// <summary>-1 (OS default), 0 (off), 1 (on).</summary>
    /// <remarks>Accessor type: int. Default: -1. Access: read-write.</remarks>
    Tcp_Keepalive = 34,

    /// <summary>≥ -1.</summary>
    /// <remarks>Accessor type: int. Default: -1. Access: read-write.</remarks>
    Tcp_Keepalive_Cnt = 35,

    /// <summary>≥ -1.</summary>
    /// <remarks>Accessor type: int s. Default: -1. Access: read-write.</remarks>
    Tcp_Keepalive_Idle = 36,

    /// <summary>≥ -1.</summary>
    /// <remarks>Accessor type: int s. Default: -1. Access: read-write.</remarks>
    Tcp_Keepalive_Intvl = 37,

    /// <summary>0/1; 1 = queue only to completed connections.</summary>
    /// <remarks>Accessor type: int. Default: 0. Access: read-write.</remarks>
    Immediate = 39,

    /// <summary>≥ 0; pass duplicate subscribe messages upstream.</summary>
    /// <remarks>Accessor type: int. Default: 0. Access: write-only [XPUB, PUB].</remarks>
    Xpub_Verbose = 40,

    /// <summary>
    /// ≥ 0; deprecated in libzmq (use STREAM). Non-zero makes the ROUTER speak raw TCP like STREAM: [id, ""] when a
    /// peer connects, [id, bytes] for what arrives, bytes sent as they are, an empty frame closes. Set it before Bind
    /// or Connect: once peers are attached it fails with EINVAL (they already speak ZMTP).
    /// </summary>
    /// <remarks>Accessor type: int. Default: 0. Access: write-only [ROUTER].</remarks>
    Router_Raw = 41,

    /// <summary>0/1; 1 = IPv6 plus IPv4-mapped addresses.</summary>
    /// <remarks>Accessor type: int. Default: 0 (the context's value). Access: read-write.</remarks>
    Ipv6 = 42,

    /// <summary>0 NULL, 1 PLAIN, 2 CURVE (3 GSSAPI never occurs).</summary>
    /// <remarks>Accessor type: int. Default: 0. Access: read-only.</remarks>
    Mechanism = 43,

    /// <summary>0/1; 1 = act as PLAIN server (Mechanism 1); reads 1 only while the socket is a PLAIN server.</summary>
    /// <remarks>Accessor type: int. Default: 0. Access: read-write.</remarks>
    Plain_Server = 44,

    /// <summary>0–255 bytes; non-empty = PLAIN client, empty = back to NULL.</summary>
    /// <remarks>Accessor type: string. Default: "". Access: read-write.</remarks>
    Plain_Username = 45,

    /// <summary>0–255 bytes; as above.</summary>
    /// <remarks>Accessor type: string. Default: "". Access: read-write.</remarks>
    Plain_Password = 46,

    /// <summary>0/1; 1 = CURVE server (needs Curve_Secretkey), 0 = back to NULL; reads 1 only while the socket is a CURVE server.</summary>
    /// <remarks>Accessor type: int. Default: 0. Access: read-write.</remarks>
    Curve_Server = 47,

    /// <summary>Alias of <see cref="Curve_Server"/>, a spelling Net.Zmq code uses (docs/migrating.md).</summary>
    CurveServer = Curve_Server,

    /// <summary>Set: 32 raw bytes, a 40-character Z85 string, or 41 bytes (Z85 plus NUL); sets Mechanism CURVE. get: buffer of exactly 32 bytes (raw) or 41 bytes (Z85 plus NUL).</summary>
    /// <remarks>Accessor type: key. Default: 32 zero bytes. Access: read-write.</remarks>
    Curve_Publickey = 48,

    /// <summary>Alias of <see cref="Curve_Publickey"/>, a spelling Net.Zmq code uses (docs/migrating.md).</summary>
    CurvePublickey = Curve_Publickey,

    /// <summary>As above.</summary>
    /// <remarks>Accessor type: key. Default: zeros. Access: read-write.</remarks>
    Curve_Secretkey = 49,

    /// <summary>Alias of <see cref="Curve_Secretkey"/>, a spelling Net.Zmq code uses (docs/migrating.md).</summary>
    CurveSecretkey = Curve_Secretkey,

    /// <summary>As above; setting it makes the socket a CURVE client.</summary>
    /// <remarks>Accessor type: key. Default: zeros. Access: read-write.</remarks>
    Curve_Serverkey = 50,

    /// <summary>Alias of <see cref="Curve_Serverkey"/>, a spelling Net.Zmq code uses (docs/migrating.md).</summary>
    CurveServerkey = Curve_Serverkey,

    /// <summary>≥ 0; send an empty message to each new connection.</summary>
    /// <remarks>Accessor type: int. Default: 0. Access: write-only [ROUTER, DEALER, REQ].</remarks>
    Probe_Router = 51,

    /// <summary>≥ 0; prefix requests with a request-id frame and match replies.</summary>
    /// <remarks>Accessor type: int. Default: 0. Access: write-only [REQ].</remarks>
    Req_Correlate = 52,

    /// <summary>≥ 0; allow a new request before the reply arrives.</summary>
    /// <remarks>Accessor type: int. Default: 0. Access: write-only [REQ].</remarks>
    Req_Relaxed = 53,

    /// <summary>Any int, non-zero = keep only the last message (single-part only; PULL, PUSH, SUB, PUB, DEALER).</summary>
    /// <remarks>Accessor type: int. Default: 0. Access: read-write.</remarks>
    Conflate = 54,

    /// <summary>0–255 bytes; the domain sent in ZAP requests.</summary>
    /// <remarks>Accessor type: string. Default: "". Access: read-write.</remarks>
    Zap_Domain = 55,

    /// <summary>≥ 0; a new connection with an already-used routing id takes over that id.</summary>
    /// <remarks>Accessor type: int. Default: 0. Access: write-only [ROUTER].</remarks>
    Router_Handover = 56,

    /// <summary>≥ 0; IP TOS/DSCP for TCP.</summary>
    /// <remarks>Accessor type: int. Default: 0. Access: read-write.</remarks>
    Tos = 57,

    /// <summary>1–255 bytes; routing id to give the peer of the next Connect.</summary>
    /// <remarks>Accessor type: bytes. Access: write-only [ROUTER, STREAM].</remarks>
    Connect_Routing_Id = 61,

    /// <summary>GSSAPI is not available: EINVAL on get and set, as in a libzmq build without GSSAPI (docs/limitations.md).</summary>
    /// <remarks>Accessor type: int.</remarks>
    Gssapi_Server = 62,

    /// <summary>EINVAL.</summary>
    /// <remarks>Accessor type: string.</remarks>
    Gssapi_Principal = 63,

    /// <summary>EINVAL.</summary>
    /// <remarks>Accessor type: string.</remarks>
    Gssapi_Service_Principal = 64,

    /// <summary>EINVAL.</summary>
    /// <remarks>Accessor type: int.</remarks>
    Gssapi_Plaintext = 65,

    /// <summary>≥ 0; 0 = no limit; a handshake not finished in time drops the connection.</summary>
    /// <remarks>Accessor type: int ms. Default: 30000. Access: read-write.</remarks>
    Handshake_Ivl = 66,

    /// <summary>
    /// Host:port of a SOCKS5 proxy for tcp:// connects; empty = none. As libzmq: the connection is opened to the proxy,
    /// which is asked (RFC 1928 CONNECT, no authentication) for the endpoint's host and port, an IP literal as an
    /// address and a host name as a domain name the proxy resolves. A refusal closes the attempt and the connect
    /// is retried after Reconnect_Ivl. Binds, ipc:// and inproc:// ignore it, as in libzmq.
    /// </summary>
    /// <remarks>Accessor type: string. Default: "". Access: read-write.</remarks>
    Socks_Proxy = 68,

    /// <summary>≥ 0; at HWM, report EAGAIN instead of dropping.</summary>
    /// <remarks>Accessor type: int. Default: 0. Access: write-only [XPUB, PUB, RADIO (as libzmq's draft RADIO)].</remarks>
    Xpub_Nodrop = 69,

    /// <summary>libzmq's 70 is a context option: EINVAL on sockets (use (ContextOption)70).</summary>
    Blocky = 70,

    /// <summary>≥ 0; the application manages subscriptions (by setting Subscribe/Unsubscribe on the XPUB).</summary>
    /// <remarks>Accessor type: int. Default: 0. Access: write-only [XPUB, PUB].</remarks>
    Xpub_Manual = 71,

    /// <summary>Sent to each new subscriber; empty clears it.</summary>
    /// <remarks>Accessor type: bytes. Default: none. Access: write-only [XPUB, PUB].</remarks>
    Xpub_Welcome_Msg = 72,

    /// <summary>0/1; emit zero-length frames on connect/disconnect.</summary>
    /// <remarks>Accessor type: int. Default: 1. Access: write-only [STREAM].</remarks>
    Stream_Notify = 73,

    /// <summary>Any int, non-zero = on; PUB/XPUB send to non-matching SUBs, SUB receives non-matching messages.</summary>
    /// <remarks>Accessor type: int. Default: 0. Access: read-write.</remarks>
    Invert_Matching = 74,

    /// <summary>≥ 0; send a ZMTP PING at this interval; 0 = off.</summary>
    /// <remarks>Accessor type: int ms. Default: 0. Access: read-write.</remarks>
    Heartbeat_Ivl = 75,

    /// <summary>0–6553599; sent in PING; stored in 100 ms units, so reads round down to a multiple of 100.</summary>
    /// <remarks>Accessor type: int ms. Default: 0. Access: read-write.</remarks>
    Heartbeat_Ttl = 76,

    /// <summary>Set ≥ 0; -1 (default) = use Heartbeat_Ivl; a silent peer is dropped after this.</summary>
    /// <remarks>Accessor type: int ms. Default: -1. Access: read-write.</remarks>
    Heartbeat_Timeout = 77,

    /// <summary>≥ 0; like Verbose, for unsubscribes too.</summary>
    /// <remarks>Accessor type: int. Default: 0. Access: write-only [XPUB, PUB].</remarks>
    Xpub_Verboser = 78,

    /// <summary>≥ 0; 0 = OS default.</summary>
    /// <remarks>Accessor type: int ms. Default: 0. Access: read-write.</remarks>
    Connect_Timeout = 79,

    /// <summary>
    /// ≥ 0; on Linux, TCP_USER_TIMEOUT of every tcp:// connection (how long sent data may stay unacknowledged before
    /// the connection is dropped), as libzmq sets it; 0 leaves the system default. Other systems: stored only.
    /// </summary>
    /// <remarks>Accessor type: int ms. Default: 0. Access: read-write.</remarks>
    Tcp_Maxrt = 80,

    /// <summary>Always 0 for these socket types.</summary>
    /// <remarks>Accessor type: int. Default: 0. Access: read-only.</remarks>
    Thread_Safe = 81,

    /// <summary>
    /// &gt; 0; stored and read back as libzmq does. Only pgm:// and epgm:// use it, which this library refuses with
    /// EPROTONOSUPPORT.
    /// </summary>
    /// <remarks>Accessor type: int. Default: 1500. Access: read-write.</remarks>
    Multicast_Maxtpdu = 84,

    /// <summary>VMCI is not available: EINVAL.</summary>
    /// <remarks>Accessor type: long.</remarks>
    Vmci_Buffer_Size = 85,

    /// <summary>EINVAL.</summary>
    /// <remarks>Accessor type: long.</remarks>
    Vmci_Buffer_Min_Size = 86,

    /// <summary>EINVAL.</summary>
    /// <remarks>Accessor type: long.</remarks>
    Vmci_Buffer_Max_Size = 87,

    /// <summary>EINVAL.</summary>
    /// <remarks>Accessor type: int.</remarks>
    Vmci_Connect_Timeout = 88,

    /// <summary>
    /// ≥ -1; a value other than -1 makes Bind listen on that existing OS socket (already bound and listening, for
    /// socket activation) instead of creating one, as libzmq does; Last_Endpoint then reports that socket's address.
    /// Unlike libzmq, the descriptor stays the caller's: unbinding or closing never closes it.
    /// </summary>
    /// <remarks>Accessor type: int. Default: -1. Access: read-write.</remarks>
    Use_Fd = 89,

    /// <summary>EINVAL.</summary>
    /// <remarks>Accessor type: int.</remarks>
    Gssapi_Principal_Nametype = 90,

    /// <summary>EINVAL.</summary>
    /// <remarks>Accessor type: int.</remarks>
    Gssapi_Service_Principal_Nametype = 91,

    /// <summary>0–16 bytes; binds TCP sockets to a network device (Linux; elsewhere Bind fails with ENOTSUP when non-empty).</summary>
    /// <remarks>Accessor type: string. Default: "". Access: read-write.</remarks>
    Bindtodevice = 92,

    /// <summary>
    /// Adds one application property, written as "X-name:value", to the metadata this socket sends in every later
    /// handshake; the peer reads it with <see cref="Message.GetMetadata(string)"/> (libzmq: zmq_msg_gets). As in
    /// libzmq, the name must start with "X-" (case-sensitive) and be at most 255 bytes, and the colon may be neither
    /// first nor last, else EINVAL; each set adds a property and a name already set keeps its first value.
    /// </summary>
    /// <remarks>Accessor type: string. Access: write-only.</remarks>
    Metadata = 95,

    /// <summary>
    /// Whether a udp:// RADIO's multicast datagrams loop back to receivers on this host (IP_MULTICAST_LOOP), as
    /// libzmq's draft ZMQ_MULTICAST_LOOP: any non-zero value turns it on, 0 off. Read when the RADIO connects.
    /// </summary>
    /// <remarks>Accessor type: int. Default: 1. Access: read-write.</remarks>
    Multicast_Loop = 96,

    /// <summary>
    /// 0–255 bytes; the user name for the SOCKS5 proxy set with <see cref="Socks_Proxy"/>. When it is not empty the
    /// connection offers only username/password authentication (RFC 1929) with <see cref="Socks_Password"/>, as
    /// libzmq does; empty (the default) offers only "no authentication".
    /// </summary>
    /// <remarks>Accessor type: string. Default: "". Access: read-write.</remarks>
    Socks_Username = 99,

    /// <summary>0–255 bytes; the password sent with <see cref="Socks_Username"/> to the SOCKS5 proxy (RFC 1929).</summary>
    /// <remarks>Accessor type: string. Default: "". Access: read-write.</remarks>
    Socks_Password = 100,

    /// <summary>
    /// The PEM private key a <c>wss://</c> listener presents with <see cref="Wss_Cert_Pem"/> (PKCS#8, PKCS#1 or SEC1
    /// "EC PRIVATE KEY"; not encrypted). Needed, with the certificate, by <see cref="Socket.Bind(string)"/> on a
    /// <c>wss://</c> endpoint, which fails with EINVAL without them or when they do not parse or do not match
    /// (libzmq aborts there). Taken when Bind is called; later changes do not reach that listener.
    /// </summary>
    /// <remarks>Accessor type: string. Default: none. Access: write-only, as in libzmq (reading gives EINVAL).</remarks>
    Wss_Key_Pem = 103,

    /// <summary>
    /// The PEM certificate a <c>wss://</c> listener presents: the leaf first, then any intermediates the client
    /// needs. See <see cref="Wss_Key_Pem"/>. A listener does not ask clients for certificates, as libzmq's does not.
    /// </summary>
    /// <remarks>Accessor type: string. Default: none. Access: write-only, as in libzmq (reading gives EINVAL).</remarks>
    Wss_Cert_Pem = 104,

    /// <summary>
    /// PEM certificates a <c>wss://</c> client trusts as roots when it checks the server's certificate chain (with
    /// <see cref="Wss_Trust_System"/> the system's roots are trusted as well). Without either, every handshake
    /// fails, as in libzmq. Taken when Connect is called; Connect fails with EINVAL when it holds no certificate.
    /// </summary>
    /// <remarks>Accessor type: string. Default: none. Access: write-only, as in libzmq (reading gives EINVAL).</remarks>
    Wss_Trust_Pem = 105,

    /// <summary>
    /// The name a <c>wss://</c> client sends as TLS server name (SNI) and requires in the server's certificate. As in
    /// libzmq, when it is not set neither happens: the certificate's chain is checked and its names are not (the
    /// endpoint's host is not compared). Taken when Connect is called.
    /// </summary>
    /// <remarks>Accessor type: string. Default: none. Access: write-only, as in libzmq (reading gives EINVAL).</remarks>
    Wss_Hostname = 106,

    /// <summary>
    /// 1 to make a <c>wss://</c> client also trust the operating system's root certificates; 0 (the default, as in
    /// libzmq) trusts only <see cref="Wss_Trust_Pem"/>. Other values fail with EINVAL.
    /// </summary>
    /// <remarks>Accessor type: int. Default: 0. Access: write-only, as in libzmq (reading gives EINVAL).</remarks>
    Wss_Trust_System = 107,

    /// <summary>
    /// Managed.Zmq's own option (libzmq has no such cap): the most connections this socket keeps open at once among
    /// those it accepted, across all its bound tcp:// and ipc:// endpoints (inproc peers are not accepted
    /// connections); -1 for no cap; 0 and values below -1 fail with EINVAL.
    /// An accepted connection counts from its accept until it closes, whether it is still handshaking or established
    /// and however it ends (handshake failure or timeout, peer close, Unbind, Close). At the cap, the socket's
    /// listeners stop accepting: new connections wait in the kernel's listen queue (see <see cref="Backlog"/>), as
    /// with libzmq when it stops accepting, and are accepted as soon as an accepted connection closes.
    /// Connections this socket makes with Connect are not counted. A change applies to later accepts (raising it
    /// lets waiting connections in at once); lowering it closes nothing.
    /// </summary>
    /// <remarks>
    /// <para>Accessor type: int. Default: 100,000. Access: read-write.</para>
    /// <para>
    /// The default is far above what one socket of an ordinary application accepts, and above the descriptor limit
    /// most processes run with, so it does not get in the way; yet it bounds what a flood of connections can make
    /// one socket hold. Set -1 to accept without limit, as libzmq does.
    /// </para>
    /// <para>
    /// The number, 10,000, is well outside libzmq's option numbers (dense from 1, drafts below 200), so it can never
    /// collide with a libzmq option, and libzmq's own setsockopt refuses it with EINVAL. It has no <c>ZMQ_*</c>
    /// constant in <see cref="ZmqConstants"/>, which mirrors libzmq's.
    /// </para>
    /// </remarks>
    Max_Connections = 10_000,
}
