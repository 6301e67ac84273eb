namespace Managed.Zmq.Security;

/// <summary>How a mechanism failed, in the terms libzmq's monitor reports it.</summary>
/// <param name="Event">HANDSHAKE_FAILED_PROTOCOL (0x2000), HANDSHAKE_FAILED_AUTH (0x4000) or HANDSHAKE_FAILED_NO_DETAIL (0x0800).</param>
/// <param name="Value">A ZMQ_PROTOCOL_ERROR_* code, a ZAP status (300/400/500), or an errno.</param>
internal readonly record struct MechanismError(int Event, int Value);
