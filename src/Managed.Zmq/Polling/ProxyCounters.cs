using Managed.Zmq.Buffers;
using Managed.Zmq.Options;
using Managed.Zmq.Security.Zap;

namespace Managed.Zmq.Polling;

/// <summary>One proxy side's STATISTICS counters; a multipart message counts once, its bytes are summed.</summary>
internal struct ProxyCounters
{
    /// <summary>Whole messages received on this side.</summary>
    public ulong MessagesIn;

    /// <summary>Bytes of the messages received on this side (all frames).</summary>
    public ulong BytesIn;

    /// <summary>Whole messages sent on this side.</summary>
    public ulong MessagesOut;

    /// <summary>Bytes of the messages sent on this side (all frames).</summary>
    public ulong BytesOut;
}
