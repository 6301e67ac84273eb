using Managed.Zmq.Buffers;
using Managed.Zmq.Options;
using Managed.Zmq.Security.Zap;

namespace Managed.Zmq.Soak;

/// <summary>What the REQ/REP soak saw: every completed round trip must answer its own request.</summary>
internal readonly record struct RequestReplyReport(long Completed, long Retries, long Mismatched, long Restarts)
{
    public override string ToString()
        => $"REQ/REP: {Completed:N0} round trips, {Retries:N0} retried after a REP restart ({Restarts} restarts), {Mismatched:N0} replies to the wrong request";
}
