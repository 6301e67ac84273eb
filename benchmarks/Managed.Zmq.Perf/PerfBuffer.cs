namespace Managed.Zmq.Perf;

/// <summary>
/// What the throughput modes send and receive, from <c>PERF_BUFFER</c>:
/// <list type="bullet">
/// <item><c>span</c> (the default): one <c>byte[]</c> sent as a span and received into a span,
/// so each side copies the payload once, the plain-array path most callers use;</item>
/// <item><c>message</c>: a new <see cref="Message"/> of the size per send and one reused
/// <see cref="Message"/> to receive into, as libzmq's own perf tools do with <c>zmq_msg_t</c>
/// (<c>zmq_msg_init_size</c> + <c>zmq_msg_send</c>, <c>zmq_msg_recv</c>): no copy at either end;</item>
/// <item><c>pool</c>: as <c>message</c>, but each send rents from <see cref="MessagePool.Shared"/>.</item>
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
