using Managed.Zmq.Buffers;
using Managed.Zmq.Options;
using Managed.Zmq.Security.Zap;

namespace Managed.Zmq.Security;

/// <summary>How a mechanism failed, in the terms libzmq's monitor reports it.</summary>
/// <param name="Event">HANDSHAKE_FAILED_PROTOCOL (0x2000), HANDSHAKE_FAILED_AUTH (0x4000) or HANDSHAKE_FAILED_NO_DETAIL (0x0800);
/// 0 when no event is raised.</param>
/// <param name="Value">A ZMQ_PROTOCOL_ERROR_* code, a ZAP status (300/400/500), or an errno; with no event, the
/// ZMQ_PROTOCOL_ERROR_* code of a protocol error libzmq does not report, or 0.</param>
internal readonly record struct MechanismError(int Event, int Value)
{
    /// <summary>ZMQ_EVENT_HANDSHAKE_FAILED_NO_DETAIL: <see cref="Value"/> is an errno.</summary>
    public const int HandshakeFailedNoDetail = 0x0800;

    /// <summary>ZMQ_EVENT_HANDSHAKE_FAILED_PROTOCOL: <see cref="Value"/> is a ZMQ_PROTOCOL_ERROR_* code.</summary>
    public const int HandshakeFailedProtocol = 0x2000;

    /// <summary>ZMQ_EVENT_HANDSHAKE_FAILED_AUTH: <see cref="Value"/> is the ZAP status code (300, 400, 500).</summary>
    public const int HandshakeFailedAuth = 0x4000;

    /// <summary>A failure libzmq reports with no handshake event (an ERROR whose reason is not a ZAP status).</summary>
    public static MechanismError Silent => default;

    /// <summary>True when no monitor event goes with this failure.</summary>
    public bool IsSilent => Event == 0;

    /// <summary>
    /// A protocol error libzmq ends the connection for without a handshake event (bad peer metadata under NULL, or at a
    /// PLAIN or CURVE server: docs/libzmq-behaviour.md L6). Still a protocol error: no reconnect.
    /// </summary>
    public static MechanismError SilentProtocol(int protocolError) => new(0, protocolError);

    /// <summary>A HANDSHAKE_FAILED_PROTOCOL failure.</summary>
    public static MechanismError Protocol(int protocolError) => new(HandshakeFailedProtocol, protocolError);

    /// <summary>A HANDSHAKE_FAILED_AUTH failure.</summary>
    public static MechanismError Auth(int zapStatus) => new(HandshakeFailedAuth, zapStatus);

    /// <summary>A HANDSHAKE_FAILED_NO_DETAIL failure.</summary>
    public static MechanismError NoDetail(int errno) => new(HandshakeFailedNoDetail, errno);
}
