using System.Text;
using Managed.Zmq.Wire;

namespace Managed.Zmq.Security.Zap;

/// <summary>
/// Builds ZAP requests and checks ZAP replies (RFC 27) exactly as libzmq's ZAP client does (docs/libzmq-behaviour.md L21);
/// carrying the frames to and from the handler at inproc://zeromq.zap.01 is the engine's job.
/// </summary>
internal static class ZapClient
{
    /// <summary>The frame count of a reply, the empty delimiter included (docs/libzmq-behaviour.md L21: "exactly 7 frames").</summary>
    public const int ReplyFrameCount = 7;

    /// <summary>The ZAP version (RFC 27 §Message Format).</summary>
    public static ReadOnlySpan<byte> Version => "1.0"u8;

    /// <summary>libzmq always sends request id "1" and expects it back (docs/libzmq-behaviour.md L21).</summary>
    public static ReadOnlySpan<byte> RequestId => "1"u8;

    /// <summary>The mechanism frame's value (RFC 27 §The NULL/PLAIN/CURVE Mechanism).</summary>
    public static byte[] GetMechanismName(ZmtpMechanism mechanism) => mechanism switch
    {
        ZmtpMechanism.Null => "NULL"u8.ToArray(),
        ZmtpMechanism.Plain => "PLAIN"u8.ToArray(),
        ZmtpMechanism.Curve => "CURVE"u8.ToArray(),
        _ => "GSSAPI"u8.ToArray(),
    };

    /// <summary>
    /// The request frames after the empty delimiter: version, request id, domain, address, identity,
    /// mechanism, credentials (RFC 27 §Message Format; docs/libzmq-behaviour.md L21).
    /// </summary>
    /// <param name="domain">ZMQ_ZAP_DOMAIN; may be empty for PLAIN and CURVE (docs/libzmq-behaviour.md L21).</param>
    /// <param name="address">The peer's IP address without port.</param>
    /// <param name="routingId">Our own socket's routing id, not the peer's, as libzmq sends (docs/libzmq-behaviour.md L21).</param>
    /// <param name="mechanism">The mechanism in use.</param>
    /// <param name="credentials">NULL: none; PLAIN: user name and password; CURVE: the client's 32-octet public key.</param>
    public static byte[][] BuildRequest(ReadOnlySpan<byte> domain, string address, ReadOnlySpan<byte> routingId, ZmtpMechanism mechanism, params byte[][] credentials)
    {
        var frames = new byte[6 + credentials.Length][];
        frames[0] = Version.ToArray();
        frames[1] = RequestId.ToArray();
        frames[2] = domain.ToArray();
        frames[3] = Encoding.ASCII.GetBytes(address);
        frames[4] = routingId.ToArray();
        frames[5] = GetMechanismName(mechanism);
        credentials.CopyTo(frames, 6);
        return frames;
    }

    /// <summary>
    /// Checks a reply, given as all its frames including the leading empty delimiter, in libzmq's
    /// order: frame count, delimiter, version, request id, status code, metadata (docs/libzmq-behaviour.md L21).
    /// </summary>
    public static ZapReply ParseReply(IReadOnlyList<byte[]> frames)
    {
        if (frames.Count != ReplyFrameCount)
        {
            return Malformed(ZmqConstants.ZMQ_PROTOCOL_ERROR_ZAP_MALFORMED_REPLY);
        }

        if (frames[0].Length != 0)
        {
            return Malformed(ZmqConstants.ZMQ_PROTOCOL_ERROR_ZAP_UNSPECIFIED);
        }

        if (!frames[1].AsSpan().SequenceEqual(Version))
        {
            return Malformed(ZmqConstants.ZMQ_PROTOCOL_ERROR_ZAP_BAD_VERSION);
        }

        if (!frames[2].AsSpan().SequenceEqual(RequestId))
        {
            return Malformed(ZmqConstants.ZMQ_PROTOCOL_ERROR_ZAP_BAD_REQUEST_ID);
        }

        // RFC 27 §Message Format: "200", "300", "400" or "500", nothing else.
        byte[] status = frames[3];
        if (status.Length != 3 || status[0] < (byte)'2' || status[0] > (byte)'5' || status[1] != (byte)'0' || status[2] != (byte)'0')
        {
            return Malformed(ZmqConstants.ZMQ_PROTOCOL_ERROR_ZAP_INVALID_STATUS_CODE);
        }

        if (!PeerMetadataReader.TryReadProperties(frames[6], out Dictionary<string, byte[]> metadata))
        {
            return Malformed(ZmqConstants.ZMQ_PROTOCOL_ERROR_ZAP_INVALID_METADATA);
        }

        return new ZapReply
        {
            StatusCode = (status[0] - '0') * 100,
            StatusText = Encoding.UTF8.GetString(frames[4]),
            UserId = Encoding.UTF8.GetString(frames[5]),
            Metadata = metadata,
        };
    }

    private static ZapReply Malformed(int protocolError) => new() { ProtocolError = protocolError };
}
