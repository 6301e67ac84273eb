
using Managed.Zmq.Options;
using Managed.Zmq.Wire;

namespace Managed.Zmq.Tests.Options;

/// <summary>
/// The typed properties the engine and patterns read must show what the raw accessors stored, and snapshots taken for
/// a connection must not see later changes.
/// </summary>
public sealed class SocketOptionsTypedReadTests
{
    private static readonly Dictionary<string, Func<SocketOptions, long>> s_properties = new()
    {
        ["Affinity"] = o => o.Affinity,
        ["Sndbuf"] = o => o.SendBufferSize,
        ["Rcvbuf"] = o => o.ReceiveBufferSize,
        ["Linger"] = o => o.Linger,
        ["Reconnect_Ivl"] = o => o.ReconnectInterval,
        ["Backlog"] = o => o.Backlog,
        ["Reconnect_Ivl_Max"] = o => o.ReconnectIntervalMax,
        ["Maxmsgsize"] = o => o.MaxMessageSize,
        ["Sndhwm"] = o => o.SendHwm,
        ["Rcvhwm"] = o => o.ReceiveHwm,
        ["Rcvtimeo"] = o => o.ReceiveTimeout,
        ["Sndtimeo"] = o => o.SendTimeout,
        ["Router_Mandatory"] = o => o.RouterMandatory ? 1 : 0,
        ["Tcp_Keepalive"] = o => o.TcpKeepalive,
        ["Tcp_Keepalive_Cnt"] = o => o.TcpKeepaliveCount,
        ["Tcp_Keepalive_Idle"] = o => o.TcpKeepaliveIdle,
        ["Tcp_Keepalive_Intvl"] = o => o.TcpKeepaliveInterval,
        ["Immediate"] = o => o.Immediate ? 1 : 0,
        ["Xpub_Verbose"] = o => o.XpubVerbose ? 1 : 0,
        ["Router_Raw"] = o => o.RouterRaw ? 1 : 0,
        ["Ipv6"] = o => o.Ipv6 ? 1 : 0,
        ["Probe_Router"] = o => o.ProbeRouter ? 1 : 0,
        ["Req_Correlate"] = o => o.ReqCorrelate ? 1 : 0,
        ["Req_Relaxed"] = o => o.ReqRelaxed ? 1 : 0,
        ["Conflate"] = o => o.Conflate ? 1 : 0,
        ["Router_Handover"] = o => o.RouterHandover ? 1 : 0,
        ["Tos"] = o => o.TypeOfService,
        ["Handshake_Ivl"] = o => o.HandshakeInterval,
        ["Xpub_Nodrop"] = o => o.XpubNodrop ? 1 : 0,
        ["Xpub_Manual"] = o => o.XpubManual ? 1 : 0,
        ["Stream_Notify"] = o => o.StreamNotify ? 1 : 0,
        ["Invert_Matching"] = o => o.InvertMatching ? 1 : 0,
        ["Heartbeat_Ivl"] = o => o.HeartbeatInterval,
        ["Heartbeat_Ttl"] = o => o.HeartbeatTtl,
        ["Xpub_Verboser"] = o => o.XpubVerboser ? 1 : 0,
        ["Connect_Timeout"] = o => o.ConnectTimeout,
        ["Tcp_Maxrt"] = o => o.TcpMaxRetransmitTimeout,
        ["Use_Fd"] = o => o.UseFd,
        ["Wss_Trust_System"] = o => o.WssTrustSystem ? 1 : 0,
    };

    public static TheoryData<string> Properties => [.. s_properties.Keys];

    [Theory]
    [MemberData(nameof(Properties))]
    public void TypedProperty_NewSocket_ShowsDefault(string name)
    {
        IntegerOptionCase row = IntegerOptionCases.Get(name);
        var options = new SocketOptions(row.SocketType, ipv6Default: false);

        Assert.Equal(AsProperty(row, row.Default), s_properties[name](options));
    }

    [Theory]
    [MemberData(nameof(Properties))]
    public void TypedProperty_AfterEachSample_ShowsStoredValue(string name)
    {
        IntegerOptionCase row = IntegerOptionCases.Get(name);
        var options = new SocketOptions(row.SocketType, ipv6Default: false);

        foreach (long value in row.Samples)
        {
            Assert.Equal(OptionStatus.Ok, options.SetInteger(row.Option, row.Width, value));
            Assert.Equal(AsProperty(row, row.ReadBack(value)), s_properties[name](options));
        }
    }

    [Fact]
    public void Clone_LaterChanges_DoNotReachSnapshot()
    {
        var options = new SocketOptions(SocketType.Router, ipv6Default: true);
        options.SetInt32(OptionId.SendHwm, 10);
        options.TrySet(OptionId.RoutingId, "before"u8);
        options.SetText(OptionId.PlainUsername, "user");

        SocketOptions snapshot = options.Clone();
        options.SetInt32(OptionId.SendHwm, 20);
        options.TrySet(OptionId.RoutingId, "after"u8);
        options.SetInt32(OptionId.CurveServer, 1);

        Assert.Equal(SocketType.Router, snapshot.SocketType);
        Assert.True(snapshot.Ipv6);
        Assert.Equal(10, snapshot.SendHwm);
        Assert.Equal("before"u8.ToArray(), snapshot.RoutingId.ToArray());
        Assert.Equal(ZmtpMechanism.Plain, snapshot.Mechanism);
        Assert.Equal("user"u8.ToArray(), snapshot.PlainUsername.ToArray());
        Assert.Equal(20, options.SendHwm);
        Assert.Equal(ZmtpMechanism.Curve, options.Mechanism);
    }

    /// <summary>Boolean properties show "non-zero", so the expected value collapses to 0/1 for them.</summary>
    private static long AsProperty(IntegerOptionCase row, long value)
    {
        bool isFlag = row.Name is "Router_Mandatory" or "Immediate" or "Xpub_Verbose" or "Router_Raw" or "Ipv6"
            or "Probe_Router" or "Req_Correlate" or "Req_Relaxed" or "Conflate" or "Router_Handover" or "Xpub_Nodrop"
            or "Xpub_Manual" or "Stream_Notify" or "Invert_Matching" or "Xpub_Verboser";
        return isFlag ? (value != 0 ? 1 : 0) : value;
    }
}
