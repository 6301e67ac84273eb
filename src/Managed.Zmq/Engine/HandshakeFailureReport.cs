using Managed.Zmq.Diagnostics;

namespace Managed.Zmq.Engine;

/// <summary>
/// The monitor event a failed handshake raises, as libzmq raises it: the mechanism's own verdict
/// when it has one, HANDSHAKE_FAILED_PROTOCOL for a broken peer, NO_DETAIL otherwise.
/// Decided here, beside the handshake, so that the monitor knows no engine type.
/// </summary>
internal static class HandshakeFailureReport
{
    public static void Report(SocketMonitor monitor, string endpoint, HandshakeResult result, DisconnectReason reason)
    {
        if (result.Silent)
        {
            // An old peer refused or broken after its greeting: libzmq reports DISCONNECTED alone (docs/libzmq-behaviour.md L25).
            return;
        }

        if (result.MechanismError is { } error)
        {
            // The mechanism knows what libzmq reports (and when it reports nothing).
            if (!error.IsSilent)
            {
                monitor.Emit(error.Event, error.Value, endpoint);
            }

            return;
        }

        switch (result.Outcome)
        {
            case HandshakeOutcome.ProtocolError or HandshakeOutcome.UnsupportedVersion:
                monitor.Emit(SocketMonitor.HandshakeFailedProtocol, result.ProtocolError != 0 ? result.ProtocolError : ZmqConstants.ZMQ_PROTOCOL_ERROR_ZMTP_UNSPECIFIED, endpoint);
                break;
            default:
                // libzmq 4.3 reports the errno its I/O thread last saw: for a lost connection that of the failed read
                // or write (EPIPE when the peer closed, ECONNRESET when it reset), and for a handshake timer that ran
                // out the EAGAIN of its last read (docs/libzmq-behaviour.md L14).
                int errno = reason == DisconnectReason.Timeout ? ZmqConstants.EAGAIN
                    : result.LostErrno != 0 ? result.LostErrno : ZmqConstants.ECONNRESET;
                monitor.Emit(SocketMonitor.HandshakeFailedNoDetail, errno, endpoint);
                break;
        }
    }
}
