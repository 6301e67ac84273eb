namespace Managed.Zmq.Security.Zap;

/// <summary>A ZAP reply as <see cref="ZapClient.ParseReply"/> understood it (RFC 27 §Message Format).</summary>
internal sealed class ZapReply
{
    /// <summary>A ZMQ_PROTOCOL_ERROR_ZAP_* code when the reply was malformed, else 0.</summary>
    public int ProtocolError { get; init; }

    /// <summary>200, 300, 400 or 500 when well-formed.</summary>
    public int StatusCode { get; init; }

    /// <summary>The status text, for logs.</summary>
    public string StatusText { get; init; } = string.Empty;

    /// <summary>The user id, which becomes the User-Id message property.</summary>
    public string UserId { get; init; } = string.Empty;

    /// <summary>The reply metadata, which become message properties.</summary>
    public IReadOnlyDictionary<string, byte[]> Metadata { get; init; } = new Dictionary<string, byte[]>();

    /// <summary>True when the reply parsed.</summary>
    public bool IsWellFormed => ProtocolError == 0;
}
