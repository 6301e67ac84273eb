using System.Buffers.Binary;
using System.Diagnostics;
using System.Security.Cryptography;
using Managed.Zmq.Wire;

namespace Managed.Zmq.Security;

/// <summary>
/// The client side of CurveZMQ (RFC 26, as libzmq reads it: docs/libzmq-behaviour.md L9): HELLO, WELCOME, INITIATE (cookie,
/// vouch, metadata), READY, then MESSAGE traffic.
/// </summary>
internal sealed class CurveClient : CurveMechanismBase
{
    /// <summary>Our transient key pair C′/c′, made for this connection only (RFC 26 §The HELLO Command).</summary>
    private readonly byte[] _transientPublic = new byte[CurveProtocol.KeySize];

    private readonly byte[] _transientSecret = new byte[CurveProtocol.KeySize];

    /// <summary>beforenm(S, c′): HELLO's signature box and WELCOME's box.</summary>
    private readonly byte[] _helloKey = new byte[CurveProtocol.KeySize];

    /// <summary>False until a valid WELCOME; then READY is awaited.</summary>
    private bool _welcomed;

    public CurveClient(MechanismSettings settings)
        : base(settings)
    {
        Debug.Assert(settings.CurveServerKey.Length == CurveProtocol.KeySize, "Options keep CURVE keys to 32 octets.");
        GenerateKeyPair(_transientSecret, _transientPublic);

        // A server key of small order gives no usable shared key (libsodium refuses it too).
        if (settings.CurveServerKey.Length != CurveProtocol.KeySize
            || !Crypto.BoxBeforeNm(settings.CurveServerKey, _transientSecret, _helloKey))
        {
            FailCryptographic();
            return;
        }

        QueueCommand(BuildHello());
    }

    protected override ReadOnlySpan<byte> OwnMessagePrefix => CurveProtocol.ClientMessagePrefix;

    protected override ReadOnlySpan<byte> PeerMessagePrefix => CurveProtocol.ServerMessagePrefix;

    protected override bool ReportsInvalidMetadata => true;

    internal override IEnumerable<byte[]> SecretBuffers => [.. base.SecretBuffers, _transientSecret, _helloKey];

    protected override void ProcessHandshakeCommand(ReadOnlySpan<byte> body, ZmtpCommand command)
    {
        // RFC 26 §High-level Grammar: C:hello ( S:welcome | S:error ) C:initiate ( S:ready | S:error ).
        if (Status == MechanismStatus.Ready)
        {
            FailUnexpected();
        }
        else if (command.Is(ZmtpCommandNames.Error))
        {
            ProcessError(command);
        }
        else if (!_welcomed && command.Is(ZmtpCommandNames.Welcome))
        {
            ProcessWelcome(body);
        }
        else if (_welcomed && command.Is(ZmtpCommandNames.Ready))
        {
            ProcessReady(body);
        }
        else
        {
            FailUnexpected();
        }
    }

    protected override void OnZapAccepted() => Debug.Fail("A CURVE client never consults ZAP.");

    /// <summary>RFC 26 §The HELLO Command: 05 HELLO, version 1.0, 72 zeros, C′, short nonce, Box[64 zeros](C′→S).</summary>
    private byte[] BuildHello()
    {
        var data = new byte[CurveProtocol.HelloBodySize - 6];
        data[0] = 1;
        data[1] = 0;
        int offset = 2 + CurveProtocol.HelloPaddingSize;
        _transientPublic.CopyTo(data, offset);
        offset += CurveProtocol.KeySize;
        Span<byte> shortNonce = data.AsSpan(offset, CurveProtocol.ShortNonceSize);
        BinaryPrimitives.WriteUInt64BigEndian(shortNonce, TakeNonce());
        offset += CurveProtocol.ShortNonceSize;

        ReadOnlySpan<byte> zeros = stackalloc byte[64];
        byte[] signature = Seal(_helloKey, CurveProtocol.HelloPrefix, shortNonce, zeros);
        signature.CopyTo(data, offset);
        return BuildCommand(ZmtpCommandNames.Hello, data);
    }

    private void ProcessWelcome(ReadOnlySpan<byte> body)
    {
        // docs/libzmq-behaviour.md L9: the client insists on exactly 168 octets, and reports anything else as cryptographic.
        if (body.Length != CurveProtocol.WelcomeBodySize)
        {
            FailCryptographic();
            return;
        }

        // RFC 26 §The WELCOME Command: long nonce ("WELCOME-" + 16), then Box[S′ + cookie](S→C′).
        ReadOnlySpan<byte> longNonce = body.Slice(8, CurveProtocol.LongNonceSize);
        ReadOnlySpan<byte> box = body.Slice(8 + CurveProtocol.LongNonceSize);
        Span<byte> plaintext = stackalloc byte[CurveProtocol.KeySize + CurveProtocol.CookieSize];
        if (!Open(_helloKey, CurveProtocol.WelcomePrefix, longNonce, box, plaintext))
        {
            FailCryptographic();
            return;
        }

        ReadOnlySpan<byte> serverTransient = plaintext.Slice(0, CurveProtocol.KeySize);
        ReadOnlySpan<byte> cookie = plaintext.Slice(CurveProtocol.KeySize, CurveProtocol.CookieSize);
        if (!Crypto.BoxBeforeNm(serverTransient, _transientSecret, SessionKey))
        {
            CryptographicOperations.ZeroMemory(plaintext);
            FailCryptographic();
            return;
        }

        _welcomed = true;
        byte[] initiate = BuildInitiate(serverTransient, cookie);
        CryptographicOperations.ZeroMemory(plaintext);
        CryptographicOperations.ZeroMemory(_helloKey);
        QueueCommand(initiate);
    }

    /// <summary>
    /// RFC 26 §The INITIATE Command: 08 INITIATE, cookie, short nonce, Box[C + vouch + metadata](C′→S′),
    /// where vouch = long nonce + Box[C′ + S](C→S′).
    /// </summary>
    private byte[] BuildInitiate(ReadOnlySpan<byte> serverTransient, ReadOnlySpan<byte> cookie)
    {
        Span<byte> vouchNonce = stackalloc byte[CurveProtocol.LongNonceSize];
        RandomNumberGenerator.Fill(vouchNonce);
        Span<byte> vouchPlaintext = stackalloc byte[2 * CurveProtocol.KeySize];
        _transientPublic.CopyTo(vouchPlaintext);
        Settings.CurveServerKey.CopyTo(vouchPlaintext.Slice(CurveProtocol.KeySize));

        Span<byte> vouchKey = stackalloc byte[CurveProtocol.KeySize];
        bool keyValid = Crypto.BoxBeforeNm(serverTransient, Settings.CurveSecretKey, vouchKey);
        Debug.Assert(keyValid, "S′ passed beforenm with c′, so it is not of small order.");
        byte[] vouchBox = Seal(vouchKey, CurveProtocol.VouchPrefix, vouchNonce, vouchPlaintext);
        CryptographicOperations.ZeroMemory(vouchKey);

        byte[] metadata = BuildOwnMetadata();
        var plaintext = new byte[CurveProtocol.KeySize + CurveProtocol.VouchSize + metadata.Length];
        Settings.CurvePublicKey.CopyTo(plaintext, 0);
        vouchNonce.CopyTo(plaintext.AsSpan(CurveProtocol.KeySize));
        vouchBox.CopyTo(plaintext, CurveProtocol.KeySize + CurveProtocol.LongNonceSize);
        metadata.CopyTo(plaintext, CurveProtocol.KeySize + CurveProtocol.VouchSize);

        Span<byte> shortNonce = stackalloc byte[CurveProtocol.ShortNonceSize];
        BinaryPrimitives.WriteUInt64BigEndian(shortNonce, TakeNonce());
        byte[] box = Seal(SessionKey, CurveProtocol.InitiatePrefix, shortNonce, plaintext);

        var data = new byte[CurveProtocol.CookieSize + CurveProtocol.ShortNonceSize + box.Length];
        cookie.CopyTo(data);
        shortNonce.CopyTo(data.AsSpan(CurveProtocol.CookieSize));
        box.CopyTo(data, CurveProtocol.CookieSize + CurveProtocol.ShortNonceSize);
        return BuildCommand(ZmtpCommandNames.Initiate, data);
    }

    private void ProcessReady(ReadOnlySpan<byte> body)
    {
        // docs/libzmq-behaviour.md L9: READY is at least 30 octets.
        if (body.Length < CurveProtocol.MinReadyBodySize)
        {
            Fail(MechanismError.Protocol(ZmqConstants.ZMQ_PROTOCOL_ERROR_ZMTP_MALFORMED_COMMAND_READY));
            return;
        }

        // RFC 26 §The READY Command: short nonce ("CurveZMQREADY---" + 8), Box[metadata](S′→C′).
        ReadOnlySpan<byte> shortNonce = body.Slice(6, CurveProtocol.ShortNonceSize);
        ReadOnlySpan<byte> box = body.Slice(6 + CurveProtocol.ShortNonceSize);
        var metadata = new byte[box.Length - CurveProtocol.BoxOverhead];
        if (!Open(SessionKey, CurveProtocol.ReadyPrefix, shortNonce, box, metadata))
        {
            FailCryptographic();
            return;
        }

        if (!TryAcceptPeerNonce(shortNonce) || !TryAcceptPeerMetadata(metadata))
        {
            return;
        }

        WipeHandshakeKeys();
        BecomeReady();
    }

    private void WipeHandshakeKeys()
    {
        CryptographicOperations.ZeroMemory(_transientSecret);
        CryptographicOperations.ZeroMemory(_helloKey);
    }
}
