namespace Managed.Zmq.Options;

/// <summary>
/// Typed reads for the engine, transports and patterns. They neither validate nor allocate: every value was
/// validated when it was written, and text was decoded then.
/// </summary>
internal sealed partial class SocketOptions
{
    public int SendHwm => (int)_scalars[OptionId.SendHwm];

    public int ReceiveHwm => (int)_scalars[OptionId.ReceiveHwm];

    public int Linger => (int)_scalars[OptionId.Linger];

    /// <summary>Multicast_Hops: the TTL of a udp RADIO's multicast datagrams, as libzmq's udp engine sets it.</summary>
    public int MulticastHops => (int)_scalars[OptionId.MulticastHops];

    /// <summary>Multicast_Loop: whether a udp RADIO's multicast datagrams loop back to this host (any non-zero value).</summary>
    public bool MulticastLoop => _scalars[OptionId.MulticastLoop] != 0;

    public int ReconnectInterval => (int)_scalars[OptionId.ReconnectInterval];

    public int ReconnectIntervalMax => (int)_scalars[OptionId.ReconnectIntervalMax];

    public int Backlog => (int)_scalars[OptionId.Backlog];

    public int ReceiveTimeout => (int)_scalars[OptionId.ReceiveTimeout];

    public int SendTimeout => (int)_scalars[OptionId.SendTimeout];

    public int HandshakeInterval => (int)_scalars[OptionId.HandshakeInterval];

    public int HeartbeatInterval => (int)_scalars[OptionId.HeartbeatInterval];

    /// <summary>Milliseconds, already rounded down to a multiple of 100 (the PING field counts deciseconds).</summary>
    public int HeartbeatTtl => (int)_scalars[OptionId.HeartbeatTtl];

    /// <summary>The timeout in effect: Heartbeat_Timeout if it was set, otherwise the heartbeat interval.</summary>
    public int HeartbeatTimeout
    {
        get
        {
            int timeout = (int)_scalars[OptionId.HeartbeatTimeout];
            return timeout == -1 ? HeartbeatInterval : timeout;
        }
    }

    public int ConnectTimeout => (int)_scalars[OptionId.ConnectTimeout];

    public int TcpKeepalive => (int)_scalars[OptionId.TcpKeepalive];

    public int TcpKeepaliveCount => (int)_scalars[OptionId.TcpKeepaliveCount];

    public int TcpKeepaliveIdle => (int)_scalars[OptionId.TcpKeepaliveIdle];

    public int TcpKeepaliveInterval => (int)_scalars[OptionId.TcpKeepaliveInterval];

    public int TcpMaxRetransmitTimeout => (int)_scalars[OptionId.TcpMaxRetransmitTimeout];

    public bool Immediate => _scalars[OptionId.Immediate] != 0;

    public bool Ipv6 => _scalars[OptionId.Ipv6] != 0;

    public bool RouterMandatory => _scalars[OptionId.RouterMandatory] != 0;

    public bool RouterRaw => _scalars[OptionId.RouterRaw] != 0;

    public bool RouterHandover => _scalars[OptionId.RouterHandover] != 0;

    public bool ProbeRouter => _scalars[OptionId.ProbeRouter] != 0;

    public bool ReqCorrelate => _scalars[OptionId.ReqCorrelate] != 0;

    public bool ReqRelaxed => _scalars[OptionId.ReqRelaxed] != 0;

    public bool Conflate => _scalars[OptionId.Conflate] != 0;

    /// <summary>Pass every subscribe message upstream, duplicates included.</summary>
    public bool XpubVerbose => _scalars[OptionId.XpubVerbose] != 0;

    /// <summary>Pass every unsubscribe message upstream too. Setting Xpub_Verbose clears it, as libzmq does.</summary>
    public bool XpubVerboser => _scalars[OptionId.XpubVerboser] != 0;

    public bool XpubNodrop => _scalars[OptionId.XpubNodrop] != 0;

    public bool XpubManual => _scalars[OptionId.XpubManual] != 0;

    public bool InvertMatching => _scalars[OptionId.InvertMatching] != 0;

    public bool StreamNotify => _scalars[OptionId.StreamNotify] != 0;

    public int SendBufferSize => (int)_scalars[OptionId.SendBuffer];

    public int ReceiveBufferSize => (int)_scalars[OptionId.ReceiveBuffer];

    public int TypeOfService => (int)_scalars[OptionId.TypeOfService];

    public long MaxMessageSize => _scalars[OptionId.MaxMessageSize];

    public long Affinity => _scalars[OptionId.Affinity];

    public int UseFd => (int)_scalars[OptionId.UseFd];

    /// <summary>Max_Connections: the most accepted connections open at once, or -1 for no cap.</summary>
    public int MaxConnections => (int)_scalars[OptionId.Count + (OptionId.MaxConnections - OptionId.OwnBase)];

    /// <summary>Empty when none is set; then peers see an anonymous connection.</summary>
    public ReadOnlySpan<byte> RoutingId => _blobs[OptionTable.RoutingIdSlot];

    /// <summary>The welcome message for new subscribers, or null when none is set (or it was cleared with an empty value).</summary>
    public byte[]? XpubWelcomeMessage => _blobs[OptionTable.XpubWelcomeMessageSlot];

    // The octets as set, not their text: libzmq sends them as they are, and they need not be UTF-8.
    public ReadOnlySpan<byte> ZapDomain => _blobs[OptionTable.ZapDomainSlot];

    public ReadOnlySpan<byte> PlainUsername => _blobs[OptionTable.PlainUsernameSlot];

    public ReadOnlySpan<byte> PlainPassword => _blobs[OptionTable.PlainPasswordSlot];

    public string SocksProxy => _texts[OptionTable.SocksProxySlot];

    /// <summary>Empty when none is set; then the SOCKS client offers only "no authentication", as libzmq does.</summary>
    public ReadOnlySpan<byte> SocksUsername => _blobs[OptionTable.SocksUsernameSlot];

    public ReadOnlySpan<byte> SocksPassword => _blobs[OptionTable.SocksPasswordSlot];

    public string BindToDevice => _texts[OptionTable.BindToDeviceSlot];

    public ReadOnlySpan<byte> CurvePublicKey => _blobs[OptionTable.CurvePublicKeySlot];

    public ReadOnlySpan<byte> CurveSecretKey => _blobs[OptionTable.CurveSecretKeySlot];

    public ReadOnlySpan<byte> CurveServerKey => _blobs[OptionTable.CurveServerKeySlot];
}
