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

    /// <summary>
    /// Raw octets read from the socket at once (frames are translated out of this buffer) on a new connection:
    /// little memory for an idle or request-reply one, and room for the longest HTTP head.
    /// </summary>
    public const int InitialReceiveBufferSize = 16 * 1024;

    /// <summary>
    /// What the receive buffer of a busy stream grows to (it doubles while reads come back full), as the engine's
    /// own receive space does under tcp://: fewer reads, and fewer wake-ups of the receiving thread, per message.
    /// </summary>
    public const int MaxReceiveBufferSize = 192 * 1024;

    /// <summary>
    /// A body rest at least this long, with nothing else buffered, is read from the socket into the engine's
    /// buffer without a copy. A shorter one is read into the receive buffer with the frames behind it: reading
    /// only the rest of the last body cut by a full buffer cost one more read for every refill.
    /// </summary>
    public const int DirectReceiveThreshold = 16 * 1024;

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
