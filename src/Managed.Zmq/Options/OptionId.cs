
namespace Managed.Zmq.Options;

/// <summary>
/// Socket option numbers, numbered as libzmq 4.3 numbers them in zmq.h (docs/options.md gives each number).
/// </summary>
/// <remarks>
/// The public <c>SocketOption</c> enum uses the same values, so the socket passes <c>(int)option</c> straight through.
/// Numbers not listed here (10, 20, 26, 29–31, 38, 58–60, 67, 82, 83, 93 and up) are not socket options of this build,
/// except this library's own options, numbered from <see cref="OwnBase"/>. Storage indexes them after libzmq's
/// (<see cref="StorageIndex"/>), so the per-number tables grow by one row per option of ours, not by the gap.
/// </remarks>
internal static class OptionId
{
    public const int Affinity = 4;
    public const int RoutingId = 5;
    public const int Subscribe = 6;
    public const int Unsubscribe = 7;
    public const int Rate = 8;
    public const int RecoveryInterval = 9;
    public const int SendBuffer = 11;
    public const int ReceiveBuffer = 12;
    public const int ReceiveMore = 13;
    public const int Fd = 14;
    public const int Events = 15;
    public const int Type = 16;
    public const int Linger = 17;
    public const int ReconnectInterval = 18;
    public const int Backlog = 19;
    public const int ReconnectIntervalMax = 21;
    public const int MaxMessageSize = 22;
    public const int SendHwm = 23;
    public const int ReceiveHwm = 24;
    public const int MulticastHops = 25;
    public const int ReceiveTimeout = 27;
    public const int SendTimeout = 28;
    public const int LastEndpoint = 32;
    public const int RouterMandatory = 33;
    public const int TcpKeepalive = 34;
    public const int TcpKeepaliveCount = 35;
    public const int TcpKeepaliveIdle = 36;
    public const int TcpKeepaliveInterval = 37;
    public const int Immediate = 39;
    public const int XpubVerbose = 40;
    public const int RouterRaw = 41;
    public const int Ipv6 = 42;
    public const int Mechanism = 43;
    public const int PlainServer = 44;
    public const int PlainUsername = 45;
    public const int PlainPassword = 46;
    public const int CurveServer = 47;
    public const int CurvePublicKey = 48;
    public const int CurveSecretKey = 49;
    public const int CurveServerKey = 50;
    public const int ProbeRouter = 51;
    public const int ReqCorrelate = 52;
    public const int ReqRelaxed = 53;
    public const int Conflate = 54;
    public const int ZapDomain = 55;
    public const int RouterHandover = 56;
    public const int TypeOfService = 57;
    public const int ConnectRoutingId = 61;
    public const int GssapiServer = 62;
    public const int GssapiPrincipal = 63;
    public const int GssapiServicePrincipal = 64;
    public const int GssapiPlaintext = 65;
    public const int HandshakeInterval = 66;
    public const int SocksProxy = 68;
    public const int XpubNodrop = 69;
    public const int Blocky = 70;
    public const int XpubManual = 71;
    public const int XpubWelcomeMessage = 72;
    public const int StreamNotify = 73;
    public const int InvertMatching = 74;
    public const int HeartbeatInterval = 75;
    public const int HeartbeatTtl = 76;
    public const int HeartbeatTimeout = 77;
    public const int XpubVerboser = 78;
    public const int ConnectTimeout = 79;
    public const int TcpMaxRetransmitTimeout = 80;
    public const int ThreadSafe = 81;
    public const int MulticastMaxTpdu = 84;
    public const int VmciBufferSize = 85;
    public const int VmciBufferMinSize = 86;
    public const int VmciBufferMaxSize = 87;
    public const int VmciConnectTimeout = 88;
    public const int UseFd = 89;
    public const int GssapiPrincipalNameType = 90;
    public const int GssapiServicePrincipalNameType = 91;
    public const int BindToDevice = 92;
    public const int Metadata = 95;
    public const int SocksUsername = 99;
    public const int SocksPassword = 100;

    /// <summary>One past the highest option number; sizes the per-number tables.</summary>
    public const int Count = 101;

    /// <summary>
    /// The first number of this library's own options. libzmq numbers its options densely from 1 and its draft
    /// options stay below 200, so numbers from 10,000 stay clear of every number libzmq has or is likely to take,
    /// and libzmq's setsockopt refuses them with EINVAL: code written against both libraries fails loudly there.
    /// </summary>
    public const int OwnBase = 10_000;

    /// <summary>Managed.Zmq's own: the most accepted connections a socket keeps open at once (<c>SocketOption.Max_Connections</c>).</summary>
    public const int MaxConnections = OwnBase;

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

    /// <summary>Mechanism values as reported by <see cref="Mechanism"/>.</summary>
    public const int MechanismNull = 0;
    public const int MechanismPlain = 1;
    public const int MechanismCurve = 2;
}
