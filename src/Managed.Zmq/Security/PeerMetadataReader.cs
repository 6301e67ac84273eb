using System.Text;
using Managed.Zmq.Wire;

namespace Managed.Zmq.Security;

/// <summary>Reads a peer's metadata block (NULL READY, PLAIN/CURVE INITIATE and READY) into its parts.</summary>
internal static class PeerMetadataReader
{
    /// <summary>
    /// Parses <paramref name="metadata"/> and checks its Socket-Type against <paramref name="localType"/>.
    /// </summary>
    /// <returns>
    /// False when the block is malformed or the Socket-Type is unknown or incompatible (RFC 23 §The
    /// Socket-Type Property); a missing Socket-Type is accepted, as libzmq accepts it (docs/libzmq-behaviour.md L6).
    /// </returns>
    public static bool TryRead(
        ReadOnlySpan<byte> metadata,
        SocketType localType,
        out string? socketType,
        out byte[] identity,
        out Dictionary<string, byte[]> properties)
    {
        socketType = null;
        identity = [];
        properties = new Dictionary<string, byte[]>(StringComparer.OrdinalIgnoreCase);
        if (!ZmtpReady.TryParse(metadata, out ZmtpReadyProperties known))
        {
            return false;
        }

        if (known.HasSocketType)
        {
            if (!ZmtpSocketTypes.TryParseName(known.SocketType, out SocketType peerType)
                || !ZmtpSocketTypes.AreCompatible(localType, peerType))
            {
                return false;
            }

            socketType = Encoding.ASCII.GetString(known.SocketType);
        }

        if (known.HasIdentity)
        {
            identity = known.Identity.ToArray();
        }

        // RFC 23 §Connection Metadata: names are case-insensitive; the first occurrence wins.
        var reader = new ZmtpMetadataReader(metadata);
        while (reader.TryReadNext(out ReadOnlySpan<byte> name, out ReadOnlySpan<byte> value))
        {
            properties.TryAdd(Encoding.Latin1.GetString(name), value.ToArray());
        }

        return true;
    }

    /// <summary>Parses a metadata block without any Socket-Type rule (ZAP reply metadata, RFC 27 §Message Format).</summary>
    public static bool TryReadProperties(ReadOnlySpan<byte> metadata, out Dictionary<string, byte[]> properties)
    {
        properties = new Dictionary<string, byte[]>(StringComparer.OrdinalIgnoreCase);
        var reader = new ZmtpMetadataReader(metadata);
        while (reader.TryReadNext(out ReadOnlySpan<byte> name, out ReadOnlySpan<byte> value))
        {
            properties.TryAdd(Encoding.Latin1.GetString(name), value.ToArray());
        }

        return !reader.IsMalformed;
    }
}
