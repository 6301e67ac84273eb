using System.Net.Sockets;
using Managed.Zmq.InteropTests.Infrastructure;
using Managed.Zmq.InteropTests.Native;
using Managed.Zmq.InteropTests.Security;

namespace Managed.Zmq.InteropTests.Resilience;

/// <summary>
/// A handshake that fails for want of a peer (the peer stays silent, stalls after its greeting, closes or resets the
/// connection):
/// the same raw peer against libzmq's socket and against ours, bound and connecting, and the value of
/// HANDSHAKE_FAILED_NO_DETAIL must be libzmq's, since monitors in a mixed cluster read it
/// (docs/libzmq-behaviour.md L14 and L15).
/// </summary>
public sealed class HandshakeFailureEventInteropTests
{
    /// <summary>What the raw peer does once connected.</summary>
    public enum PeerConduct
    {
        Silent,
        StallsAfterGreeting,
        Closes,
        Resets,
    }

    /// <summary>The first 10 octets of a ZMTP greeting, all a peer sends before it has seen the other's (RFC 23).</summary>
    private const int SignatureLength = 10;

    public static TheoryData<PeerConduct, bool> Cases()
    {
        var cases = new TheoryData<PeerConduct, bool>();
        foreach (PeerConduct conduct in Enum.GetValues<PeerConduct>())
        {
            cases.Add(conduct, true);

            // A connecting libzmq socket whose peer closes or resets reports EPIPE or ECONNRESET in some runs and
            // EAGAIN in others (the errno its I/O thread happened to hold): there is no one value to hold ours to.
            if (conduct is PeerConduct.Silent or PeerConduct.StallsAfterGreeting)
            {
                cases.Add(conduct, false);
            }
        }

        return cases;
    }

    [Theory, MemberData(nameof(Cases))]
    public Task HandshakeFailedNoDetail_PeerFailsTheHandshake_ValueAsLibzmq(PeerConduct conduct, bool socketBinds) => Deadline.Run(() =>
    {
        int theirs;
        using (var side = SecuritySide.Theirs())
        {
            theirs = Observe(side, conduct, socketBinds);
        }

        int ours;
        using (var side = SecuritySide.Ours())
        {
            ours = Observe(side, conduct, socketBinds);
        }

        Assert.Equal(theirs, ours);
    });

    /// <summary>The value of the first HANDSHAKE_FAILED_NO_DETAIL the side's socket raises against the raw peer.</summary>
    private static int Observe(SecuritySide side, PeerConduct conduct, bool socketBinds)
    {
        var socket = side.Socket(socketBinds ? SocketType.Pull : SocketType.Push);
        socket.SetOption(LibZmq.ZMQ_HANDSHAKE_IVL, 200);
        socket.SetOption(LibZmq.ZMQ_LINGER, 0);
        var events = side.Monitor(socket);
        var raw = RawTcpPeer.Attach(socket, socketBinds);
        using (raw)
        {
            switch (conduct)
            {
                case PeerConduct.StallsAfterGreeting:
                    raw.Send(RawTcpPeer.NullGreeting);
                    break;
                case PeerConduct.Closes:
                    // Nothing left unread, so the close is a FIN and not a reset: the socket's signature is all it sends
                    // before it hears from the peer (RFC 23).
                    RawTcpPeer.ReadExactly(raw, SignatureLength, "the socket closed before its signature was in");
                    raw.Close();
                    break;
                case PeerConduct.Resets:
                    // Reset before sending anything: a libzmq socket that had more of its greeting to write when the
                    // reset came would see its write fail, stop writing, and wait for its handshake timer instead.
                    RawTcpPeer.ReadExactly(raw, SignatureLength, "the socket closed before its signature was in");
                    raw.LingerState = new LingerOption(true, 0);
                    raw.Close();
                    break;
            }

            return events.WaitFor(EventLog.HandshakeFailedNoDetail).Value;
        }
    }
}
