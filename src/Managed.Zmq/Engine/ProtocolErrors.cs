namespace Managed.Zmq.Engine;

/// <summary>libzmq's <c>ZMQ_PROTOCOL_ERROR_*</c> values, carried by HANDSHAKE_FAILED_PROTOCOL events (L23).</summary>
internal static class ProtocolErrors
{
    public const int ZmtpUnspecified = 0x10000000;
    public const int ZmtpUnexpectedCommand = 0x10000001;
    public const int ZmtpInvalidSequence = 0x10000002;
    public const int ZmtpMalformedCommandUnspecified = 0x10000011;
    public const int ZmtpMalformedCommandReady = 0x10000016;
    public const int ZmtpMalformedCommandError = 0x10000015;
    public const int ZmtpInvalidMetadata = 0x10000018;
    public const int ZmtpMechanismMismatch = 0x11000002;
}
