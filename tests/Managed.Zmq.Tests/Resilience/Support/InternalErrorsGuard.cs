using Managed.Zmq.Diagnostics;

namespace Managed.Zmq.Tests.Resilience.Support;

/// <summary>
/// Snapshot of <see cref="InternalErrors.Count"/>: an unexpected exception on an I/O thread is
/// swallowed there, so hostile-input tests assert that the count did not move.
/// </summary>
internal readonly struct InternalErrorsGuard
{
    private readonly long _before;

    private InternalErrorsGuard(long before) => _before = before;

    public static InternalErrorsGuard Start() => new(InternalErrors.Count);

    public void AssertNoneSince() => Assert.Equal(_before, InternalErrors.Count);
}
