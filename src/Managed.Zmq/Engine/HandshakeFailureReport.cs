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
                monitor.Emit(SocketMonitor.HandshakeFailedNoDetail, reason == DisconnectReason.Timeout ? ZmqConstants.ETIMEDOUT : ZmqConstants.ECONNRESET, endpoint);
                break;
        }
    }
}
