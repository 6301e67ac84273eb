using Managed.Zmq.InteropTests.Infrastructure;
using Managed.Zmq.InteropTests.Native;

namespace Managed.Zmq.InteropTests.Security;

/// <summary>
/// A CURVE client with the wrong server key, against libzmq in both directions. The server cannot
/// open the HELLO box: libzmq reports HANDSHAKE_FAILED_PROTOCOL / ZMTP_CRYPTOGRAPHIC on the server
/// and closes without ERROR (docs/libzmq-behaviour.md L9, docs/libzmq-behaviour.md L15); the client only sees the connection drop
/// (HANDSHAKE_FAILED_NO_DETAIL) and reconnects at RECONNECT_IVL, not in a tight loop.
/// </summary>
public sealed class CurveWrongKeyInteropTests
{
    private static readonly TimeSpan Quiet = TimeSpan.FromMilliseconds(300);
    private static readonly TimeSpan StormWindow = TimeSpan.FromMilliseconds(1000);
    private const int ReconnectIvl = 100;

    public static TheoryData<OurRole> Roles => SecureCases.Roles();

    [Theory, MemberData(nameof(Roles))]
    public Task Curve_WrongServerKey_HandshakeFailsWithoutDeliveryOrStorm(OurRole role) => Deadline.Run(() =>
    {
        var serverKeys = CurveKeys.New();
        var clientKeys = CurveKeys.New();
        var wrongServer = CurveKeys.New();
        var topology = role == OurRole.Server ? Topology.ManagedBinds : Topology.NativeBinds; // the server binds
        using var link = new SecureLink(topology, role, SocketType.Pull, SocketType.Push,
            end => Secure.CurveServer(end, serverKeys),
            end =>
            {
                Secure.CurveClient(end, clientKeys, wrongServer.PublicZ85);
                end.SetOption(LibZmq.ZMQ_RECONNECT_IVL, ReconnectIvl);
            });

        link.Client.SendMessage(Bytes.Of("must not arrive"));

        // The server could not open the HELLO box; the client saw the peer close mid-handshake.
        link.ServerEvents.WaitFor(EventLog.HandshakeFailedProtocol, LibZmq.ZMQ_PROTOCOL_ERROR_ZMTP_CRYPTOGRAPHIC);
        var first = link.ClientEvents.WaitFor(EventLog.HandshakeFailedNoDetail);
        Assert.Null(link.Server.TryRecvMessage(Quiet));
        link.ClientEvents.AssertNone(e => e.Event is EventLog.HandshakeSucceeded or EventLog.HandshakeFailedAuth, TimeSpan.Zero, "success or auth failure");
        link.ServerEvents.AssertNone(e => e.Event == EventLog.HandshakeSucceeded, TimeSpan.Zero, "handshake success");

        // No reconnect storm: in a 1 s window the client retries about every RECONNECT_IVL
        // (libzmq: IVL plus up to IVL of jitter), so at most ~1000/100 attempts, not hundreds.
        var windowEnd = first.At + (long)StormWindow.TotalMilliseconds;
        link.ClientEvents.TryWaitFor(e => e.At > windowEnd, StormWindow + Quiet); // bounded observation window
        var attempts = link.ClientEvents.Snapshot().Count(e => e.Event == EventLog.Connected && e.At > first.At && e.At <= windowEnd);
        var failures = link.ServerEvents.Snapshot().Count(e => e.Event == EventLog.HandshakeFailedProtocol);
        Assert.True(attempts <= StormWindow.TotalMilliseconds / ReconnectIvl + 2,
            $"{attempts} reconnects within {StormWindow.TotalMilliseconds} ms: a reconnect storm. Client events {link.ClientEvents}");
        Assert.True(failures <= 2 * (StormWindow + Quiet).TotalMilliseconds / ReconnectIvl + 4,
            $"{failures} failed handshakes on the server: a reconnect storm. Server events {link.ServerEvents}");

        // The server still serves a client with the right key.
        using (var good = link.ClientSide.Socket(SocketType.Push))
        {
            Secure.CurveClient(good, clientKeys, serverKeys.PublicZ85);
            good.Connect(link.Endpoint);
            good.SendMessage(Bytes.Of("good client"));
            Bytes.Equal([Bytes.Of("good client")], link.Server.RecvMessage(), "a correctly keyed client after the failures");
        }

        // The failing client is still usable: disconnect (dropping what it queued), fix the key, reconnect.
        Secure.Disconnect(link.Client, link.Endpoint);
        Secure.SetKey(link.Client, LibZmq.ZMQ_CURVE_SERVERKEY, serverKeys.PublicZ85, raw: false);
        link.Client.Connect(link.Endpoint);
        link.Client.SendMessage(Bytes.Of("fixed"));
        Bytes.Equal([Bytes.Of("fixed")], link.Server.RecvMessage(), "the first client after fixing its server key");
    });
}
