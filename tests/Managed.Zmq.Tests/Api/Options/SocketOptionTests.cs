using Managed.Zmq.Options;

namespace Managed.Zmq.Tests.Api.Options;

public class SocketOptionTests
{
    [Theory]
    [InlineData("Affinity", 4)]
    [InlineData("Routing_Id", 5)]
    [InlineData("Subscribe", 6)]
    [InlineData("Unsubscribe", 7)]
    [InlineData("Rate", 8)]
    [InlineData("Recovery_Ivl", 9)]
    [InlineData("Sndbuf", 11)]
    [InlineData("Rcvbuf", 12)]
    [InlineData("Rcvmore", 13)]
    [InlineData("RcvMore", 13)]
    [InlineData("Fd", 14)]
    [InlineData("Events", 15)]
    [InlineData("Type", 16)]
    [InlineData("Linger", 17)]
    [InlineData("Reconnect_Ivl", 18)]
    [InlineData("Backlog", 19)]
    [InlineData("Reconnect_Ivl_Max", 21)]
    [InlineData("Maxmsgsize", 22)]
    [InlineData("Sndhwm", 23)]
    [InlineData("SendHwm", 23)]
    [InlineData("Rcvhwm", 24)]
    [InlineData("Multicast_Hops", 25)]
    [InlineData("Rcvtimeo", 27)]
    [InlineData("RcvTimeout", 27)]
    [InlineData("Sndtimeo", 28)]
    [InlineData("SendTimeout", 28)]
    [InlineData("Last_Endpoint", 32)]
    [InlineData("Router_Mandatory", 33)]
    [InlineData("Tcp_Keepalive", 34)]
    [InlineData("Tcp_Keepalive_Cnt", 35)]
    [InlineData("Tcp_Keepalive_Idle", 36)]
    [InlineData("Tcp_Keepalive_Intvl", 37)]
    [InlineData("Immediate", 39)]
    [InlineData("Xpub_Verbose", 40)]
    [InlineData("Router_Raw", 41)]
    [InlineData("Ipv6", 42)]
    [InlineData("Mechanism", 43)]
    [InlineData("Plain_Server", 44)]
    [InlineData("Plain_Username", 45)]
    [InlineData("Plain_Password", 46)]
    [InlineData("Curve_Server", 47)]
    [InlineData("CurveServer", 47)]
    [InlineData("Curve_Publickey", 48)]
    [InlineData("CurvePublickey", 48)]
    [InlineData("Curve_Secretkey", 49)]
    [InlineData("CurveSecretkey", 49)]
    [InlineData("Curve_Serverkey", 50)]
    [InlineData("CurveServerkey", 50)]
    [InlineData("Probe_Router", 51)]
    [InlineData("Req_Correlate", 52)]
    [InlineData("Req_Relaxed", 53)]
    [InlineData("Conflate", 54)]
    [InlineData("Zap_Domain", 55)]
    [InlineData("Router_Handover", 56)]
    [InlineData("Tos", 57)]
    [InlineData("Connect_Routing_Id", 61)]
    [InlineData("Gssapi_Server", 62)]
    [InlineData("Gssapi_Principal", 63)]
    [InlineData("Gssapi_Service_Principal", 64)]
    [InlineData("Gssapi_Plaintext", 65)]
    [InlineData("Handshake_Ivl", 66)]
    [InlineData("Socks_Proxy", 68)]
    [InlineData("Xpub_Nodrop", 69)]
    [InlineData("Blocky", 70)]
    [InlineData("Xpub_Manual", 71)]
    [InlineData("Xpub_Welcome_Msg", 72)]
    [InlineData("Stream_Notify", 73)]
    [InlineData("Invert_Matching", 74)]
    [InlineData("Heartbeat_Ivl", 75)]
    [InlineData("Heartbeat_Ttl", 76)]
    [InlineData("Heartbeat_Timeout", 77)]
    [InlineData("Xpub_Verboser", 78)]
    [InlineData("Connect_Timeout", 79)]
    [InlineData("Tcp_Maxrt", 80)]
    [InlineData("Thread_Safe", 81)]
    [InlineData("Multicast_Maxtpdu", 84)]
    [InlineData("Vmci_Buffer_Size", 85)]
    [InlineData("Vmci_Buffer_Min_Size", 86)]
    [InlineData("Vmci_Buffer_Max_Size", 87)]
    [InlineData("Vmci_Connect_Timeout", 88)]
    [InlineData("Use_Fd", 89)]
    [InlineData("Gssapi_Principal_Nametype", 90)]
    [InlineData("Gssapi_Service_Principal_Nametype", 91)]
    [InlineData("Bindtodevice", 92)]
    [InlineData("Metadata", 95)]
    [InlineData("Multicast_Loop", 96)]
    [InlineData("Socks_Username", 99)]
    [InlineData("Socks_Password", 100)]
    [InlineData("Wss_Key_Pem", 103)]
    [InlineData("Wss_Cert_Pem", 104)]
    [InlineData("Wss_Trust_Pem", 105)]
    [InlineData("Wss_Hostname", 106)]
    [InlineData("Wss_Trust_System", 107)]
    [InlineData("Max_Connections", 10_000)]
    public void Member_Value_MatchesApiTable(string name, int expected) =>
        Assert.Equal(expected, (int)Enum.Parse<SocketOption>(name));

    [Fact]
    public void Type_Shape_Has94NamesAnd86DistinctValues()
    {
        // libzmq's 84 options, plus Max_Connections, ours.
        Assert.Equal(typeof(int), Enum.GetUnderlyingType(typeof(SocketOption)));
        Assert.False(typeof(SocketOption).IsDefined(typeof(FlagsAttribute), false));
        Assert.Equal(94, Enum.GetNames<SocketOption>().Length);
        Assert.Equal(86, Enum.GetValues<SocketOption>().Distinct().Count());
    }

    [Fact]
    public void Aliases_Values_EqualCanonicalSpellings()
    {
        Assert.Equal(SocketOption.Rcvmore, SocketOption.RcvMore);
        Assert.Equal(SocketOption.Sndhwm, SocketOption.SendHwm);
        Assert.Equal(SocketOption.Rcvtimeo, SocketOption.RcvTimeout);
        Assert.Equal(SocketOption.Sndtimeo, SocketOption.SendTimeout);
        Assert.Equal(SocketOption.Curve_Server, SocketOption.CurveServer);
        Assert.Equal(SocketOption.Curve_Publickey, SocketOption.CurvePublickey);
        Assert.Equal(SocketOption.Curve_Secretkey, SocketOption.CurveSecretkey);
        Assert.Equal(SocketOption.Curve_Serverkey, SocketOption.CurveServerkey);
    }

    [Fact]
    public void Values_EachCanonicalOption_MatchesZmqConstantsField()
    {
        // Every ZMQ_* socket option constant must have a member with the same value, so casts between them agree.
        int[] constants = typeof(ZmqConstants).GetFields()
            .Where(f => f.IsLiteral && f.Name.StartsWith("ZMQ_", StringComparison.Ordinal))
            .Select(f => (int)f.GetRawConstantValue()!)
            .ToArray();
        // Options of ours (numbered from 10,000) are not libzmq's, so ZmqConstants, which mirrors zmq.h, has none.
        foreach (SocketOption option in Enum.GetValues<SocketOption>().Where(o => (int)o < global::Managed.Zmq.Options.OptionId.OwnBase))
        {
            Assert.Contains((int)option, constants);
        }
    }
}
