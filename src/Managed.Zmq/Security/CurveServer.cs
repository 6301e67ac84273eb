using System.Buffers.Binary;
using System.Diagnostics;
using System.Security.Cryptography;
using Managed.Zmq.Wire;

namespace Managed.Zmq.Security;

/// <summary>
/// The server side of CurveZMQ (RFC 26, as libzmq reads it: docs/libzmq-behaviour.md L9). ZAP, when a handler is bound, sees
/// the client's permanent key after INITIATE; without one, every client is accepted (as in Net.Zmq).
/// </summary>
internal sealed class CurveServer : CurveMechanismBase
{
    /// <summary>Our transient key pair S′/s′, made on HELLO (RFC 26 §The HELLO Command).</summary>
    private readonly byte[] _transientPublic = new byte[CurveProtocol.KeySize];

    private readonly byte[] _transientSecret = new byte[CurveProtocol.KeySize];

    /// <summary>The client's transient key C′ from HELLO.</summary>
    private readonly byte[] _clientTransient = new byte[CurveProtocol.KeySize];

    /// <summary>The short-lived cookie key K, one per WELCOME (RFC 26 §The WELCOME Command).</summary>
    private readonly byte[] _cookieKey = new byte[CurveProtocol.KeySize];

    /// <summary>Where the server is in the exchange.</summary>
    private State _state = State.ExpectHello;

    public CurveServer(MechanismSettings settings)
        : base(settings)
    {
        Debug.Assert(settings.CurveSecretKey.Length == CurveProtocol.KeySize, "Options keep CURVE keys to 32 octets.");
    }

    private enum State
    {
        ExpectHello,
        ExpectInitiate,
        WaitingForZap,
        Done,
    }

    protected override ReadOnlySpan<byte> OwnMessagePrefix => CurveProtocol.ServerMessagePrefix;

    protected override ReadOnlySpan<byte> PeerMessagePrefix => CurveProtocol.ClientMessagePrefix;

    internal override IEnumerable<byte[]> SecretBuffers => [.. base.SecretBuffers, _transientSecret, _cookieKey];

    protected override void ProcessHandshakeCommand(ReadOnlySpan<byte> body, ZmtpCommand command)
    {
        switch (_state)
        {
            case State.ExpectHello when command.Is(ZmtpCommandNames.Hello):
                ProcessHello(body);
                break;
            case State.ExpectInitiate when command.Is(ZmtpCommandNames.Initiate):
                ProcessInitiate(body);
                break;
            default:
                FailUnexpected();
                break;
        }
    }

    protected override void OnZapAccepted()
    {
        Debug.Assert(_state == State.WaitingForZap, "ZAP answers only the INITIATE.");
        QueueReady();
    }

    private void ProcessHello(ReadOnlySpan<byte> body)
    {
        // RFC 26 §The HELLO Command and docs/libzmq-behaviour.md L9: exactly 200 octets, version 1.0; the padding is not checked.
        if (body.Length != CurveProtocol.HelloBodySize || body[6] != 1 || body[7] != 0)
        {
            Fail(MechanismError.Protocol(ZmqConstants.ZMQ_PROTOCOL_ERROR_ZMTP_MALFORMED_COMMAND_HELLO));
            return;
        }

        const int ClientKeyOffset = 8 + CurveProtocol.HelloPaddingSize;
        const int NonceOffset = ClientKeyOffset + CurveProtocol.KeySize;
        const int BoxOffset = NonceOffset + CurveProtocol.ShortNonceSize;
        body.Slice(ClientKeyOffset, CurveProtocol.KeySize).CopyTo(_clientTransient);
        ReadOnlySpan<byte> shortNonce = body.Slice(NonceOffset, CurveProtocol.ShortNonceSize);

        // The signature box proves the client knows c′ and our S; a box that does not open (or a
        // C′ of small order) is ZMTP_CRYPTOGRAPHIC (docs/libzmq-behaviour.md L9).
        Span<byte> helloKey = stackalloc byte[CurveProtocol.KeySize];
        Span<byte> signature = stackalloc byte[64];
        if (!Crypto.BoxBeforeNm(_clientTransient, Settings.CurveSecretKey, helloKey)
            || !Open(helloKey, CurveProtocol.HelloPrefix, shortNonce, body.Slice(BoxOffset), signature))
        {
            CryptographicOperations.ZeroMemory(helloKey);
            FailCryptographic();
            return;
        }

        if (!TryAcceptPeerNonce(shortNonce))
        {
            CryptographicOperations.ZeroMemory(helloKey);
            return;
        }

        byte[] welcome = BuildWelcome(helloKey);
        CryptographicOperations.ZeroMemory(helloKey);
        _state = State.ExpectInitiate;
        QueueCommand(welcome);
    }

    /// <summary>
    /// RFC 26 §The WELCOME Command: 07 WELCOME, long nonce, Box[S′ + cookie](S→C′), where cookie =
    /// long nonce + Box[C′ + s′](K) with a fresh K.
    /// </summary>
    private byte[] BuildWelcome(ReadOnlySpan<byte> helloKey)
    {
        GenerateKeyPair(_transientSecret, _transientPublic);
        RandomNumberGenerator.Fill(_cookieKey);

        Span<byte> cookiePlaintext = stackalloc byte[2 * CurveProtocol.KeySize];
        _clientTransient.CopyTo(cookiePlaintext);
        _transientSecret.CopyTo(cookiePlaintext.Slice(CurveProtocol.KeySize));
        Span<byte> cookieNonce = stackalloc byte[CurveProtocol.LongNonceSize];
        RandomNumberGenerator.Fill(cookieNonce);
        byte[] cookieBox = Seal(_cookieKey, CurveProtocol.CookiePrefix, cookieNonce, cookiePlaintext);
        CryptographicOperations.ZeroMemory(cookiePlaintext);

        Span<byte> plaintext = stackalloc byte[CurveProtocol.KeySize + CurveProtocol.CookieSize];
        _transientPublic.CopyTo(plaintext);
        cookieNonce.CopyTo(plaintext.Slice(CurveProtocol.KeySize));
        cookieBox.CopyTo(plaintext.Slice(CurveProtocol.KeySize + CurveProtocol.LongNonceSize));

        Span<byte> welcomeNonce = stackalloc byte[CurveProtocol.LongNonceSize];
        RandomNumberGenerator.Fill(welcomeNonce);
        byte[] box = Seal(helloKey, CurveProtocol.WelcomePrefix, welcomeNonce, plaintext);

        var data = new byte[CurveProtocol.LongNonceSize + box.Length];
        welcomeNonce.CopyTo(data);
        box.CopyTo(data, CurveProtocol.LongNonceSize);
        return BuildCommand(ZmtpCommandNames.Welcome, data);
    }

    private void ProcessInitiate(ReadOnlySpan<byte> body)
    {
        // docs/libzmq-behaviour.md L9: INITIATE is at least 257 octets.
        if (body.Length < CurveProtocol.MinInitiateBodySize)
        {
            Fail(MechanismError.Protocol(ZmqConstants.ZMQ_PROTOCOL_ERROR_ZMTP_MALFORMED_COMMAND_INITIATE));
            return;
        }

        const int CookieOffset = 9;
        const int NonceOffset = CookieOffset + CurveProtocol.CookieSize;
        const int BoxOffset = NonceOffset + CurveProtocol.ShortNonceSize;

        // RFC 26 §The INITIATE Command: the cookie must open under K and hold the C′ and s′ of this
        // connection; K is discarded once INITIATE arrived.
        Span<byte> cookiePlaintext = stackalloc byte[2 * CurveProtocol.KeySize];
        bool cookieValid = Open(
            _cookieKey,
            CurveProtocol.CookiePrefix,
            body.Slice(CookieOffset, CurveProtocol.LongNonceSize),
            body.Slice(CookieOffset + CurveProtocol.LongNonceSize, CurveProtocol.CookieSize - CurveProtocol.LongNonceSize),
            cookiePlaintext);
        CryptographicOperations.ZeroMemory(_cookieKey);
        cookieValid = cookieValid
            & CryptographicOperations.FixedTimeEquals(cookiePlaintext.Slice(0, CurveProtocol.KeySize), _clientTransient)
            & CryptographicOperations.FixedTimeEquals(cookiePlaintext.Slice(CurveProtocol.KeySize), _transientSecret);
        CryptographicOperations.ZeroMemory(cookiePlaintext);
        if (!cookieValid)
        {
            FailCryptographic();
            return;
        }

        ReadOnlySpan<byte> shortNonce = body.Slice(NonceOffset, CurveProtocol.ShortNonceSize);
        if (!Crypto.BoxBeforeNm(_clientTransient, _transientSecret, SessionKey))
        {
            FailCryptographic();
            return;
        }

        ReadOnlySpan<byte> box = body.Slice(BoxOffset);
        var plaintext = new byte[box.Length - CurveProtocol.BoxOverhead];
        if (!Open(SessionKey, CurveProtocol.InitiatePrefix, shortNonce, box, plaintext))
        {
            FailCryptographic();
            return;
        }

        if (!TryAcceptPeerNonce(shortNonce))
        {
            return;
        }

        // The vouch: Box[C′ + S](C→S′) under "VOUCH---" + its long nonce. Only C′ is compared (docs/libzmq-behaviour.md L9).
        byte[] clientPermanent = plaintext.AsSpan(0, CurveProtocol.KeySize).ToArray();
        Span<byte> vouchKey = stackalloc byte[CurveProtocol.KeySize];
        Span<byte> vouchPlaintext = stackalloc byte[2 * CurveProtocol.KeySize];
        bool vouchOpened = Crypto.BoxBeforeNm(clientPermanent, _transientSecret, vouchKey)
            && Open(
                vouchKey,
                CurveProtocol.VouchPrefix,
                plaintext.AsSpan(CurveProtocol.KeySize, CurveProtocol.LongNonceSize),
                plaintext.AsSpan(CurveProtocol.KeySize + CurveProtocol.LongNonceSize, CurveProtocol.VouchSize - CurveProtocol.LongNonceSize),
                vouchPlaintext);
        CryptographicOperations.ZeroMemory(vouchKey);
        if (!vouchOpened)
        {
            FailCryptographic();
            return;
        }

        // A vouch that opens but names another short-term key: libzmq reports a key exchange failure.
        if (!CryptographicOperations.FixedTimeEquals(vouchPlaintext.Slice(0, CurveProtocol.KeySize), _clientTransient))
        {
            Fail(MechanismError.Protocol(ZmqConstants.ZMQ_PROTOCOL_ERROR_ZMTP_KEY_EXCHANGE));
            return;
        }

        WipeHandshakeKeys();
        if (!TryAcceptPeerMetadata(plaintext.AsSpan(CurveProtocol.KeySize + CurveProtocol.VouchSize)))
        {
            return;
        }

        // docs/libzmq-behaviour.md L9: with a ZAP handler the client's permanent key is the credential; without one,
        // every client is accepted.
        if (Settings.IsZapHandlerBound())
        {
            _state = State.WaitingForZap;
            RequestZap(clientPermanent);
        }
        else
        {
            QueueReady();
        }
    }

    /// <summary>RFC 26 §The READY Command: 05 READY, short nonce, Box[metadata](S′→C′); the server may send once it is out.</summary>
    private void QueueReady()
    {
        _state = State.Done;
        Span<byte> shortNonce = stackalloc byte[CurveProtocol.ShortNonceSize];
        BinaryPrimitives.WriteUInt64BigEndian(shortNonce, TakeNonce());
        byte[] box = Seal(SessionKey, CurveProtocol.ReadyPrefix, shortNonce, BuildOwnMetadata());
        var data = new byte[CurveProtocol.ShortNonceSize + box.Length];
        shortNonce.CopyTo(data);
        box.CopyTo(data, CurveProtocol.ShortNonceSize);
        QueueCommand(BuildCommand(ZmtpCommandNames.Ready, data), BecomeReady);
    }

    private void WipeHandshakeKeys()
    {
        CryptographicOperations.ZeroMemory(_transientSecret);
        CryptographicOperations.ZeroMemory(_cookieKey);
    }
}
