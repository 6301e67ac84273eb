namespace Managed.Zmq.Options;

/// <summary>How a socket option's value is shaped and who owns it.</summary>
internal enum OptionKind
{
    /// <summary>A 4-byte integer; reads and writes need exactly 4 bytes.</summary>
    Int32,

    /// <summary>An 8-byte integer; reads and writes need exactly 8 bytes.</summary>
    Int64,

    /// <summary>Opaque bytes, read back with their exact length.</summary>
    Bytes,

    /// <summary>Text stored as the bytes given, read back with a terminating NUL counted in the length.</summary>
    String,

    /// <summary>A 32-byte CURVE key: 32 raw bytes, or 40 Z85 characters (optionally followed by a NUL).</summary>
    CurveKey,

    /// <summary>Read-only state the socket computes (e.g. Rcvmore, Events); <see cref="SocketOptions"/> only checks access and width.</summary>
    Computed,

    /// <summary>A write that the socket acts on (Subscribe/Unsubscribe); <see cref="SocketOptions"/> only checks access and socket type.</summary>
    Action,

    /// <summary>
    /// One "X-name:value" application property per write (the Metadata option): each write adds a property to those
    /// sent in the handshake; write-only, as in libzmq.
    /// </summary>
    ApplicationProperty,

    /// <summary>Unknown number, or a feature this build does not have (GSSAPI, VMCI, Blocky on a socket): EINVAL both ways.</summary>
    Unsupported,
}
