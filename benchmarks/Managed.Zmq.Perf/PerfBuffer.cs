namespace Managed.Zmq.Perf;

/// <summary>
/// What the throughput modes send and receive, from <c>PERF_BUFFER</c>:
/// <list type="bullet">
/// <item><c>span</c> (the default): one <c>byte[]</c> sent as a span and received into a span,
/// so each side copies the payload once, the plain-array path most callers use;</item>
/// <item><c>message</c>: libzmq's own perf tools line for line. They keep one <c>zmq_msg_t</c> per
/// side: remote_thr re-initialises it for every send (<c>zmq_msg_init_size</c> + <c>zmq_sendmsg</c>),
/// here <see cref="Message.Rebuild(int)"/> + Send on one Message; local_thr receives into it
/// (<c>zmq_recvmsg</c>), here Recv into one Message. The payload is never filled or copied by the
/// caller at either end;</item>
/// <item><c>pool</c>: a <see cref="MessagePool.Shared"/> rent per send, one Message to receive into.</item>
/// </list>
/// </summary>
internal enum PerfBufferMode
{
    Span,
    Message,
    Pool,
}

internal static class PerfBuffer
{
    public static PerfBufferMode Mode { get; } = Environment.GetEnvironmentVariable("PERF_BUFFER")?.ToLowerInvariant() switch
    {
        null or "" or "span" => PerfBufferMode.Span,
        "message" => PerfBufferMode.Message,
        "pool" => PerfBufferMode.Pool,
        var other => throw new ArgumentException($"PERF_BUFFER={other}: expected span, message or pool"),
    };
}
