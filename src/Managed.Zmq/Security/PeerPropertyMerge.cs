using System.Text;
using Managed.Zmq.Security.Zap;
using Managed.Zmq.Wire;

namespace Managed.Zmq.Security;

/// <summary>How a connection's <see cref="PeerMetadata.Properties"/> are put together from its sources.</summary>
internal static class PeerPropertyMerge
{
    /// <summary>
    /// Merges a connection's properties in libzmq 4.3's order, where the first source to name a property
    /// keeps it: the peer address, then what ZAP said (its user id, then its metadata frame), then what the
    /// peer sent in READY/INITIATE. So neither the peer nor the ZAP metadata frame can override the address,
    /// and the peer cannot override what its ZAP handler decided, <c>User-Id</c> included.
    /// </summary>
    /// <param name="peerAddress">Empty when the transport has none.</param>
    /// <param name="zapReply">Null when no ZAP handler was consulted.</param>
    /// <param name="peerProperties">The peer's own metadata block, names as sent.</param>
    public static Dictionary<string, byte[]> Merge(string peerAddress, ZapReply? zapReply, IReadOnlyDictionary<string, byte[]> peerProperties)
    {
        var merged = new Dictionary<string, byte[]>(StringComparer.OrdinalIgnoreCase);
        if (peerAddress.Length > 0)
        {
            merged.TryAdd(PeerMetadata.PeerAddressName, Encoding.UTF8.GetBytes(peerAddress));
        }

        if (zapReply is not null)
        {
            // libzmq stores the reply's user id even when empty: zmq_msg_gets then gives "".
            merged.TryAdd(PeerMetadata.UserIdName, Encoding.UTF8.GetBytes(zapReply.UserId));
            foreach (KeyValuePair<string, byte[]> property in zapReply.Metadata)
            {
                merged.TryAdd(property.Key, property.Value);
            }
        }

        foreach (KeyValuePair<string, byte[]> property in peerProperties)
        {
            merged.TryAdd(property.Key, property.Value);
        }

        return merged;
    }
}
