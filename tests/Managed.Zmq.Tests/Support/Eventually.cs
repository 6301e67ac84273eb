using System.Diagnostics;

namespace Managed.Zmq.Tests.Support;

/// <summary>
/// Waits for a condition that has no event to block on (a socket option's value), by re-checking
/// it with <see cref="SpinWait"/> under a hard deadline. Never a fixed sleep.
/// </summary>
internal static class Eventually
{
    /// <summary>A deadline that only a hang reaches: on a loaded 2-core machine a healthy condition can take seconds.</summary>
    public const int DefaultDeadline = 30_000;

    public static void True(Func<bool> condition, string because, int timeoutMilliseconds = DefaultDeadline)
    {
        var clock = Stopwatch.StartNew();
        var spinner = default(SpinWait);
        while (!condition())
        {
            if (clock.ElapsedMilliseconds > timeoutMilliseconds)
            {
                Assert.Fail($"Timed out after {timeoutMilliseconds} ms waiting until {because}.");
            }

            spinner.SpinOnce();
        }
    }
}
