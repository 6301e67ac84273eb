using Managed.Zmq.InteropTests.Infrastructure;
using Managed.Zmq.InteropTests.Native;
using Managed.Zmq.InteropTests.Security;

namespace Managed.Zmq.InteropTests.Ws;

/// <summary>
/// Heartbeats under CURVE over ws:// and wss:// against the draft libzmq. libzmq's ws engine
/// heartbeats with WebSocket ping and pong frames outside the mechanism, even under CURVE, and does
/// not read a PING command inside a CURVE MESSAGE; so ours must ping and count pongs with frames too.
/// </summary>
public sealed class WsCurveHeartbeatInteropTests
{
    public static TheoryData<Topology, bool, bool> Cases => new()
    {
        { Topology.ManagedBinds, true, false }, { Topology.ManagedBinds, false, false },
        { Topology.NativeBinds, true, false }, { Topology.NativeBinds, false, false },
        { Topology.ManagedBinds, true, true }, { Topology.NativeBinds, true, true },
    };

    [Theory, MemberData(nameof(Cases))]
    public Task CurveHeartbeats_QuietConnection_PingsAnswered(Topology topology, bool oursPings, bool overTls) => Deadline.Run(() =>
    {
        // As WsInteropTests' NULL heartbeat test: one side pings every 20 ms and drops the connection
        // when 500 ms pass without traffic after a ping; the connection then stays quiet for four
        // timeouts, so only the other side's pongs keep it up. A DISCONNECTED at libzmq's monitor
        // (either side dropping shows there) means a ping went unanswered or a pong went unseen.
        var server = CurveKeys.New();
        var client = CurveKeys.New();
        bool oursServer = topology == Topology.ManagedBinds;
        void Configure(IEnd end, bool isServer, bool pings)
        {
            if (isServer)
            {
                Secure.CurveServer(end, server);
            }
            else
            {
                Secure.CurveClient(end, client, server.PublicZ85);
            }

            if (pings)
            {
                end.SetOption(LibZmq.ZMQ_HEARTBEAT_IVL, 20);
                end.SetOption(LibZmq.ZMQ_HEARTBEAT_TIMEOUT, 500);
            }
        }

        void Ours(IEnd end) => Configure(end, oursServer, oursPings);
        void Theirs(IEnd end) => Configure(end, !oursServer, !oursPings);
        using var link = overTls
            ? (IDisposable)new WssLink(topology, SocketType.Pair, SocketType.Pair, Ours, Theirs)
            : new WsLink(topology, SocketType.Pair, SocketType.Pair, Ours, Theirs);
        var (ours, theirs) = link is WssLink tls ? (tls.Ours, tls.Theirs) : (((WsLink)link).Ours, ((WsLink)link).Theirs);
        using var theirMonitor = ((DraftSocket)theirs).Monitor(LibZmq.ZMQ_EVENT_DISCONNECTED);
        Transfer.Deliver(ours, theirs, [Bytes.Of("before")]);

        Assert.Null(theirMonitor.NextEvent(TimeSpan.FromSeconds(2)));

        Transfer.Deliver(theirs, ours, [Bytes.Of("after")]);
        Transfer.Deliver(ours, theirs, [Bytes.Of("after")]);
    });
}
