using System.Diagnostics;

namespace Managed.Zmq.Diagnostics;

/// <summary>
/// Where an unexpected exception on an I/O thread ends up. It is never rethrown: the affected
/// connection is torn down by its own loop and the process carries on.
/// </summary>
internal static class InternalErrors
{
    private static long s_count;

    /// <summary>How many unexpected exceptions were caught on I/O threads (tests assert 0).</summary>
    public static long Count => Interlocked.Read(ref s_count);

    public static void Report(Exception exception)
    {
        Interlocked.Increment(ref s_count);
        Debug.WriteLine($"Managed.Zmq internal error: {exception}");
    }
}
