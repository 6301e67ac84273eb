namespace Managed.Zmq.Security;

/// <summary>CurveZMQ's sizes and nonce prefixes (RFC 26 §High-level Grammar, as libzmq reads it: docs/libzmq-behaviour.md L9).</summary>
internal static class CurveProtocol
{
    /// <summary>Every key: 32 octets (RFC 26 §CurveZMQ Commands).</summary>
    public const int KeySize = 32;

    /// <summary>A box is this much longer than its plaintext.</summary>
    public const int BoxOverhead = 16;

    /// <summary>A full nonce.</summary>
    public const int NonceSize = 24;

    /// <summary>An 8-octet short nonce (a counter).</summary>
    public const int ShortNonceSize = 8;

    /// <summary>A 16-octet long nonce (random).</summary>
    public const int LongNonceSize = 16;

    /// <summary>HELLO's body: exactly 200 octets.</summary>
    public const int HelloBodySize = 200;

    /// <summary>HELLO's anti-amplification padding: 72 octets, as the 200-octet total and libzmq have it (docs/libzmq-behaviour.md L9).</summary>
    public const int HelloPaddingSize = 72;

    /// <summary>WELCOME's body: exactly 168 octets.</summary>
    public const int WelcomeBodySize = 168;

    /// <summary>A cookie: long nonce and an 80-octet box.</summary>
    public const int CookieSize = 96;

    /// <summary>A vouch: long nonce and an 80-octet box.</summary>
    public const int VouchSize = 96;

    /// <summary>INITIATE's smallest body: 257 octets.</summary>
    public const int MinInitiateBodySize = 257;

    /// <summary>READY's smallest body: 30 octets.</summary>
    public const int MinReadyBodySize = 30;

    /// <summary>MESSAGE's smallest body: 33 octets.</summary>
    public const int MinMessageBodySize = 33;

    /// <summary>MESSAGE's fixed part before the box: 07 "MESSAGE" and the short nonce.</summary>
    public const int MessageHeaderSize = 16;

    /// <summary>Payload flag bit 0: more frames follow (RFC 26 §The MESSAGE Command).</summary>
    public const byte FlagMore = 0x01;

    /// <summary>Payload flag bit 1: the payload is a ZMTP command (docs/libzmq-behaviour.md L9; RFC 26 reserves the bit).</summary>
    public const byte FlagCommand = 0x02;

    public static ReadOnlySpan<byte> HelloPrefix => "CurveZMQHELLO---"u8;

    public static ReadOnlySpan<byte> WelcomePrefix => "WELCOME-"u8;

    public static ReadOnlySpan<byte> CookiePrefix => "COOKIE--"u8;

    public static ReadOnlySpan<byte> InitiatePrefix => "CurveZMQINITIATE"u8;

    public static ReadOnlySpan<byte> VouchPrefix => "VOUCH---"u8;

    public static ReadOnlySpan<byte> ReadyPrefix => "CurveZMQREADY---"u8;

    /// <summary>MESSAGE from the client (docs/libzmq-behaviour.md L9).</summary>
    public static ReadOnlySpan<byte> ClientMessagePrefix => "CurveZMQMESSAGEC"u8;

    /// <summary>MESSAGE from the server (docs/libzmq-behaviour.md L9).</summary>
    public static ReadOnlySpan<byte> ServerMessagePrefix => "CurveZMQMESSAGES"u8;

    /// <summary>The MESSAGE body's first eight octets: 07 "MESSAGE", a length octet and the name (docs/libzmq-behaviour.md L9).</summary>
    public static ReadOnlySpan<byte> MessageCommandPrefix => "\u0007MESSAGE"u8;

    /// <summary>Writes prefix ‖ tail into a 24-octet nonce.</summary>
    public static void BuildNonce(Span<byte> nonce, ReadOnlySpan<byte> prefix, ReadOnlySpan<byte> tail)
    {
        prefix.CopyTo(nonce);
        tail.CopyTo(nonce.Slice(prefix.Length));
    }
}
