using System.Text;

namespace Managed.Zmq.Wire;

/// <summary>
/// What a handshake learnt about the peer (RFC 23 §Connection Metadata), merged as libzmq merges it,
/// and the text <see cref="Message.GetMetadata"/> returns. One immutable instance per connection:
/// every frame received over the connection points at it, so a receive allocates nothing for it.
/// The record sits here, under both the security layer that fills it from READY/INITIATE and ZAP and
/// the pipes that carry it with every frame; building it (parsing, merging) stays in Security.
/// </summary>
internal sealed class PeerMetadata
{
    /// <summary>The routing-id property as libzmq's READY sends it (RFC 23 §The Identity Property).</summary>
    public const string IdentityName = "Identity";

    /// <summary>libzmq's later name for the same property (ZMQ_MSG_PROPERTY_ROUTING_ID).</summary>
    public const string RoutingIdName = "Routing-Id";

    /// <summary>The connection's remote address (ZMQ_MSG_PROPERTY_PEER_ADDRESS).</summary>
    public const string PeerAddressName = "Peer-Address";

    /// <summary>The user id a ZAP handler returned (ZMQ_MSG_PROPERTY_USER_ID, RFC 27 §Message Format).</summary>
    public const string UserIdName = "User-Id";

    private static readonly Dictionary<string, string> NoText = new(StringComparer.OrdinalIgnoreCase);

    private readonly IReadOnlyDictionary<string, byte[]> _properties = new Dictionary<string, byte[]>();

    /// <summary>The properties as text, built once per connection.</summary>
    private readonly Dictionary<string, string> _text = NoText;

    public static PeerMetadata Empty { get; } = new();

    /// <summary>The Socket-Type value as sent (upper case), or null when absent (libzmq accepts that, docs/libzmq-behaviour.md L6).</summary>
    public string? SocketType { get; init; }

    /// <summary>The Identity value, or empty.</summary>
    public byte[] Identity { get; init; } = [];

    /// <summary>The ZAP user id (User-Id message property), or empty.</summary>
    public string UserId { get; init; } = string.Empty;

    /// <summary>Every message property, already merged (Security's PeerPropertyMerge); names are case-insensitive.</summary>
    public IReadOnlyDictionary<string, byte[]> Properties
    {
        get => _properties;
        init
        {
            _properties = value;
            var text = new Dictionary<string, string>(value.Count, StringComparer.OrdinalIgnoreCase);
            foreach (KeyValuePair<string, byte[]> property in value)
            {
                // libzmq hands the value out as a C string; UTF-8 is what Net.Zmq and pyzmq decode it as.
                text[property.Key] = Encoding.UTF8.GetString(property.Value);
            }

            _text = text;
        }
    }

    /// <summary>
    /// The value of property <paramref name="name"/>, or null. "Identity" and "Routing-Id" name the same
    /// property (libzmq answers "Identity" from "Routing-Id"; we answer both ways).
    /// </summary>
    public string? Get(string name)
    {
        if (_text.TryGetValue(name, out string? value))
        {
            return value;
        }

        if (string.Equals(name, IdentityName, StringComparison.OrdinalIgnoreCase))
        {
            return _text.GetValueOrDefault(RoutingIdName);
        }

        if (string.Equals(name, RoutingIdName, StringComparison.OrdinalIgnoreCase))
        {
            return _text.GetValueOrDefault(IdentityName);
        }

        return null;
    }
}
