using Microsoft.Win32.SafeHandles;

namespace Managed.Zmq.Transports;

/// <summary>
/// A few descriptors the process holds in reserve (open handles to /dev/null) and gives back when a
/// listener runs out (EMFILE): the runtime then has room for what it needs descriptors for (starting
/// a thread-pool thread, reading /proc), which it cannot do without and answers by ending the
/// process. Listeners accept again only once the reserve is whole again, so accepting can never eat it.
/// </summary>
internal static class DescriptorReserve
{
    /// <summary>
    /// How many: starting a thread takes a few descriptors for a moment, so this covers several at once
    /// while costing nothing that matters beside any realistic descriptor limit.
    /// </summary>
    private const int Size = 16;

    private static readonly object s_lock = new();
    private static readonly List<SafeFileHandle> s_held = new(Size);

    /// <summary>Fills the reserve; true when it is whole (always on systems without /dev/null).</summary>
    public static bool TryFill()
    {
        if (OperatingSystem.IsWindows())
        {
            return true;
        }

        lock (s_lock)
        {
            try
            {
                while (s_held.Count < Size)
                {
                    s_held.Add(File.OpenHandle("/dev/null"));
                }
            }
            catch (IOException)
            {
                // Still out of descriptors: the caller waits and tries again.
                return false;
            }
            catch (UnauthorizedAccessException)
            {
                return true;
            }

            return true;
        }
    }

    /// <summary>Gives every reserved descriptor back to the process.</summary>
    public static void Release()
    {
        lock (s_lock)
        {
            foreach (var handle in s_held)
            {
                handle.Dispose();
            }

            s_held.Clear();
        }
    }
}
