using Managed.Zmq.Wire;

namespace Managed.Zmq.Security;

/// <summary>
/// A ZMTP security mechanism (NULL, PLAIN, CURVE) as a step machine over commands: it never does
/// I/O. The engine asks it for commands to send, feeds it the command frames it receives, and, for
/// an encrypting mechanism, passes every frame through <see cref="Encode"/>/<see cref="Decode"/>
/// once <see cref="Status"/> is Ready (RFC 23 §Authentication and Confidentiality).
/// </summary>
internal interface IMechanism : IDisposable
{
    ZmtpMechanism Name { get; }

    MechanismStatus Status { get; }

    /// <summary>Why it failed, when <see cref="Status"/> is Error.</summary>
    MechanismError Error { get; }

    /// <summary>
    /// Writes the next handshake command frame (ZMTP header included) to <paramref name="destination"/>
    /// if one is due now; returns its length, 0 when nothing is due, or -1 when
    /// <paramref name="destination"/> is too small (call again with at least <see cref="MaxCommandLength"/>).
    /// </summary>
    int WriteNextCommand(Span<byte> destination);

    /// <summary>Upper bound of the next command's frame length.</summary>
    int MaxCommandLength { get; }

    /// <summary>Processes the body of one command frame received during the handshake.</summary>
    void ProcessCommand(ReadOnlySpan<byte> commandBody);

    /// <summary>The peer's metadata once Ready: Socket-Type, Identity and any other property.</summary>
    PeerMetadata PeerMetadata { get; }

    /// <summary>True when traffic must go through <see cref="Encode"/>/<see cref="Decode"/> (CURVE).</summary>
    bool EncryptsTraffic { get; }

    /// <summary>
    /// Encodes one outgoing frame (ZMTP message or command frame, header included) as a frame of this
    /// mechanism (a CURVE MESSAGE command); returns its length, or -1 if <paramref name="destination"/>
    /// is too small (<see cref="GetEncodedLength"/> tells how much is needed).
    /// </summary>
    int Encode(ReadOnlySpan<byte> frame, Span<byte> destination);

    int GetEncodedLength(int frameBodyLength);

    /// <summary>
    /// Decodes the body of a received MESSAGE command into a plain ZMTP frame (header included) in
    /// <paramref name="destination"/>; returns its length, -1 when too small, or -2 when the message
    /// is bad (a failed MAC or a nonce that did not increase): the engine then drops the connection.
    /// </summary>
    int Decode(ReadOnlySpan<byte> commandBody, Span<byte> destination);

    /// <summary>
    /// ZAP: the request this mechanism wants sent to the handler (frames after the empty delimiter),
    /// or null. The engine sends it and hands the reply frames to <see cref="ProcessZapReply"/>.
    /// </summary>
    IReadOnlyList<byte[]>? TakeZapRequest();

    void ProcessZapReply(IReadOnlyList<byte[]> replyFrames);
}
