using System.Diagnostics;
using System.Text;

namespace Managed.Zmq.Wire;

/// <summary>Builds and reads the READY command of the NULL handshake (RFC 23 §The NULL Security Mechanism).</summary>
internal static class ZmtpReady
{
    /// <summary>The longest Identity value (RFC 23 §The Identity Property).</summary>
    public const int MaxIdentityLength = byte.MaxValue;

    // RFC 23 §Connection Metadata. Sent in exactly this spelling because libzmq compares these two
    // names case-sensitively (docs/libzmq-behaviour.md L6).
    private static ReadOnlySpan<byte> SocketTypeName => "Socket-Type"u8;

    private static ReadOnlySpan<byte> IdentityName => "Identity"u8;

    /// <summary>The length of the metadata block that <see cref="WriteMetadata"/> writes.</summary>
    public static int GetMetadataLength(
        SocketType socketType, ReadOnlySpan<byte> routingId, ReadOnlySpan<byte> applicationProperties = default)
    {
        int length = ZmtpMetadata.GetPropertyLength(SocketTypeName.Length, ZmtpSocketTypes.GetName(socketType).Length);
        if (ZmtpSocketTypes.SendsIdentity(socketType))
        {
            length += ZmtpMetadata.GetPropertyLength(IdentityName.Length, routingId.Length);
        }

        return length + applicationProperties.Length;
    }

    /// <summary>
    /// Writes our Socket-Type and, where it applies, Identity properties, then the already encoded application
    /// properties (the Metadata socket option's X-… names); returns the length written.
    /// </summary>
    /// <remarks>Shared with PLAIN and CURVE, whose INITIATE and READY carry the same metadata (RFC 24, RFC 26).</remarks>
    public static int WriteMetadata(
        Span<byte> destination, SocketType socketType, ReadOnlySpan<byte> routingId, ReadOnlySpan<byte> applicationProperties = default)
    {
        ReadOnlySpan<byte> typeName = ZmtpSocketTypes.GetName(socketType);
        Debug.Assert(!typeName.IsEmpty, "Only ZMTP socket types take part in a handshake.");
        Debug.Assert(routingId.Length <= MaxIdentityLength, "A routing id is at most 255 octets.");

        // RFC 23 §The Socket-Type Property: the sender SHOULD always include it.
        int written = ZmtpMetadata.WriteProperty(destination, SocketTypeName, typeName);

        // RFC 23 §The Identity Property. libzmq REQ, DEALER and ROUTER send it even when empty (docs/libzmq-behaviour.md L6),
        // so we do too; other types never send it.
        if (ZmtpSocketTypes.SendsIdentity(socketType))
        {
            written += ZmtpMetadata.WriteProperty(destination.Slice(written), IdentityName, routingId);
        }

        // libzmq sends its application properties after these two, in name order; the caller encoded them so.
        applicationProperties.CopyTo(destination.Slice(written));
        return written + applicationProperties.Length;
    }

    /// <summary>The whole READY frame length for this socket.</summary>
    public static int GetFrameLength(
        SocketType socketType, ReadOnlySpan<byte> routingId, ReadOnlySpan<byte> applicationProperties = default) =>
        ZmtpCommandCodec.GetFrameLength(ZmtpCommandNames.Ready.Length, GetMetadataLength(socketType, routingId, applicationProperties));

    /// <summary>Writes a whole READY command frame and returns its length.</summary>
    public static int WriteFrame(
        Span<byte> destination, SocketType socketType, ReadOnlySpan<byte> routingId, ReadOnlySpan<byte> applicationProperties = default)
    {
        int metadataLength = GetMetadataLength(socketType, routingId, applicationProperties);
        int written = ZmtpCommandCodec.WriteFramePrefix(destination, ZmtpCommandNames.Ready, metadataLength);
        written += WriteMetadata(destination.Slice(written), socketType, routingId, applicationProperties);
        return written;
    }

    /// <summary>Extracts Socket-Type and Identity from a READY command's data.</summary>
    /// <returns>False when the metadata is malformed.</returns>
    /// <remarks>
    /// RFC 23 §Connection Metadata makes names case-insensitive, so "socket-type" is recognised.
    /// Other properties (X-…, Resource, anything else) are skipped. When a name repeats, the first
    /// occurrence wins; the RFC gives no meaning to repeats.
    /// </remarks>
    public static bool TryParse(ReadOnlySpan<byte> commandData, out ZmtpReadyProperties properties)
    {
        properties = default;
        bool hasSocketType = false;
        bool hasIdentity = false;
        ReadOnlySpan<byte> socketType = default;
        ReadOnlySpan<byte> identity = default;

        var reader = new ZmtpMetadataReader(commandData);
        while (reader.TryReadNext(out ReadOnlySpan<byte> name, out ReadOnlySpan<byte> value))
        {
            if (!hasSocketType && Ascii.EqualsIgnoreCase(name, SocketTypeName))
            {
                hasSocketType = true;
                socketType = value;
            }
            else if (!hasIdentity && Ascii.EqualsIgnoreCase(name, IdentityName))
            {
                hasIdentity = true;
                identity = value;
            }
        }

        if (reader.IsMalformed)
        {
            return false;
        }

        properties = new ZmtpReadyProperties(hasSocketType, socketType, hasIdentity, identity);
        return true;
    }
}
