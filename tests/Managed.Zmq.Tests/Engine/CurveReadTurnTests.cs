using Managed.Zmq.Tests.Support;

namespace Managed.Zmq.Tests.Engine;

/// <summary>
/// The read turn under CURVE (docs/ARCHITECTURE.md): a Recv awaiting a reply decrypts what it reads on its own thread,
/// as the read loop would, and hands back whatever is not a plain data frame once decrypted, a PING included. The
/// refusal of a forged box on the turn is in Security/CurveBadInputTests.
/// </summary>
public sealed class CurveReadTurnTests : TransportSockets
{
    /// <summary>A CURVE REQ and REP, connected; <paramref name="beforeConnect"/> runs on the REQ first (a monitor attached there sees the handshake).</summary>
    private (Socket Req, Socket Rep) CurveReqRep(Transport transport, int heartbeatMilliseconds = 0, Action<Socket>? beforeConnect = null)
    {
        var rep = Create(SocketType.Rep);
        var req = Create(SocketType.Req);
        CurveKeys.Secure(rep, req);
        if (heartbeatMilliseconds > 0)
        {
            // The timeout defaults to the interval, which a busy test host would miss; only the PINGs matter here.
            foreach (var socket in new[] { rep, req })
            {
                socket.SetOption(SocketOption.Heartbeat_Ivl, heartbeatMilliseconds);
                socket.SetOption(SocketOption.Heartbeat_Timeout, 60_000);
            }
        }

        beforeConnect?.Invoke(req);
        req.Connect(TestEndpoint.Bind(rep, transport));
        return (req, rep);
    }

    [Theory]
    [TransportCases(Transport.Tcp, Transport.Ipc)]
    public void Recv_CurveRequestAndReply_BothSidesReadOnTheirTurnAndEveryMessageArrivesWhole(Transport transport)
    {
        var (req, rep) = CurveReqRep(transport);
        ReadTurnRoundTrips.RunAndAssertBothSidesReadOnTheirTurn(req, rep);
    }

    /// <summary>
    /// Both sides ping every millisecond: under CURVE a PING is a MESSAGE like any other until it is decrypted, so the
    /// turn meets it after decrypting and hands it back; no message is split, lost or delivered twice.
    /// </summary>
    [Theory]
    [TransportCases(Transport.Tcp, Transport.Ipc)]
    public void Recv_CurveHeartbeatsDuringRoundTrips_EveryMessageWholeAndBothSidesReadOnTheirTurn(Transport transport)
    {
        MonitorProbe? probe = null;
        var (req, rep) = CurveReqRep(transport, heartbeatMilliseconds: 1, beforeConnect: socket => probe = MonitorProbe.Attach(Context, socket));
        using var monitor = probe!;
        for (int i = 0; i < 2000; i++)
        {
            req.Send($"q{i}", SendFlags.SendMore);
            req.Send($"Q{i}");
            Assert.Equal(["q" + i, "Q" + i], RecvMessage(rep));
            rep.Send($"r{i}");
            Assert.Equal($"r{i}", req.RecvString());
        }

        Assert.True(req.Core.Meters.ReadTurnReads > 0, "the REQ never read on its turn");
        Assert.True(rep.Core.Meters.ReadTurnReads > 0, "the REP never read on its turn");

        // One connection throughout: a box the turn mishandled would end it, and the REQ would connect again.
        monitor.Drain(200);
        Assert.Equal(1, monitor.Count(MonitorProbe.HandshakeSucceeded));
        Assert.Equal(0, monitor.Count(SocketMonitorEvent.Disconnected));
    }
}
