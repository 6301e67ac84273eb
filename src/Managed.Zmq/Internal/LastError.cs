namespace Managed.Zmq.Internal;

/// <summary>
/// The last error number Managed.Zmq recorded on the current thread: the managed counterpart of <c>zmq_errno()</c>,
/// read by the parameterless <see cref="ZmqException()"/> constructor.
/// </summary>
internal static class LastError
{
    /// <summary>Per-thread because errno is per-thread; 0 until something fails on this thread.</summary>
    [ThreadStatic]
    private static int t_errorNumber;

    /// <summary>Gets the error number recorded last on the calling thread, or 0 if none was.</summary>
    public static int Value => t_errorNumber;

    /// <summary>Records <paramref name="errorNumber"/> as the calling thread's last error.</summary>
    public static void Record(int errorNumber) => t_errorNumber = errorNumber;
}
