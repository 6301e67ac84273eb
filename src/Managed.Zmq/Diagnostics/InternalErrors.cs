using System.Diagnostics;

namespace Managed.Zmq.Diagnostics;

/// <summary>
/// Where an unexpected exception on an I/O thread ends up. It is never rethrown: the affected
/// connection is torn down by its own loop and the process carries on. It is made visible in every
/// build: counted, written to the "Managed.Zmq" <see cref="ZmqEventSource"/> as an Error event, and
/// passed to the handlers of the public <c>Context.InternalError</c> event, which are kept here so
/// that this low layer calls nothing above it.
/// </summary>
internal static class InternalErrors
{
    private static long s_count;

    /// <summary>How many unexpected exceptions were caught on I/O threads (tests assert 0).</summary>
    public static long Count => Interlocked.Read(ref s_count);

    /// <summary>The handlers of <c>Context.InternalError</c>.</summary>
    public static event EventHandler<Exception>? Handlers;

    public static void Report(Exception exception)
    {
        Interlocked.Increment(ref s_count);
        Debug.WriteLine($"Managed.Zmq internal error: {exception}");
        if (ZmqEventSource.Log.IsEnabled())
        {
            ZmqEventSource.Log.InternalError(exception.GetType().FullName ?? exception.GetType().Name, exception.Message, exception.ToString());
        }

        if (Handlers is not { } handlers)
        {
            return;
        }

        foreach (EventHandler<Exception> handler in handlers.GetInvocationList().Cast<EventHandler<Exception>>())
        {
            try
            {
                handler(null, exception);
            }
            catch (Exception)
            {
                // A handler's bug must not end the I/O thread that reports ours.
            }
        }
    }
}
