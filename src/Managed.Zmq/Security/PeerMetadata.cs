namespace Managed.Zmq.Security;

/// <summary>What a handshake learnt about the peer (RFC 23 §Connection Metadata).</summary>
internal sealed class PeerMetadata
{
    public static PeerMetadata Empty { get; } = new();

    /// <summary>The Socket-Type value as sent (upper case), or null when absent (libzmq accepts that, L6).</summary>
    public string? SocketType { get; init; }

    /// <summary>The Identity value, or empty.</summary>
    public byte[] Identity { get; init; } = [];

    /// <summary>The ZAP user id (User-Id message property), or empty.</summary>
    public string UserId { get; init; } = string.Empty;

    /// <summary>Every property received, names as sent.</summary>
    public IReadOnlyDictionary<string, byte[]> Properties { get; init; } = new Dictionary<string, byte[]>();
}
