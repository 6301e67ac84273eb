namespace Managed.Zmq.Transports.Ws;

/// <summary>The ws:// transport's policy in one place.</summary>
internal static class WsLimits
{
    /// <summary>
    /// The longest HTTP upgrade request or response we read (request line and headers): libzmq's
    /// ws engine reads through an 8 KiB buffer; a peer that sends more without ending its headers
    /// ends its connection instead of growing ours.
    /// </summary>
    public const int MaxHttpHeadLength = 8192;

    /// <summary>libzmq refuses a header name longer than 1024 octets.</summary>
    public const int MaxHeaderNameLength = 1024;

    /// <summary>libzmq refuses a header value longer than 2048 octets.</summary>
    public const int MaxHeaderValueLength = 2048;

    /// <summary>Raw octets read from the socket at once (frames are translated out of this buffer).</summary>
    public const int ReceiveBufferSize = 64 * 1024;

    /// <summary>Translated octets gathered before one send to the socket.</summary>
    public const int SendBufferSize = 64 * 1024;

    /// <summary>
    /// A body chunk at least this long goes from the engine's buffer to the socket without a copy
    /// (server side only: a client must mask, which needs a copy).
    /// </summary>
    public const int DirectSendThreshold = 16 * 1024;

    /// <summary>Control frames (pong, close) queued while a data frame is half sent; a ping flood beyond this is answered once.</summary>
    public const int MaxQueuedControlOctets = 4 * (WsFrameLimits.MaxControlFrameLength);
}

/// <summary>Sizes that follow from RFC 6455.</summary>
internal static class WsFrameLimits
{
    /// <summary>A control frame: a 14-octet header at most and 125 octets of payload.</summary>
    public const int MaxControlFrameLength = Wire.WsFrame.MaxHeaderLength + Wire.WsFrame.MaxControlPayload;
}
