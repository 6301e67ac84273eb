using Managed.Zmq.InteropTests.Infrastructure;
using Managed.Zmq.InteropTests.Native;

namespace Managed.Zmq.InteropTests.Security;

/// <summary>
/// A REQ connecting to a PUB, against libzmq in both roles and under each mechanism. libzmq refuses peer metadata it
/// cannot accept with no handshake event under NULL and as a PLAIN or CURVE server, only DISCONNECTED
/// (docs/libzmq-behaviour.md L6); our socket in either role must raise what libzmq's raises in it.
/// </summary>
public sealed class SocketTypeMismatchInteropTests
{
    public static TheoryData<Mechanism, OurRole> Cases() => SecureCases.MechanismsAndRoles();

    [Theory, MemberData(nameof(Cases))]
    public Task Handshake_IncompatibleSocketTypes_EventsAsLibzmq(Mechanism mechanism, OurRole role) => Deadline.Run(() =>
    {
        var serverKeys = CurveKeys.New();
        var clientKeys = CurveKeys.New();
        var topology = role == OurRole.Server ? Topology.ManagedBinds : Topology.NativeBinds; // the server binds
        using var link = new SecureLink(topology, role, SocketType.Pub, SocketType.Req,
            end => Secure.Server(end, mechanism, serverKeys),
            end => Secure.Client(end, mechanism, "user", "password", clientKeys, serverKeys),
            // PLAIN needs a ZAP handler to get as far as the metadata; it accepts everyone.
            zap: mechanism == Mechanism.Plain ? _ => ZapAnswer.Accept : null);

        // The PLAIN or CURVE server, whoever's it is, refuses the client's INITIATE with DISCONNECTED alone. Under NULL
        // both ends check the other's READY, and either may close first: whichever reads the other's READY refuses it
        // with DISCONNECTED alone, and the other, when the reset that closed the connection discarded the READY it had
        // not read yet, sees the connection lost (HANDSHAKE_FAILED_NO_DETAIL), as libzmq's own ends do.
        AssertClosedWithout(link.ServerEvents, mechanism == Mechanism.Null ? EventLog.HandshakeSucceeded : EventLog.HandshakeFailedNoDetail);

        // The client raises no protocol, auth or success event. A PLAIN or CURVE client never gets a READY: the
        // connection is lost (HANDSHAKE_FAILED_NO_DETAIL) and retried, as libzmq's client retries it.
        AssertClosedWithout(link.ClientEvents);
        if (mechanism != Mechanism.Null)
        {
            link.ClientEvents.WaitFor(EventLog.HandshakeFailedNoDetail);
            link.ClientEvents.WaitFor(EventLog.ConnectRetried);
        }
    });

    /// <summary>
    /// Waits for DISCONNECTED and asserts that neither HANDSHAKE_SUCCEEDED, nor HANDSHAKE_FAILED_PROTOCOL or _AUTH, nor
    /// <paramref name="also"/> came before it.
    /// </summary>
    private static void AssertClosedWithout(EventLog events, int also = EventLog.HandshakeSucceeded)
    {
        var disconnected = events.WaitFor(EventLog.Disconnected);
        var before = events.Snapshot().TakeWhile(e => e != disconnected);
        Assert.DoesNotContain(before, e => e.Event is EventLog.HandshakeSucceeded or EventLog.HandshakeFailedProtocol
            or EventLog.HandshakeFailedAuth || e.Event == also);
    }
}
