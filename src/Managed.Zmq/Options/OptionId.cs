
namespace Managed.Zmq.Options;

/// <summary>
/// Socket option numbers, numbered as libzmq 4.3's C API numbers them (docs/options.md gives each number).
/// </summary>
/// <remarks>
/// The numbers are defined once, by the public <see cref="SocketOption"/> enum; these are short internal names for
/// them (and <c>ZmqConstants.ZMQ_*</c> are the C names), so the socket passes <c>(int)option</c> straight through.
/// Numbers not listed here (10, 20, 26, 29–31, 38, 58–60, 67, 82, 83, 93, 94, 96–98, 101, 102 and from 108) are not socket options of this build,
/// except this library's own options, numbered from <see cref="OwnBase"/>. Storage indexes them after libzmq's
/// (<see cref="StorageIndex"/>), so the per-number tables grow by one row per option of ours, not by the gap.
/// </remarks>
internal static class OptionId
{
    public const int Affinity = (int)SocketOption.Affinity;
    public const int RoutingId = (int)SocketOption.Routing_Id;
    public const int Subscribe = (int)SocketOption.Subscribe;
    public const int Unsubscribe = (int)SocketOption.Unsubscribe;
    public const int Rate = (int)SocketOption.Rate;
    public const int RecoveryInterval = (int)SocketOption.Recovery_Ivl;
    public const int SendBuffer = (int)SocketOption.Sndbuf;
    public const int ReceiveBuffer = (int)SocketOption.Rcvbuf;
    public const int ReceiveMore = (int)SocketOption.Rcvmore;
    public const int Fd = (int)SocketOption.Fd;
    public const int Events = (int)SocketOption.Events;
    public const int Type = (int)SocketOption.Type;
    public const int Linger = (int)SocketOption.Linger;
    public const int ReconnectInterval = (int)SocketOption.Reconnect_Ivl;
    public const int Backlog = (int)SocketOption.Backlog;
    public const int ReconnectIntervalMax = (int)SocketOption.Reconnect_Ivl_Max;
    public const int MaxMessageSize = (int)SocketOption.Maxmsgsize;
    public const int SendHwm = (int)SocketOption.Sndhwm;
    public const int ReceiveHwm = (int)SocketOption.Rcvhwm;
    public const int MulticastHops = (int)SocketOption.Multicast_Hops;
    public const int ReceiveTimeout = (int)SocketOption.Rcvtimeo;
    public const int SendTimeout = (int)SocketOption.Sndtimeo;
    public const int LastEndpoint = (int)SocketOption.Last_Endpoint;
    public const int RouterMandatory = (int)SocketOption.Router_Mandatory;
    public const int TcpKeepalive = (int)SocketOption.Tcp_Keepalive;
    public const int TcpKeepaliveCount = (int)SocketOption.Tcp_Keepalive_Cnt;
    public const int TcpKeepaliveIdle = (int)SocketOption.Tcp_Keepalive_Idle;
    public const int TcpKeepaliveInterval = (int)SocketOption.Tcp_Keepalive_Intvl;
    public const int Immediate = (int)SocketOption.Immediate;
    public const int XpubVerbose = (int)SocketOption.Xpub_Verbose;
    public const int RouterRaw = (int)SocketOption.Router_Raw;
    public const int Ipv6 = (int)SocketOption.Ipv6;
    public const int Mechanism = (int)SocketOption.Mechanism;
    public const int PlainServer = (int)SocketOption.Plain_Server;
    public const int PlainUsername = (int)SocketOption.Plain_Username;
    public const int PlainPassword = (int)SocketOption.Plain_Password;
    public const int CurveServer = (int)SocketOption.Curve_Server;
    public const int CurvePublicKey = (int)SocketOption.Curve_Publickey;
    public const int CurveSecretKey = (int)SocketOption.Curve_Secretkey;
    public const int CurveServerKey = (int)SocketOption.Curve_Serverkey;
    public const int ProbeRouter = (int)SocketOption.Probe_Router;
    public const int ReqCorrelate = (int)SocketOption.Req_Correlate;
    public const int ReqRelaxed = (int)SocketOption.Req_Relaxed;
    public const int Conflate = (int)SocketOption.Conflate;
    public const int ZapDomain = (int)SocketOption.Zap_Domain;
    public const int RouterHandover = (int)SocketOption.Router_Handover;
    public const int TypeOfService = (int)SocketOption.Tos;
    public const int ConnectRoutingId = (int)SocketOption.Connect_Routing_Id;
    public const int GssapiServer = (int)SocketOption.Gssapi_Server;
    public const int GssapiPrincipal = (int)SocketOption.Gssapi_Principal;
    public const int GssapiServicePrincipal = (int)SocketOption.Gssapi_Service_Principal;
    public const int GssapiPlaintext = (int)SocketOption.Gssapi_Plaintext;
    public const int HandshakeInterval = (int)SocketOption.Handshake_Ivl;
    public const int SocksProxy = (int)SocketOption.Socks_Proxy;
    public const int XpubNodrop = (int)SocketOption.Xpub_Nodrop;
    public const int Blocky = (int)SocketOption.Blocky;
    public const int XpubManual = (int)SocketOption.Xpub_Manual;
    public const int XpubWelcomeMessage = (int)SocketOption.Xpub_Welcome_Msg;
    public const int StreamNotify = (int)SocketOption.Stream_Notify;
    public const int InvertMatching = (int)SocketOption.Invert_Matching;
    public const int HeartbeatInterval = (int)SocketOption.Heartbeat_Ivl;
    public const int HeartbeatTtl = (int)SocketOption.Heartbeat_Ttl;
    public const int HeartbeatTimeout = (int)SocketOption.Heartbeat_Timeout;
    public const int XpubVerboser = (int)SocketOption.Xpub_Verboser;
    public const int ConnectTimeout = (int)SocketOption.Connect_Timeout;
    public const int TcpMaxRetransmitTimeout = (int)SocketOption.Tcp_Maxrt;
    public const int ThreadSafe = (int)SocketOption.Thread_Safe;
    public const int MulticastMaxTpdu = (int)SocketOption.Multicast_Maxtpdu;
    public const int VmciBufferSize = (int)SocketOption.Vmci_Buffer_Size;
    public const int VmciBufferMinSize = (int)SocketOption.Vmci_Buffer_Min_Size;
    public const int VmciBufferMaxSize = (int)SocketOption.Vmci_Buffer_Max_Size;
    public const int VmciConnectTimeout = (int)SocketOption.Vmci_Connect_Timeout;
    public const int UseFd = (int)SocketOption.Use_Fd;
    public const int GssapiPrincipalNameType = (int)SocketOption.Gssapi_Principal_Nametype;
    public const int GssapiServicePrincipalNameType = (int)SocketOption.Gssapi_Service_Principal_Nametype;
    public const int BindToDevice = (int)SocketOption.Bindtodevice;
    public const int Metadata = (int)SocketOption.Metadata;
    public const int MulticastLoop = (int)SocketOption.Multicast_Loop;
    public const int SocksUsername = (int)SocketOption.Socks_Username;
    public const int SocksPassword = (int)SocketOption.Socks_Password;
    public const int WssKeyPem = (int)SocketOption.Wss_Key_Pem;
    public const int WssCertPem = (int)SocketOption.Wss_Cert_Pem;
    public const int WssTrustPem = (int)SocketOption.Wss_Trust_Pem;
    public const int WssHostname = (int)SocketOption.Wss_Hostname;
    public const int WssTrustSystem = (int)SocketOption.Wss_Trust_System;

    /// <summary>One past the highest option number; sizes the per-number tables.</summary>
    public const int Count = (int)SocketOption.Wss_Trust_System + 1;

    /// <summary>
    /// The first number of this library's own options. libzmq numbers its options densely from 1 and its draft
    /// options stay below 200, so numbers from 10,000 stay clear of every number libzmq has or is likely to take,
    /// and libzmq's setsockopt refuses them with EINVAL: code written against both libraries fails loudly there.
    /// </summary>
    public const int OwnBase = (int)SocketOption.Max_Connections;

    /// <summary>Managed.Zmq's own: the most accepted connections a socket keeps open at once (<c>SocketOption.Max_Connections</c>).</summary>
    public const int MaxConnections = (int)SocketOption.Max_Connections;

    /// <summary>How many options of our own there are, numbered <see cref="OwnBase"/> onwards.</summary>
    public const int OwnCount = 1;

    /// <summary>Rows in the per-number tables: libzmq's numbers, then ours.</summary>
    public const int StorageCount = Count + OwnCount;

    /// <summary>
    /// The row of <paramref name="option"/> in the per-number tables, or -1 for a number that is neither libzmq's
    /// range nor one of ours.
    /// </summary>
    public static int StorageIndex(int option)
    {
        if ((uint)option < Count)
        {
            return option;
        }

        return (uint)(option - OwnBase) < OwnCount ? Count + (option - OwnBase) : -1;
    }
}
