namespace Managed.Zmq.Wire;

/// <summary>The outcome of decoding wire input, used instead of exceptions for bad peer data.</summary>
internal enum ZmtpStatus
{
    /// <summary>The item was decoded; the out values are valid.</summary>
    Done,

    /// <summary>The input ends before the item does; nothing was consumed, retry with more octets.</summary>
    NeedMoreData,

    /// <summary>The input can never become valid; the connection must be closed.</summary>
    Malformed,
}
