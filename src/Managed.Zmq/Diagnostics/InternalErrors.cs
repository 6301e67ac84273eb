using System.Diagnostics;

namespace Managed.Zmq.Diagnostics;

/// <summary>
/// Where an unexpected exception on an I/O thread ends up. It is never rethrown: the affected
/// connection is torn down by its own loop and the process carries on. It is made visible in every
/// build: counted, written to the "Managed.Zmq" <see cref="ZmqEventSource"/> as an Error event, and
/// passed to <see cref="Context.InternalError"/> handlers.
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
        if (ZmqEventSource.Log.IsEnabled())
        {
            ZmqEventSource.Log.InternalError(exception.GetType().FullName ?? exception.GetType().Name, exception.Message, exception.ToString());
        }

        Context.RaiseInternalError(exception);
    }
}
