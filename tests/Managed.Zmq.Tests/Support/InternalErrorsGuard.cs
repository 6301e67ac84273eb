using System.Collections.Concurrent;
using Managed.Zmq.Diagnostics;

namespace Managed.Zmq.Tests.Support;

/// <summary>
/// Snapshot of <see cref="InternalErrors.Count"/>: an unexpected exception on an I/O thread is
/// swallowed there, so hostile-input tests assert that the count did not move. The exceptions
/// reported meanwhile (by any test: the count is process-wide) are kept, so a failure names them.
/// </summary>
internal sealed class InternalErrorsGuard
{
    private readonly long _before;
    private readonly ConcurrentQueue<Exception> _seen = new();

    private InternalErrorsGuard()
    {
        Context.InternalError += OnInternalError;
        _before = InternalErrors.Count;
    }

    public static InternalErrorsGuard Start() => new();

    public void AssertNoneSince()
    {
        Context.InternalError -= OnInternalError;
        long after = InternalErrors.Count;
        Assert.True(after == _before, $"{after - _before} internal error(s) since the guard started: "
            + string.Join(Environment.NewLine + "---" + Environment.NewLine, _seen.Select(ex => ex.ToString())));
    }

    private void OnInternalError(object? sender, Exception exception) => _seen.Enqueue(exception);
}
