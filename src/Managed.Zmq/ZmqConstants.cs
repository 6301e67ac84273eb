namespace Managed.Zmq;

/// <summary>The numeric constants of the ZeroMQ C API, kept for code that works with raw values.</summary>
/// <remarks>
/// Error numbers are platform-independent (Linux values) except <see cref="EAGAIN"/>, which follows the OS so that
/// comparisons against <see cref="ZmqException.ErrorNumber"/> work everywhere.
/// </remarks>
public static class ZmqConstants
{
    /// <summary>Socket type PAIR.</summary>
    public const int ZMQ_PAIR = (int)SocketType.Pair;
    /// <summary>Socket type PUB.</summary>
    public const int ZMQ_PUB = (int)SocketType.Pub;
    /// <summary>Socket type SUB.</summary>
    public const int ZMQ_SUB = (int)SocketType.Sub;
    /// <summary>Socket type REQ.</summary>
    public const int ZMQ_REQ = (int)SocketType.Req;
    /// <summary>Socket type REP.</summary>
    public const int ZMQ_REP = (int)SocketType.Rep;
    /// <summary>Socket type DEALER.</summary>
    public const int ZMQ_DEALER = (int)SocketType.Dealer;
    /// <summary>Socket type ROUTER.</summary>
    public const int ZMQ_ROUTER = (int)SocketType.Router;
    /// <summary>Socket type PULL.</summary>
    public const int ZMQ_PULL = (int)SocketType.Pull;
    /// <summary>Socket type PUSH.</summary>
    public const int ZMQ_PUSH = (int)SocketType.Push;
    /// <summary>Socket type XPUB.</summary>
    public const int ZMQ_XPUB = (int)SocketType.XPub;
    /// <summary>Socket type XSUB.</summary>
    public const int ZMQ_XSUB = (int)SocketType.XSub;
    /// <summary>Socket type STREAM.</summary>
    public const int ZMQ_STREAM = (int)SocketType.Stream;

    /// <summary>Context option IO_THREADS.</summary>
    public const int ZMQ_IO_THREADS = (int)ContextOption.IoThreads;
    /// <summary>Context option MAX_SOCKETS.</summary>
    public const int ZMQ_MAX_SOCKETS = (int)ContextOption.MaxSockets;
    /// <summary>Context option SOCKET_LIMIT.</summary>
    public const int ZMQ_SOCKET_LIMIT = (int)ContextOption.SocketLimit;
    /// <summary>Context option THREAD_PRIORITY.</summary>
    public const int ZMQ_THREAD_PRIORITY = (int)ContextOption.ThreadPriority;
    /// <summary>Context option THREAD_SCHED_POLICY.</summary>
    public const int ZMQ_THREAD_SCHED_POLICY = (int)ContextOption.ThreadSchedPolicy;
    /// <summary>Context option MAX_MSGSZ.</summary>
    public const int ZMQ_MAX_MSGSZ = (int)ContextOption.MaxMsgSize;
    /// <summary>Context option MSG_T_SIZE.</summary>
    public const int ZMQ_MSG_T_SIZE = (int)ContextOption.MsgTSize;
    /// <summary>Context option THREAD_AFFINITY_CPU_ADD.</summary>
    public const int ZMQ_THREAD_AFFINITY_CPU_ADD = (int)ContextOption.ThreadAffinityCpuAdd;
    /// <summary>Context option THREAD_AFFINITY_CPU_REMOVE.</summary>
    public const int ZMQ_THREAD_AFFINITY_CPU_REMOVE = (int)ContextOption.ThreadAffinityCpuRemove;
    /// <summary>Context option THREAD_NAME_PREFIX.</summary>
    public const int ZMQ_THREAD_NAME_PREFIX = (int)ContextOption.ThreadNamePrefix;

    /// <summary>Socket option AFFINITY.</summary>
    public const int ZMQ_AFFINITY = (int)SocketOption.Affinity;
    /// <summary>Socket option ROUTING_ID.</summary>
    public const int ZMQ_ROUTING_ID = (int)SocketOption.Routing_Id;
    /// <summary>Socket option SUBSCRIBE.</summary>
    public const int ZMQ_SUBSCRIBE = (int)SocketOption.Subscribe;
    /// <summary>Socket option UNSUBSCRIBE.</summary>
    public const int ZMQ_UNSUBSCRIBE = (int)SocketOption.Unsubscribe;
    /// <summary>Socket option RATE.</summary>
    public const int ZMQ_RATE = (int)SocketOption.Rate;
    /// <summary>Socket option RECOVERY_IVL.</summary>
    public const int ZMQ_RECOVERY_IVL = (int)SocketOption.Recovery_Ivl;
    /// <summary>Socket option SNDBUF.</summary>
    public const int ZMQ_SNDBUF = (int)SocketOption.Sndbuf;
    /// <summary>Socket option RCVBUF.</summary>
    public const int ZMQ_RCVBUF = (int)SocketOption.Rcvbuf;
    /// <summary>Socket option RCVMORE.</summary>
    public const int ZMQ_RCVMORE = (int)SocketOption.Rcvmore;
    /// <summary>Socket option FD.</summary>
    public const int ZMQ_FD = (int)SocketOption.Fd;
    /// <summary>Socket option EVENTS.</summary>
    public const int ZMQ_EVENTS = (int)SocketOption.Events;
    /// <summary>Socket option TYPE.</summary>
    public const int ZMQ_TYPE = (int)SocketOption.Type;
    /// <summary>Socket option LINGER.</summary>
    public const int ZMQ_LINGER = (int)SocketOption.Linger;
    /// <summary>Socket option RECONNECT_IVL.</summary>
    public const int ZMQ_RECONNECT_IVL = (int)SocketOption.Reconnect_Ivl;
    /// <summary>Socket option BACKLOG.</summary>
    public const int ZMQ_BACKLOG = (int)SocketOption.Backlog;
    /// <summary>Socket option RECONNECT_IVL_MAX.</summary>
    public const int ZMQ_RECONNECT_IVL_MAX = (int)SocketOption.Reconnect_Ivl_Max;
    /// <summary>Socket option MAXMSGSIZE.</summary>
    public const int ZMQ_MAXMSGSIZE = (int)SocketOption.Maxmsgsize;
    /// <summary>Socket option SNDHWM.</summary>
    public const int ZMQ_SNDHWM = (int)SocketOption.Sndhwm;
    /// <summary>Socket option RCVHWM.</summary>
    public const int ZMQ_RCVHWM = (int)SocketOption.Rcvhwm;
    /// <summary>Socket option MULTICAST_HOPS.</summary>
    public const int ZMQ_MULTICAST_HOPS = (int)SocketOption.Multicast_Hops;
    /// <summary>Socket option RCVTIMEO.</summary>
    public const int ZMQ_RCVTIMEO = (int)SocketOption.Rcvtimeo;
    /// <summary>Socket option SNDTIMEO.</summary>
    public const int ZMQ_SNDTIMEO = (int)SocketOption.Sndtimeo;
    /// <summary>Socket option LAST_ENDPOINT.</summary>
    public const int ZMQ_LAST_ENDPOINT = (int)SocketOption.Last_Endpoint;
    /// <summary>Socket option ROUTER_MANDATORY.</summary>
    public const int ZMQ_ROUTER_MANDATORY = (int)SocketOption.Router_Mandatory;
    /// <summary>Socket option TCP_KEEPALIVE.</summary>
    public const int ZMQ_TCP_KEEPALIVE = (int)SocketOption.Tcp_Keepalive;
    /// <summary>Socket option TCP_KEEPALIVE_CNT.</summary>
    public const int ZMQ_TCP_KEEPALIVE_CNT = (int)SocketOption.Tcp_Keepalive_Cnt;
    /// <summary>Socket option TCP_KEEPALIVE_IDLE.</summary>
    public const int ZMQ_TCP_KEEPALIVE_IDLE = (int)SocketOption.Tcp_Keepalive_Idle;
    /// <summary>Socket option TCP_KEEPALIVE_INTVL.</summary>
    public const int ZMQ_TCP_KEEPALIVE_INTVL = (int)SocketOption.Tcp_Keepalive_Intvl;
    /// <summary>Socket option IMMEDIATE.</summary>
    public const int ZMQ_IMMEDIATE = (int)SocketOption.Immediate;
    /// <summary>Socket option XPUB_VERBOSE.</summary>
    public const int ZMQ_XPUB_VERBOSE = (int)SocketOption.Xpub_Verbose;
    /// <summary>Socket option ROUTER_RAW.</summary>
    public const int ZMQ_ROUTER_RAW = (int)SocketOption.Router_Raw;
    /// <summary>Socket option IPV6.</summary>
    public const int ZMQ_IPV6 = (int)SocketOption.Ipv6;
    /// <summary>Socket option MECHANISM.</summary>
    public const int ZMQ_MECHANISM = (int)SocketOption.Mechanism;
    /// <summary>Socket option PLAIN_SERVER.</summary>
    public const int ZMQ_PLAIN_SERVER = (int)SocketOption.Plain_Server;
    /// <summary>Socket option PLAIN_USERNAME.</summary>
    public const int ZMQ_PLAIN_USERNAME = (int)SocketOption.Plain_Username;
    /// <summary>Socket option PLAIN_PASSWORD.</summary>
    public const int ZMQ_PLAIN_PASSWORD = (int)SocketOption.Plain_Password;
    /// <summary>Socket option CURVE_SERVER.</summary>
    public const int ZMQ_CURVE_SERVER = (int)SocketOption.Curve_Server;
    /// <summary>Socket option CURVE_PUBLICKEY.</summary>
    public const int ZMQ_CURVE_PUBLICKEY = (int)SocketOption.Curve_Publickey;
    /// <summary>Socket option CURVE_SECRETKEY.</summary>
    public const int ZMQ_CURVE_SECRETKEY = (int)SocketOption.Curve_Secretkey;
    /// <summary>Socket option CURVE_SERVERKEY.</summary>
    public const int ZMQ_CURVE_SERVERKEY = (int)SocketOption.Curve_Serverkey;
    /// <summary>Socket option PROBE_ROUTER.</summary>
    public const int ZMQ_PROBE_ROUTER = (int)SocketOption.Probe_Router;
    /// <summary>Socket option REQ_CORRELATE.</summary>
    public const int ZMQ_REQ_CORRELATE = (int)SocketOption.Req_Correlate;
    /// <summary>Socket option REQ_RELAXED.</summary>
    public const int ZMQ_REQ_RELAXED = (int)SocketOption.Req_Relaxed;
    /// <summary>Socket option CONFLATE.</summary>
    public const int ZMQ_CONFLATE = (int)SocketOption.Conflate;
    /// <summary>Socket option ZAP_DOMAIN.</summary>
    public const int ZMQ_ZAP_DOMAIN = (int)SocketOption.Zap_Domain;
    /// <summary>Socket option ROUTER_HANDOVER.</summary>
    public const int ZMQ_ROUTER_HANDOVER = (int)SocketOption.Router_Handover;
    /// <summary>Socket option TOS.</summary>
    public const int ZMQ_TOS = (int)SocketOption.Tos;
    /// <summary>Socket option CONNECT_ROUTING_ID.</summary>
    public const int ZMQ_CONNECT_ROUTING_ID = (int)SocketOption.Connect_Routing_Id;
    /// <summary>Socket option GSSAPI_SERVER.</summary>
    public const int ZMQ_GSSAPI_SERVER = (int)SocketOption.Gssapi_Server;
    /// <summary>Socket option GSSAPI_PRINCIPAL.</summary>
    public const int ZMQ_GSSAPI_PRINCIPAL = (int)SocketOption.Gssapi_Principal;
    /// <summary>Socket option GSSAPI_SERVICE_PRINCIPAL.</summary>
    public const int ZMQ_GSSAPI_SERVICE_PRINCIPAL = (int)SocketOption.Gssapi_Service_Principal;
    /// <summary>Socket option GSSAPI_PLAINTEXT.</summary>
    public const int ZMQ_GSSAPI_PLAINTEXT = (int)SocketOption.Gssapi_Plaintext;
    /// <summary>Socket option HANDSHAKE_IVL.</summary>
    public const int ZMQ_HANDSHAKE_IVL = (int)SocketOption.Handshake_Ivl;
    /// <summary>Socket option SOCKS_PROXY.</summary>
    public const int ZMQ_SOCKS_PROXY = (int)SocketOption.Socks_Proxy;
    /// <summary>Socket option XPUB_NODROP.</summary>
    public const int ZMQ_XPUB_NODROP = (int)SocketOption.Xpub_Nodrop;
    /// <summary>Socket option BLOCKY.</summary>
    public const int ZMQ_BLOCKY = (int)SocketOption.Blocky;
    /// <summary>Socket option XPUB_MANUAL.</summary>
    public const int ZMQ_XPUB_MANUAL = (int)SocketOption.Xpub_Manual;
    /// <summary>Socket option XPUB_WELCOME_MSG.</summary>
    public const int ZMQ_XPUB_WELCOME_MSG = (int)SocketOption.Xpub_Welcome_Msg;
    /// <summary>Socket option STREAM_NOTIFY.</summary>
    public const int ZMQ_STREAM_NOTIFY = (int)SocketOption.Stream_Notify;
    /// <summary>Socket option INVERT_MATCHING.</summary>
    public const int ZMQ_INVERT_MATCHING = (int)SocketOption.Invert_Matching;
    /// <summary>Socket option HEARTBEAT_IVL.</summary>
    public const int ZMQ_HEARTBEAT_IVL = (int)SocketOption.Heartbeat_Ivl;
    /// <summary>Socket option HEARTBEAT_TTL.</summary>
    public const int ZMQ_HEARTBEAT_TTL = (int)SocketOption.Heartbeat_Ttl;
    /// <summary>Socket option HEARTBEAT_TIMEOUT.</summary>
    public const int ZMQ_HEARTBEAT_TIMEOUT = (int)SocketOption.Heartbeat_Timeout;
    /// <summary>Socket option XPUB_VERBOSER.</summary>
    public const int ZMQ_XPUB_VERBOSER = (int)SocketOption.Xpub_Verboser;
    /// <summary>Socket option CONNECT_TIMEOUT.</summary>
    public const int ZMQ_CONNECT_TIMEOUT = (int)SocketOption.Connect_Timeout;
    /// <summary>Socket option TCP_MAXRT.</summary>
    public const int ZMQ_TCP_MAXRT = (int)SocketOption.Tcp_Maxrt;
    /// <summary>Socket option THREAD_SAFE.</summary>
    public const int ZMQ_THREAD_SAFE = (int)SocketOption.Thread_Safe;
    /// <summary>Socket option MULTICAST_MAXTPDU.</summary>
    public const int ZMQ_MULTICAST_MAXTPDU = (int)SocketOption.Multicast_Maxtpdu;
    /// <summary>Socket option VMCI_BUFFER_SIZE.</summary>
    public const int ZMQ_VMCI_BUFFER_SIZE = (int)SocketOption.Vmci_Buffer_Size;
    /// <summary>Socket option VMCI_BUFFER_MIN_SIZE.</summary>
    public const int ZMQ_VMCI_BUFFER_MIN_SIZE = (int)SocketOption.Vmci_Buffer_Min_Size;
    /// <summary>Socket option VMCI_BUFFER_MAX_SIZE.</summary>
    public const int ZMQ_VMCI_BUFFER_MAX_SIZE = (int)SocketOption.Vmci_Buffer_Max_Size;
    /// <summary>Socket option VMCI_CONNECT_TIMEOUT.</summary>
    public const int ZMQ_VMCI_CONNECT_TIMEOUT = (int)SocketOption.Vmci_Connect_Timeout;
    /// <summary>Socket option USE_FD.</summary>
    public const int ZMQ_USE_FD = (int)SocketOption.Use_Fd;
    /// <summary>Socket option GSSAPI_PRINCIPAL_NAMETYPE.</summary>
    public const int ZMQ_GSSAPI_PRINCIPAL_NAMETYPE = (int)SocketOption.Gssapi_Principal_Nametype;
    /// <summary>Socket option GSSAPI_SERVICE_PRINCIPAL_NAMETYPE.</summary>
    public const int ZMQ_GSSAPI_SERVICE_PRINCIPAL_NAMETYPE = (int)SocketOption.Gssapi_Service_Principal_Nametype;
    /// <summary>Socket option BINDTODEVICE.</summary>
    public const int ZMQ_BINDTODEVICE = (int)SocketOption.Bindtodevice;

    /// <summary>Socket option METADATA.</summary>
    public const int ZMQ_METADATA = (int)SocketOption.Metadata;

    /// <summary>Socket option MULTICAST_LOOP (libzmq draft).</summary>
    public const int ZMQ_MULTICAST_LOOP = (int)SocketOption.Multicast_Loop;

    /// <summary>Socket option SOCKS_USERNAME.</summary>
    public const int ZMQ_SOCKS_USERNAME = (int)SocketOption.Socks_Username;

    /// <summary>Socket option SOCKS_PASSWORD.</summary>
    public const int ZMQ_SOCKS_PASSWORD = (int)SocketOption.Socks_Password;

    /// <summary>Socket option WSS_KEY_PEM.</summary>
    public const int ZMQ_WSS_KEY_PEM = (int)SocketOption.Wss_Key_Pem;

    /// <summary>Socket option WSS_CERT_PEM.</summary>
    public const int ZMQ_WSS_CERT_PEM = (int)SocketOption.Wss_Cert_Pem;

    /// <summary>Socket option WSS_TRUST_PEM.</summary>
    public const int ZMQ_WSS_TRUST_PEM = (int)SocketOption.Wss_Trust_Pem;

    /// <summary>Socket option WSS_HOSTNAME.</summary>
    public const int ZMQ_WSS_HOSTNAME = (int)SocketOption.Wss_Hostname;

    /// <summary>Socket option WSS_TRUST_SYSTEM.</summary>
    public const int ZMQ_WSS_TRUST_SYSTEM = (int)SocketOption.Wss_Trust_System;

    /// <summary>Send/receive flag DONTWAIT.</summary>
    public const int ZMQ_DONTWAIT = 1;
    /// <summary>Send/receive flag SNDMORE.</summary>
    public const int ZMQ_SNDMORE = 2;
    /// <summary>Poll event POLLIN.</summary>
    public const int ZMQ_POLLIN = (int)PollEvents.In;
    /// <summary>Poll event POLLOUT.</summary>
    public const int ZMQ_POLLOUT = (int)PollEvents.Out;
    /// <summary>Poll event POLLERR.</summary>
    public const int ZMQ_POLLERR = (int)PollEvents.Err;
    /// <summary>Poll event POLLPRI.</summary>
    public const int ZMQ_POLLPRI = (int)PollEvents.Pri;
    /// <summary>Message property MORE.</summary>
    public const int ZMQ_MORE = 1;
    /// <summary>Message property SHARED.</summary>
    public const int ZMQ_SHARED = 3;
    /// <summary>Security mechanism NULL.</summary>
    public const int ZMQ_NULL = 0;
    /// <summary>Security mechanism PLAIN.</summary>
    public const int ZMQ_PLAIN = 1;
    /// <summary>Security mechanism CURVE.</summary>
    public const int ZMQ_CURVE = 2;
    /// <summary>Security mechanism GSSAPI.</summary>
    public const int ZMQ_GSSAPI = 3;

    /// <summary>Error number for "would block": 35 on macOS, 11 elsewhere, as the OS defines EAGAIN.</summary>
    public static readonly int EAGAIN = OperatingSystem.IsMacOS() ? 35 : 11;
    /// <summary>Error number ENOTSUP.</summary>
    public const int ENOTSUP = 95;
    /// <summary>Error number EPROTONOSUPPORT.</summary>
    public const int EPROTONOSUPPORT = 93;
    /// <summary>Error number ENOBUFS.</summary>
    public const int ENOBUFS = 105;
    /// <summary>Error number ENETDOWN.</summary>
    public const int ENETDOWN = 100;
    /// <summary>Error number EADDRINUSE.</summary>
    public const int EADDRINUSE = 98;
    /// <summary>Error number EADDRNOTAVAIL.</summary>
    public const int EADDRNOTAVAIL = 99;
    /// <summary>Error number ECONNREFUSED.</summary>
    public const int ECONNREFUSED = 111;
    /// <summary>Error number EINPROGRESS.</summary>
    public const int EINPROGRESS = 115;
    /// <summary>Error number ENOTSOCK.</summary>
    public const int ENOTSOCK = 88;
    /// <summary>Error number EMSGSIZE.</summary>
    public const int EMSGSIZE = 90;
    /// <summary>Error number EAFNOSUPPORT.</summary>
    public const int EAFNOSUPPORT = 97;
    /// <summary>Error number ENETUNREACH.</summary>
    public const int ENETUNREACH = 101;
    /// <summary>Error number ECONNABORTED.</summary>
    public const int ECONNABORTED = 103;
    /// <summary>Error number ECONNRESET.</summary>
    public const int ECONNRESET = 104;
    /// <summary>Error number ENOTCONN.</summary>
    public const int ENOTCONN = 107;
    /// <summary>Error number ETIMEDOUT.</summary>
    public const int ETIMEDOUT = 110;
    /// <summary>Error number EHOSTUNREACH.</summary>
    public const int EHOSTUNREACH = 113;
    /// <summary>Error number ENETRESET.</summary>
    public const int ENETRESET = 102;
    /// <summary>Base of the ZeroMQ-specific error numbers.</summary>
    public const int ZMQ_HAUSNUMERO = 156384712;
    /// <summary>Error number ETERM.</summary>
    public const int ETERM = ZMQ_HAUSNUMERO + 53;
    /// <summary>Error number ENOENT.</summary>
    public const int ENOENT = 2;
    /// <summary>Error number EINTR.</summary>
    public const int EINTR = 4;
    /// <summary>Error number EACCES.</summary>
    public const int EACCES = 13;
    /// <summary>Error number EFAULT.</summary>
    public const int EFAULT = 14;
    /// <summary>Error number EINVAL.</summary>
    public const int EINVAL = 22;
    /// <summary>Error number EMFILE.</summary>
    public const int EMFILE = 24;
    /// <summary>Error number EBUFFERSMALL.</summary>
    public const int EBUFFERSMALL = ZMQ_HAUSNUMERO + 100;
    /// <summary>Error number ESIZEMISMATCH.</summary>
    public const int ESIZEMISMATCH = ZMQ_HAUSNUMERO + 101;
    /// <summary>Error number EFSM.</summary>
    public const int EFSM = ZMQ_HAUSNUMERO + 51;
    /// <summary>Error number ENOCOMPATPROTO.</summary>
    public const int ENOCOMPATPROTO = ZMQ_HAUSNUMERO + 52;
    /// <summary>Error number EMTHREAD.</summary>
    public const int EMTHREAD = ZMQ_HAUSNUMERO + 54;
    /// <summary>Error number ENODEV.</summary>
    public const int ENODEV = 19;
    /// <summary>Error number ENAMETOOLONG: an ipc:// path longer than a Unix-domain socket address holds, as libzmq reports it.</summary>
    public const int ENAMETOOLONG = 36;

    /// <summary>Monitor event mask bit CONNECTED.</summary>
    public const int ZMQ_EVENT_CONNECTED = (int)SocketMonitorEvent.Connected;
    /// <summary>Monitor event mask bit CONNECT_DELAYED.</summary>
    public const int ZMQ_EVENT_CONNECT_DELAYED = (int)SocketMonitorEvent.ConnectDelayed;
    /// <summary>Monitor event mask bit CONNECT_RETRIED.</summary>
    public const int ZMQ_EVENT_CONNECT_RETRIED = (int)SocketMonitorEvent.ConnectRetried;
    /// <summary>Monitor event mask bit LISTENING.</summary>
    public const int ZMQ_EVENT_LISTENING = (int)SocketMonitorEvent.Listening;
    /// <summary>Monitor event mask bit BIND_FAILED.</summary>
    public const int ZMQ_EVENT_BIND_FAILED = (int)SocketMonitorEvent.BindFailed;
    /// <summary>Monitor event mask bit ACCEPTED.</summary>
    public const int ZMQ_EVENT_ACCEPTED = (int)SocketMonitorEvent.Accepted;
    /// <summary>Monitor event mask bit ACCEPT_FAILED.</summary>
    public const int ZMQ_EVENT_ACCEPT_FAILED = (int)SocketMonitorEvent.AcceptFailed;
    /// <summary>Monitor event mask bit CLOSED.</summary>
    public const int ZMQ_EVENT_CLOSED = (int)SocketMonitorEvent.Closed;
    /// <summary>Monitor event mask bit CLOSE_FAILED.</summary>
    public const int ZMQ_EVENT_CLOSE_FAILED = (int)SocketMonitorEvent.CloseFailed;
    /// <summary>Monitor event mask bit DISCONNECTED.</summary>
    public const int ZMQ_EVENT_DISCONNECTED = (int)SocketMonitorEvent.Disconnected;
    /// <summary>Monitor event mask bit MONITOR_STOPPED.</summary>
    public const int ZMQ_EVENT_MONITOR_STOPPED = (int)SocketMonitorEvent.MonitorStopped;
    /// <summary>Monitor mask selecting every event.</summary>
    public const int ZMQ_EVENT_ALL = (int)SocketMonitorEvent.All;

    /// <summary>Monitor value for the handshake failure ZMTP_UNSPECIFIED.</summary>
    public const int ZMQ_PROTOCOL_ERROR_ZMTP_UNSPECIFIED = 0x10000000;
    /// <summary>Monitor value for the handshake failure ZMTP_UNEXPECTED_COMMAND.</summary>
    public const int ZMQ_PROTOCOL_ERROR_ZMTP_UNEXPECTED_COMMAND = 0x10000001;
    /// <summary>Monitor value for the handshake failure ZMTP_INVALID_SEQUENCE.</summary>
    public const int ZMQ_PROTOCOL_ERROR_ZMTP_INVALID_SEQUENCE = 0x10000002;
    /// <summary>Monitor value for the handshake failure ZMTP_KEY_EXCHANGE.</summary>
    public const int ZMQ_PROTOCOL_ERROR_ZMTP_KEY_EXCHANGE = 0x10000003;
    /// <summary>Monitor value for the handshake failure ZMTP_MALFORMED_COMMAND_UNSPECIFIED.</summary>
    public const int ZMQ_PROTOCOL_ERROR_ZMTP_MALFORMED_COMMAND_UNSPECIFIED = 0x10000011;
    /// <summary>Monitor value for the handshake failure ZMTP_MALFORMED_COMMAND_MESSAGE.</summary>
    public const int ZMQ_PROTOCOL_ERROR_ZMTP_MALFORMED_COMMAND_MESSAGE = 0x10000012;
    /// <summary>Monitor value for the handshake failure ZMTP_MALFORMED_COMMAND_HELLO.</summary>
    public const int ZMQ_PROTOCOL_ERROR_ZMTP_MALFORMED_COMMAND_HELLO = 0x10000013;
    /// <summary>Monitor value for the handshake failure ZMTP_MALFORMED_COMMAND_INITIATE.</summary>
    public const int ZMQ_PROTOCOL_ERROR_ZMTP_MALFORMED_COMMAND_INITIATE = 0x10000014;
    /// <summary>Monitor value for the handshake failure ZMTP_MALFORMED_COMMAND_ERROR.</summary>
    public const int ZMQ_PROTOCOL_ERROR_ZMTP_MALFORMED_COMMAND_ERROR = 0x10000015;
    /// <summary>Monitor value for the handshake failure ZMTP_MALFORMED_COMMAND_READY.</summary>
    public const int ZMQ_PROTOCOL_ERROR_ZMTP_MALFORMED_COMMAND_READY = 0x10000016;
    /// <summary>Monitor value for the handshake failure ZMTP_MALFORMED_COMMAND_WELCOME.</summary>
    public const int ZMQ_PROTOCOL_ERROR_ZMTP_MALFORMED_COMMAND_WELCOME = 0x10000017;
    /// <summary>Monitor value for the handshake failure ZMTP_INVALID_METADATA.</summary>
    public const int ZMQ_PROTOCOL_ERROR_ZMTP_INVALID_METADATA = 0x10000018;
    /// <summary>Monitor value for the handshake failure ZMTP_CRYPTOGRAPHIC.</summary>
    public const int ZMQ_PROTOCOL_ERROR_ZMTP_CRYPTOGRAPHIC = 0x11000001;
    /// <summary>Monitor value for the handshake failure ZMTP_MECHANISM_MISMATCH.</summary>
    public const int ZMQ_PROTOCOL_ERROR_ZMTP_MECHANISM_MISMATCH = 0x11000002;
    /// <summary>Monitor value for the handshake failure ZAP_UNSPECIFIED.</summary>
    public const int ZMQ_PROTOCOL_ERROR_ZAP_UNSPECIFIED = 0x20000000;
    /// <summary>Monitor value for the handshake failure ZAP_MALFORMED_REPLY.</summary>
    public const int ZMQ_PROTOCOL_ERROR_ZAP_MALFORMED_REPLY = 0x20000001;
    /// <summary>Monitor value for the handshake failure ZAP_BAD_REQUEST_ID.</summary>
    public const int ZMQ_PROTOCOL_ERROR_ZAP_BAD_REQUEST_ID = 0x20000002;
    /// <summary>Monitor value for the handshake failure ZAP_BAD_VERSION.</summary>
    public const int ZMQ_PROTOCOL_ERROR_ZAP_BAD_VERSION = 0x20000003;
    /// <summary>Monitor value for the handshake failure ZAP_INVALID_STATUS_CODE.</summary>
    public const int ZMQ_PROTOCOL_ERROR_ZAP_INVALID_STATUS_CODE = 0x20000004;
    /// <summary>Monitor value for the handshake failure ZAP_INVALID_METADATA.</summary>
    public const int ZMQ_PROTOCOL_ERROR_ZAP_INVALID_METADATA = 0x20000005;
    /// <summary>Monitor value for the handshake failure WS_UNSPECIFIED.</summary>
    public const int ZMQ_PROTOCOL_ERROR_WS_UNSPECIFIED = 0x30000000;
}
