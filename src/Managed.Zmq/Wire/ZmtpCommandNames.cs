namespace Managed.Zmq.Wire;

/// <summary>The command names used on the wire, spelled exactly as the RFCs spell them.</summary>
internal static class ZmtpCommandNames
{
    /// <summary>NULL, PLAIN and CURVE handshake completion (RFC 23 §The NULL Security Mechanism).</summary>
    public static ReadOnlySpan<byte> Ready => "READY"u8;

    /// <summary>Handshake refusal (RFC 23 §Error Handling).</summary>
    public static ReadOnlySpan<byte> Error => "ERROR"u8;

    /// <summary>Heartbeat request (RFC 37 §Connection Heartbeating).</summary>
    public static ReadOnlySpan<byte> Ping => "PING"u8;

    /// <summary>Heartbeat reply (RFC 37 §Connection Heartbeating).</summary>
    public static ReadOnlySpan<byte> Pong => "PONG"u8;

    /// <summary>Subscription (RFC 37 §The Publish-Subscribe Pattern).</summary>
    public static ReadOnlySpan<byte> Subscribe => "SUBSCRIBE"u8;

    /// <summary>Unsubscription (RFC 37 §The Publish-Subscribe Pattern).</summary>
    public static ReadOnlySpan<byte> Cancel => "CANCEL"u8;

    /// <summary>PLAIN and CURVE client greeting (RFC 24, RFC 26).</summary>
    public static ReadOnlySpan<byte> Hello => "HELLO"u8;

    /// <summary>PLAIN and CURVE server answer to HELLO (RFC 24, RFC 26).</summary>
    public static ReadOnlySpan<byte> Welcome => "WELCOME"u8;

    /// <summary>PLAIN and CURVE client metadata (RFC 24, RFC 26).</summary>
    public static ReadOnlySpan<byte> Initiate => "INITIATE"u8;

    /// <summary>CURVE encrypted message envelope (RFC 26).</summary>
    public static ReadOnlySpan<byte> Message => "MESSAGE"u8;

    /// <summary>DISH joins a group (RFC 37 §The Radio-Dish Pattern).</summary>
    public static ReadOnlySpan<byte> Join => "JOIN"u8;

    /// <summary>DISH leaves a group (RFC 37 §The Radio-Dish Pattern).</summary>
    public static ReadOnlySpan<byte> Leave => "LEAVE"u8;
}
