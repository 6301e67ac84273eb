namespace Managed.Zmq.Polling;

/// <summary>One proxy side's STATISTICS counters; a multipart message counts once, its bytes are summed.</summary>
internal struct ProxyCounters
{
    public ulong MessagesIn;

    public ulong BytesIn;

    public ulong MessagesOut;

    public ulong BytesOut;
}
