using System.Buffers.Binary;
using System.Diagnostics;
using System.Security.Cryptography;
using Managed.Zmq.Security.Crypto;
using Managed.Zmq.Wire;

namespace Managed.Zmq.Security;

/// <summary>
/// What the CURVE client and server share: short nonces and the MESSAGE encoding of traffic
/// (RFC 26 §The MESSAGE Command, with libzmq's nonce prefixes and COMMAND flag: docs/libzmq-behaviour.md L9).
/// </summary>
internal abstract class CurveMechanismBase : MechanismBase
{
    /// <summary>The connection's precomputed box key, beforenm(peer′, our transient secret).</summary>
    private readonly byte[] _sessionKey = new byte[CurveProtocol.KeySize];

    /// <summary>Seals the MESSAGEs we send (our nonce prefix); made once the session key is known.</summary>
    private ICurveMessageCipher? _sendCipher;

    /// <summary>Opens the MESSAGEs we receive (the peer's nonce prefix).</summary>
    private ICurveMessageCipher? _receiveCipher;

    /// <summary>Set once the keys are wiped (failure or disposal): no MESSAGE is sealed or opened after that.</summary>
    private bool _keysWiped;

    /// <summary>
    /// Held while a MESSAGE is sealed and while the keys are wiped. A MESSAGE may be sealed on one thread (a reply on
    /// the user's, by the engine's direct write; a PING or a queued message on the I/O thread's) while another fails
    /// the mechanism on bad input (the I/O thread, or the user's thread decrypting on its read turn): without it a
    /// box could be sealed with a half-wiped key.
    /// </summary>
    private readonly Lock _sealLock = new();

    /// <summary>The short nonce for the next command we send; starts at 1 (docs/libzmq-behaviour.md L9).</summary>
    private ulong _nextNonce = 1;

    /// <summary>The last short nonce accepted from the peer; 0 before any (docs/libzmq-behaviour.md L9).</summary>
    private ulong _lastPeerNonce;

    protected CurveMechanismBase(MechanismSettings settings)
        : base(settings)
    {
        Crypto = settings.CurveCrypto;
    }

    public override ZmtpMechanism Name => ZmtpMechanism.Curve;

    public override bool EncryptsTraffic => true;

    protected ICurveCryptoProvider Crypto { get; }

    /// <summary>The session key, set once the peer's transient key is known.</summary>
    protected Span<byte> SessionKey => _sessionKey;

    /// <summary>"CurveZMQMESSAGEC" for the client, "CurveZMQMESSAGES" for the server.</summary>
    protected abstract ReadOnlySpan<byte> OwnMessagePrefix { get; }

    protected abstract ReadOnlySpan<byte> PeerMessagePrefix { get; }

    /// <inheritdoc/>
    /// <remarks>
    /// The MESSAGE goes out as a ZMTP message frame with no flags (libzmq's CURVE encoder does the
    /// same): MORE and COMMAND travel inside the box as payload flags 0x01 and 0x02 (docs/libzmq-behaviour.md L9). The
    /// source frame must not overlap <paramref name="destination"/>.
    /// </remarks>
    public override int Encode(ReadOnlySpan<byte> frame, Span<byte> destination)
    {
        lock (_sealLock)
        {
            return EncodeLocked(frame, destination);
        }
    }

    private int EncodeLocked(ReadOnlySpan<byte> frame, Span<byte> destination)
    {
        if (Status != MechanismStatus.Ready || _keysWiped)
        {
            // Failed or disposed: the keys are gone, and nothing may be sealed with what is left of them.
            return -2;
        }

        if (ZmtpFrame.TryReadFrame(frame, out ZmtpFrameHeader header, out ReadOnlySpan<byte> body) != ZmtpStatus.Done)
        {
            Debug.Fail("Encode takes one whole frame.");
            return -2;
        }

        int messageLength = GetMessageBodyLength(body.Length);
        int headerLength = ZmtpFrame.GetHeaderLength(messageLength);
        if (destination.Length < headerLength + messageLength)
        {
            return -1;
        }

        int offset = ZmtpFrame.WriteHeader(destination, messageLength, ZmtpFrameFlags.None);
        Span<byte> message = destination.Slice(offset, messageLength);
        CurveProtocol.MessageCommandPrefix.CopyTo(message);
        ulong nonceValue = _nextNonce++;
        BinaryPrimitives.WriteUInt64BigEndian(message.Slice(8, CurveProtocol.ShortNonceSize), nonceValue);

        // RFC 26 §The MESSAGE Command: payload = flags octet, then the frame's octets.
        Span<byte> box = message.Slice(CurveProtocol.MessageHeaderSize);
        Span<byte> plaintext = box.Slice(CurveProtocol.BoxOverhead);
        byte flags = 0;
        if ((header.Flags & ZmtpFrameFlags.More) != 0)
        {
            flags |= CurveProtocol.FlagMore;
        }

        if ((header.Flags & ZmtpFrameFlags.Command) != 0)
        {
            flags |= CurveProtocol.FlagCommand;
        }

        plaintext[0] = flags;
        body.CopyTo(plaintext.Slice(1));

        _sendCipher ??= Crypto.CreateMessageCipher(_sessionKey, OwnMessagePrefix);
        _sendCipher.Seal(message.Slice(8, CurveProtocol.ShortNonceSize), plaintext, box);
        return offset + messageLength;
    }

    public override int GetEncodedLength(int frameBodyLength)
    {
        int messageLength = GetMessageBodyLength(frameBodyLength);
        return ZmtpFrame.GetHeaderLength(messageLength) + messageLength;
    }

    /// <inheritdoc/>
    /// <remarks>
    /// Checks in libzmq's order (docs/libzmq-behaviour.md L9): the 07 "MESSAGE" prefix (else ZMTP_UNEXPECTED_COMMAND), the
    /// 33-octet minimum (MALFORMED_COMMAND_MESSAGE), a nonce strictly above the last one
    /// (ZMTP_INVALID_SEQUENCE), then the box (ZMTP_CRYPTOGRAPHIC). On -2 <see cref="IMechanism.Error"/>
    /// says which. <paramref name="destination"/> must not overlap <paramref name="commandBody"/>.
    /// </remarks>
    public override int Decode(ReadOnlySpan<byte> commandBody, Span<byte> destination)
    {
        if (Status != MechanismStatus.Ready || _keysWiped)
        {
            return -2;
        }

        if (!commandBody.StartsWith(CurveProtocol.MessageCommandPrefix))
        {
            return FailDecode(ZmqConstants.ZMQ_PROTOCOL_ERROR_ZMTP_UNEXPECTED_COMMAND);
        }

        if (commandBody.Length < CurveProtocol.MinMessageBodySize)
        {
            return FailDecode(ZmqConstants.ZMQ_PROTOCOL_ERROR_ZMTP_MALFORMED_COMMAND_MESSAGE);
        }

        ReadOnlySpan<byte> shortNonce = commandBody.Slice(8, CurveProtocol.ShortNonceSize);
        ulong nonceValue = BinaryPrimitives.ReadUInt64BigEndian(shortNonce);
        if (nonceValue <= _lastPeerNonce)
        {
            return FailDecode(ZmqConstants.ZMQ_PROTOCOL_ERROR_ZMTP_INVALID_SEQUENCE);
        }

        ReadOnlySpan<byte> box = commandBody.Slice(CurveProtocol.MessageHeaderSize);
        int payloadLength = box.Length - CurveProtocol.BoxOverhead - 1;
        int headerLength = ZmtpFrame.GetHeaderLength(payloadLength);
        if (destination.Length < headerLength + payloadLength)
        {
            return -1;
        }

        // Open straight into place: the flags octet lands just before the payload, where the
        // frame header ends, and is then overwritten by the header.
        _receiveCipher ??= Crypto.CreateMessageCipher(_sessionKey, PeerMessagePrefix);
        Span<byte> plaintext = destination.Slice(headerLength - 1, payloadLength + 1);
        if (!_receiveCipher.Open(shortNonce, box, plaintext))
        {
            return FailDecode(ZmqConstants.ZMQ_PROTOCOL_ERROR_ZMTP_CRYPTOGRAPHIC);
        }

        _lastPeerNonce = nonceValue;
        byte flags = plaintext[0];
        var frameFlags = ZmtpFrameFlags.None;
        if ((flags & CurveProtocol.FlagMore) != 0)
        {
            frameFlags |= ZmtpFrameFlags.More;
        }

        if ((flags & CurveProtocol.FlagCommand) != 0)
        {
            frameFlags |= ZmtpFrameFlags.Command;
        }

        ZmtpFrame.WriteHeader(destination, payloadLength, frameFlags);
        return headerLength + payloadLength;
    }

    public override void Dispose()
    {
        ZeroKeys();
        base.Dispose();
    }

    internal override IEnumerable<byte[]> SecretBuffers => [.. base.SecretBuffers, _sessionKey];

    protected override void OnFailed() => ZeroKeys();

    /// <summary>Takes the next short nonce to send (docs/libzmq-behaviour.md L9: 1, 2, 3, …).</summary>
    protected ulong TakeNonce() => _nextNonce++;

    /// <summary>
    /// Accepts a short nonce from the peer if it is above the last one (RFC 26: the receiver SHALL
    /// disconnect a peer that reuses a short nonce); fails with ZMTP_INVALID_SEQUENCE otherwise.
    /// </summary>
    protected bool TryAcceptPeerNonce(ReadOnlySpan<byte> shortNonce)
    {
        ulong value = BinaryPrimitives.ReadUInt64BigEndian(shortNonce);
        if (value <= _lastPeerNonce)
        {
            Fail(MechanismError.Protocol(ZmqConstants.ZMQ_PROTOCOL_ERROR_ZMTP_INVALID_SEQUENCE));
            return false;
        }

        _lastPeerNonce = value;
        return true;
    }

    /// <summary>Fails with ZMTP_CRYPTOGRAPHIC.</summary>
    protected void FailCryptographic() => Fail(MechanismError.Protocol(ZmqConstants.ZMQ_PROTOCOL_ERROR_ZMTP_CRYPTOGRAPHIC));

    /// <summary>A fresh transient key pair from the system RNG (RFC 26 §The HELLO Command, §The WELCOME Command).</summary>
    protected void GenerateKeyPair(Span<byte> secretKey, Span<byte> publicKey)
    {
        RandomNumberGenerator.Fill(secretKey);
        Crypto.DerivePublicKey(secretKey, publicKey);
    }

    /// <summary>Builds a 24-octet nonce and seals <paramref name="plaintext"/> with <paramref name="key"/>; returns the box.</summary>
    protected byte[] Seal(ReadOnlySpan<byte> key, ReadOnlySpan<byte> prefix, ReadOnlySpan<byte> nonceTail, ReadOnlySpan<byte> plaintext)
    {
        Span<byte> nonce = stackalloc byte[CurveProtocol.NonceSize];
        CurveProtocol.BuildNonce(nonce, prefix, nonceTail);
        var box = new byte[plaintext.Length + CurveProtocol.BoxOverhead];
        Crypto.SealAfterNm(key, nonce, plaintext, box);
        return box;
    }

    /// <summary>Opens <paramref name="box"/> into <paramref name="plaintext"/> (box length - 16 octets).</summary>
    protected bool Open(ReadOnlySpan<byte> key, ReadOnlySpan<byte> prefix, ReadOnlySpan<byte> nonceTail, ReadOnlySpan<byte> box, Span<byte> plaintext)
    {
        Span<byte> nonce = stackalloc byte[CurveProtocol.NonceSize];
        CurveProtocol.BuildNonce(nonce, prefix, nonceTail);
        return Crypto.OpenAfterNm(key, nonce, box, plaintext);
    }

    private void ZeroKeys()
    {
        lock (_sealLock)
        {
            _keysWiped = true;
            CryptographicOperations.ZeroMemory(_sessionKey);
            _sendCipher?.Dispose();
            _receiveCipher?.Dispose();
            _sendCipher = null;
            _receiveCipher = null;
        }
    }

    /// <summary>07 "MESSAGE", short nonce, and a box of flags + payload.</summary>
    private static int GetMessageBodyLength(int payloadLength) =>
        CurveProtocol.MessageHeaderSize + CurveProtocol.BoxOverhead + 1 + payloadLength;

    private int FailDecode(int protocolError)
    {
        Fail(MechanismError.Protocol(protocolError));
        return -2;
    }
}
