namespace Managed.Zmq.Transports.Tls;

/// <summary>The wss:// TLS layer's policy in one place.</summary>
internal static class TlsLimits
{
    /// <summary>
    /// The most plaintext octets one write puts in a TLS record (RFC 8446 allows 16 KiB). libzmq's wss
    /// engine reads once per readiness event, at least its in_batch_size (8192 by default) at a time;
    /// what GnuTLS keeps of a larger record raises no further event, so the tail of a burst would wait
    /// for the next bytes on the socket. Records of at most this size are always read whole.
    /// </summary>
    public const int MaxRecordPlaintext = 8192;
}
