namespace Managed.Zmq.Transports;

/// <summary>
/// A transport below ZMTP met bytes that break its own protocol (the ws:// upgrade or WebSocket
/// framing): the connection ends, and during the handshake the monitor shows
/// HANDSHAKE_FAILED_PROTOCOL with <see cref="ProtocolError"/>, as libzmq's does.
/// </summary>
internal sealed class TransportProtocolException(int protocolError, string message) : IOException(message)
{
    /// <summary>The ZMQ_PROTOCOL_ERROR_* value libzmq reports for this failure.</summary>
    public int ProtocolError { get; } = protocolError;
}
