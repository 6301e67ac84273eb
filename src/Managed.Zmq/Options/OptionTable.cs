using Managed.Zmq.Internal;
using Managed.Zmq.Wire;

namespace Managed.Zmq.Options;

/// <summary>
/// The socket option table (docs/options.md lists every option and its status): kind, access, range, default and socket-type restriction of every option
/// number, in one place, so that <see cref="SocketOptions"/> validates every access with the same code.
/// </summary>
/// <remarks>
/// Ranges and defaults are libzmq 4.3's. For byte-valued options Min/Max are lengths in bytes.
/// Numbers without a row are <see cref="OptionKind.Unsupported"/>: EINVAL both ways.
/// </remarks>
internal static class OptionTable
{
    // Slots of the byte-valued storage. Text options come first so their decoded copies fit a short array.
    public const int ZapDomainSlot = 0;
    public const int PlainUsernameSlot = 1;
    public const int PlainPasswordSlot = 2;
    public const int SocksProxySlot = 3;
    public const int BindToDeviceSlot = 4;
    public const int SocksUsernameSlot = 5;
    public const int SocksPasswordSlot = 6;
    public const int TextSlotCount = 7;
    public const int RoutingIdSlot = 7;
    public const int ConnectRoutingIdSlot = 8;
    public const int XpubWelcomeMessageSlot = 9;
    public const int CurvePublicKeySlot = 10;
    public const int CurveSecretKeySlot = 11;
    public const int CurveServerKeySlot = 12;
    public const int WssKeyPemSlot = 13;
    public const int WssCertPemSlot = 14;
    public const int WssTrustPemSlot = 15;
    public const int WssHostnameSlot = 16;
    public const int BlobSlotCount = 17;

    /// <summary>The length-limited strings are capped at what fits a one-octet length on the wire (routing ids: <see cref="ZmtpReady.MaxIdentityLength"/>).</summary>
    private const int MaxShortLength = 255;

    /// <summary>Linux's IFNAMSIZ, which bounds an interface name including its NUL.</summary>
    private const int MaxDeviceNameLength = 16;

    /// <summary>Heartbeat_Ttl travels in deciseconds in a 16-bit PING field: 65535 × 100 + 99 ms is the largest value that fits.</summary>
    private const int MaxHeartbeatTtl = 6_553_599;

    /// <summary>libzmq checks Heartbeat_Ttl after turning it into whole deciseconds, so -99 to -1 ms pass as 0.</summary>
    private const int MinHeartbeatTtl = -99;

    private static readonly OptionDescriptor s_unsupported =
        new(OptionKind.Unsupported, OptionAccess.None, 0, 0, 0, 0, -1, acceptsWiderBuffer: false);

    private static readonly OptionDescriptor[] s_rows = BuildRows();

    private static readonly long[] s_defaults = BuildDefaults();

    /// <summary>The row for <paramref name="option"/>; an <see cref="OptionKind.Unsupported"/> row for any unknown number.</summary>
    public static ref readonly OptionDescriptor Get(int option)
    {
        int index = OptionId.StorageIndex(option);
        if (index >= 0)
        {
            return ref s_rows[index];
        }

        return ref s_unsupported;
    }

    /// <summary>A fresh copy of the integer defaults, indexed by <see cref="OptionId.StorageIndex"/>.</summary>
    public static long[] CreateDefaultScalars() => (long[])s_defaults.Clone();

    private static OptionDescriptor[] BuildRows()
    {
        var rows = new OptionDescriptor[OptionId.StorageCount];
        rows.AsSpan().Fill(s_unsupported);

        const OptionAccess RW = OptionAccess.ReadWrite;
        const OptionAccess R = OptionAccess.Read;
        const OptionAccess W = OptionAccess.Write;
        const int Max = int.MaxValue;

        uint router = Types(SocketType.Router);
        uint publishers = Types(SocketType.XPub, SocketType.Pub);

        rows[OptionId.Affinity] = Int64(long.MinValue, long.MaxValue, 0); // any uint64 bit mask
        rows[OptionId.RoutingId] = Blob(OptionKind.Bytes, RW, 1, ZmtpReady.MaxIdentityLength, RoutingIdSlot);
        rows[OptionId.Subscribe] = Action(Types(SocketType.Sub, SocketType.XPub));
        rows[OptionId.Unsubscribe] = Action(Types(SocketType.Sub, SocketType.XPub));
        rows[OptionId.Rate] = Int32(1, Max, 100);
        rows[OptionId.RecoveryInterval] = Int32(0, Max, 10_000);
        rows[OptionId.SendBuffer] = Int32(-1, Max, -1);
        rows[OptionId.ReceiveBuffer] = Int32(-1, Max, -1);
        rows[OptionId.ReceiveMore] = Computed(acceptsWiderBuffer: true);
        rows[OptionId.Fd] = Computed(acceptsWiderBuffer: true);
        rows[OptionId.Events] = Computed(acceptsWiderBuffer: true);
        rows[OptionId.Type] = Int32(0, 0, 0, R); // default filled in per socket
        rows[OptionId.Linger] = Int32(-1, Max, -1);
        rows[OptionId.ReconnectInterval] = Int32(-1, Max, 100);
        rows[OptionId.Backlog] = Int32(0, Max, 100);
        rows[OptionId.ReconnectIntervalMax] = Int32(0, Max, 0);
        rows[OptionId.MaxMessageSize] = Int64(long.MinValue, long.MaxValue, -1);
        rows[OptionId.SendHwm] = Int32(0, Max, 1000);
        rows[OptionId.ReceiveHwm] = Int32(0, Max, 1000);
        rows[OptionId.MulticastHops] = Int32(1, Max, 1);
        rows[OptionId.MulticastLoop] = Int32(int.MinValue, Max, 1); // libzmq: int as bool, relaxed (any value, read back as 0 or 1)
        rows[OptionId.ReceiveTimeout] = Int32(-1, Max, -1);
        rows[OptionId.SendTimeout] = Int32(-1, Max, -1);
        rows[OptionId.LastEndpoint] = Computed(acceptsWiderBuffer: false);
        rows[OptionId.RouterMandatory] = Int32(0, Max, 0, W, router);
        rows[OptionId.TcpKeepalive] = Int32(-1, 1, -1);
        rows[OptionId.TcpKeepaliveCount] = Int32(-1, Max, -1);
        rows[OptionId.TcpKeepaliveIdle] = Int32(-1, Max, -1);
        rows[OptionId.TcpKeepaliveInterval] = Int32(-1, Max, -1);
        rows[OptionId.Immediate] = Int32(0, 1, 0);
        rows[OptionId.XpubVerbose] = Int32(0, Max, 0, W, publishers);
        rows[OptionId.RouterRaw] = Int32(0, Max, 0, W, router);
        rows[OptionId.Ipv6] = Int32(0, 1, 0); // default filled in per socket from the context
        rows[OptionId.Mechanism] = Int32(0, 0, ZmqConstants.ZMQ_NULL, R);
        rows[OptionId.PlainServer] = Int32(0, 1, 0);
        rows[OptionId.PlainUsername] = Blob(OptionKind.String, RW, 0, MaxShortLength, PlainUsernameSlot);
        rows[OptionId.PlainPassword] = Blob(OptionKind.String, RW, 0, MaxShortLength, PlainPasswordSlot);
        rows[OptionId.CurveServer] = Int32(0, 1, 0);
        rows[OptionId.CurvePublicKey] = Blob(OptionKind.CurveKey, RW, 0, 0, CurvePublicKeySlot);
        rows[OptionId.CurveSecretKey] = Blob(OptionKind.CurveKey, RW, 0, 0, CurveSecretKeySlot);
        rows[OptionId.CurveServerKey] = Blob(OptionKind.CurveKey, RW, 0, 0, CurveServerKeySlot);
        rows[OptionId.ProbeRouter] = Int32(0, Max, 0, W, Types(SocketType.Router, SocketType.Dealer, SocketType.Req));
        rows[OptionId.ReqCorrelate] = Int32(0, Max, 0, W, Types(SocketType.Req));
        rows[OptionId.ReqRelaxed] = Int32(0, Max, 0, W, Types(SocketType.Req));
        rows[OptionId.Conflate] = Int32(0, 1, 0); // libzmq: int as bool, strict (0 or 1, else EINVAL)
        rows[OptionId.ZapDomain] = Blob(OptionKind.String, RW, 1, MaxShortLength, ZapDomainSlot); // libzmq 4.3.4 refuses an empty domain
        rows[OptionId.RouterHandover] = Int32(0, Max, 0, W, router);
        rows[OptionId.TypeOfService] = Int32(0, Max, 0);
        rows[OptionId.ConnectRoutingId] =
            Blob(OptionKind.Bytes, W, 1, ZmtpReady.MaxIdentityLength, ConnectRoutingIdSlot, Types(SocketType.Router, SocketType.Stream));
        rows[OptionId.HandshakeInterval] = Int32(0, Max, 30_000);
        rows[OptionId.SocksProxy] = Blob(OptionKind.String, RW, 0, Max, SocksProxySlot);
        // libzmq's RADIO takes Xpub_Nodrop too (the only option of its own): a full peer then blocks the send.
        rows[OptionId.XpubNodrop] = Int32(0, Max, 0, W, Types(SocketType.XPub, SocketType.Pub, SocketType.Radio));
        rows[OptionId.XpubManual] = Int32(0, Max, 0, W, publishers);
        rows[OptionId.XpubWelcomeMessage] = Blob(OptionKind.Bytes, W, 0, Max, XpubWelcomeMessageSlot, publishers);
        rows[OptionId.StreamNotify] = Int32(0, 1, 1, W, Types(SocketType.Stream));
        rows[OptionId.InvertMatching] = Int32(int.MinValue, Max, 0); // libzmq: int as bool, relaxed, as Multicast_Loop
        rows[OptionId.HeartbeatInterval] = Int32(0, Max, 0);
        rows[OptionId.HeartbeatTtl] = Int32(MinHeartbeatTtl, MaxHeartbeatTtl, 0);
        rows[OptionId.HeartbeatTimeout] = Int32(0, Max, -1); // -1 is only the default: "same as the interval"
        rows[OptionId.XpubVerboser] = Int32(0, Max, 0, W, publishers);
        rows[OptionId.ConnectTimeout] = Int32(0, Max, 0);
        rows[OptionId.TcpMaxRetransmitTimeout] = Int32(0, Max, 0);
        rows[OptionId.ThreadSafe] = Int32(0, 1, 0, R, acceptsWiderBuffer: true); // 1 for the thread-safe draft types (SocketTypeFacts), set per socket
        rows[OptionId.MulticastMaxTpdu] = Int32(1, Max, 1500);
        rows[OptionId.UseFd] = Int32(-1, Max, -1);
        rows[OptionId.BindToDevice] = Blob(OptionKind.String, RW, 0, MaxDeviceNameLength, BindToDeviceSlot);
        // RFC 1929 §2: username and password each travel with a one-octet length. libzmq 4.3.4 refuses longer ones.
        rows[OptionId.SocksUsername] = Blob(OptionKind.String, RW, 0, MaxShortLength, SocksUsernameSlot);
        rows[OptionId.SocksPassword] = Blob(OptionKind.String, RW, 0, MaxShortLength, SocksPasswordSlot);
        // libzmq takes the wss:// options as they come (checked when a listener or connection uses them) and has no
        // getsockopt for any of them. Wss_Trust_System is a strict boolean there: 0 or 1.
        rows[OptionId.WssKeyPem] = Blob(OptionKind.Bytes, W, 0, Max, WssKeyPemSlot);
        rows[OptionId.WssCertPem] = Blob(OptionKind.Bytes, W, 0, Max, WssCertPemSlot);
        rows[OptionId.WssTrustPem] = Blob(OptionKind.Bytes, W, 0, Max, WssTrustPemSlot);
        rows[OptionId.WssHostname] = Blob(OptionKind.Bytes, W, 0, Max, WssHostnameSlot);
        rows[OptionId.WssTrustSystem] = Int32(0, 1, 0, W);
        rows[OptionId.Metadata] = new(OptionKind.ApplicationProperty, W, 1, Max, 0, OptionDescriptor.AnySocketType, -1, acceptsWiderBuffer: false);

        // Ours: -1 is "no cap"; 0 passes the range and is refused when set (SocketOptions.TrySetScalar).
        rows[OptionId.StorageIndex(OptionId.MaxConnections)] = Int32(-1, Max, Tuning.Accept.DefaultMaxConnections);

        // Gssapi_*, Vmci_* and Blocky keep the Unsupported row: this build has no GSSAPI or VMCI,
        // and Blocky is a context option in libzmq.
        return rows;
    }

    private static long[] BuildDefaults()
    {
        var defaults = new long[OptionId.StorageCount];
        for (int option = 0; option < defaults.Length; option++)
        {
            defaults[option] = s_rows[option].DefaultValue;
        }

        return defaults;
    }

    private static OptionDescriptor Int32(
        int min, int max, int defaultValue, OptionAccess access = OptionAccess.ReadWrite,
        uint socketTypes = OptionDescriptor.AnySocketType, bool acceptsWiderBuffer = false) =>
        new(OptionKind.Int32, access, min, max, defaultValue, socketTypes, -1, acceptsWiderBuffer);

    private static OptionDescriptor Int64(long min, long max, long defaultValue) =>
        new(OptionKind.Int64, OptionAccess.ReadWrite, min, max, defaultValue, OptionDescriptor.AnySocketType, -1, acceptsWiderBuffer: false);

    private static OptionDescriptor Blob(
        OptionKind kind, OptionAccess access, int minLength, int maxLength, int slot,
        uint socketTypes = OptionDescriptor.AnySocketType) =>
        new(kind, access, minLength, maxLength, 0, socketTypes, slot, acceptsWiderBuffer: false);

    private static OptionDescriptor Computed(bool acceptsWiderBuffer) =>
        new(OptionKind.Computed, OptionAccess.Read, 0, 0, 0, OptionDescriptor.AnySocketType, -1, acceptsWiderBuffer);

    private static OptionDescriptor Action(uint socketTypes) =>
        new(OptionKind.Action, OptionAccess.Write, 0, int.MaxValue, 0, socketTypes, -1, acceptsWiderBuffer: false);

    private static uint Types(params ReadOnlySpan<SocketType> socketTypes)
    {
        uint mask = 0;
        foreach (SocketType socketType in socketTypes)
        {
            mask |= 1u << (int)socketType;
        }

        return mask;
    }
}
