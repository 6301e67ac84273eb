using Managed.Zmq.Buffers;
using Managed.Zmq.Options;
using Managed.Zmq.Security.Zap;

namespace Managed.Zmq.Soak;

/// <summary>What the PUSH/PULL soak saw; losses are only allowed around restarts, duplicates never.</summary>
internal readonly record struct PipelineReport(long Sent, long Received, long Lost, long Duplicated, long Restarts)
{
    public override string ToString()
        => $"PUSH/PULL: sent {Sent:N0}, received {Received:N0}, lost {Lost:N0} (across {Restarts} PULL restarts with LINGER 0), still in flight at the end {Sent - Received - Lost:N0}, duplicated {Duplicated:N0}";
}
