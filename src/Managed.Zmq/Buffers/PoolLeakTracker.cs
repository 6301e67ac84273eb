using System.Collections.Concurrent;
using System.Diagnostics;

namespace Managed.Zmq.Buffers;

/// <summary>
/// Diagnostic mode of a <see cref="MessagePool"/> for tests (Kestrel's DiagnosticMemoryPool idea):
/// records where each rented buffer came from and reports every buffer not yet returned, so a test
/// can fail on a leak and say which rent leaked.
/// </summary>
internal sealed class PoolLeakTracker
{
    private readonly ConcurrentDictionary<nint, string> _outstanding = new();

    public void Rented(nint buffer) => _outstanding[buffer] = new StackTrace(2, fNeedFileInfo: true).ToString();

    public void Returned(nint buffer) => _outstanding.TryRemove(buffer, out _);

    /// <summary>The stack traces of the rents whose buffers are still out.</summary>
    public IReadOnlyCollection<string> Outstanding => _outstanding.Values.ToArray();

    /// <summary>Waits (without sleeping: spinning with a deadline) until every buffer is back; false if some never came.</summary>
    public bool WaitForAllReturned(TimeSpan timeout) => SpinWait.SpinUntil(() => _outstanding.IsEmpty, timeout);
}
