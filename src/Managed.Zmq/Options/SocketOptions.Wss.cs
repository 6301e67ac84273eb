namespace Managed.Zmq.Options;

/// <summary>Typed reads of the wss:// options (docs/ws.md, "wss://"): raw, as set; the wss transport parses them when Bind or Connect takes them.</summary>
internal sealed partial class SocketOptions
{
    /// <summary>Empty when not set.</summary>
    public ReadOnlySpan<byte> WssKeyPem => _blobs[OptionTable.WssKeyPemSlot];

    /// <summary>Empty when not set.</summary>
    public ReadOnlySpan<byte> WssCertPem => _blobs[OptionTable.WssCertPemSlot];

    /// <summary>Empty when not set.</summary>
    public ReadOnlySpan<byte> WssTrustPem => _blobs[OptionTable.WssTrustPemSlot];

    /// <summary>Empty when not set: then no server name is sent or checked, as in libzmq.</summary>
    public ReadOnlySpan<byte> WssHostname => _blobs[OptionTable.WssHostnameSlot];

    public bool WssTrustSystem => _scalars[OptionId.WssTrustSystem] != 0;
}
