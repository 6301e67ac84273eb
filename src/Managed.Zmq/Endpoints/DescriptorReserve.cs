using Microsoft.Win32.SafeHandles;
using Managed.Zmq.Internal;

namespace Managed.Zmq.Endpoints;

/// <summary>
/// A few descriptors the process holds in reserve (open handles to /dev/null) and gives back when a
/// listener runs out (EMFILE): the runtime then has room for what it needs descriptors for (starting
/// a thread-pool thread, reading /proc), which it cannot do without and answers by ending the
/// process. Listeners accept again only once the reserve is whole again, so accepting can never eat it.
/// </summary>
internal static class DescriptorReserve
{
    private const int Size = Tuning.Accept.DescriptorReserveSize;

    private const int Headroom = Tuning.Accept.DescriptorHeadroom;

    private static readonly object s_lock = new();
    private static readonly List<SafeFileHandle> s_held = new(Size);

    /// <summary>The process's soft descriptor limit, read once; long.MaxValue where it is unknown or unlimited.</summary>
    private static readonly long s_limit = ReadLimit();

    /// <summary>
    /// True when a descriptor numbered <paramref name="descriptor"/> leaves fewer than <see cref="Headroom"/>
    /// free: the kernel hands out the lowest free number, so every lower one is in use.
    /// </summary>
    public static bool IsNearLimit(long descriptor) => descriptor >= s_limit - Headroom;

    private static long ReadLimit()
    {
        if (!OperatingSystem.IsLinux())
        {
            return long.MaxValue;
        }

        try
        {
            foreach (string line in File.ReadLines("/proc/self/limits"))
            {
                // "Max open files            1024                 4096                 files"
                if (line.StartsWith("Max open files", StringComparison.Ordinal))
                {
                    string[] fields = line["Max open files".Length..].Split(' ', StringSplitOptions.RemoveEmptyEntries);
                    return fields.Length > 0 && long.TryParse(fields[0], System.Globalization.NumberStyles.None, System.Globalization.CultureInfo.InvariantCulture, out long soft)
                        ? soft
                        : long.MaxValue;
                }
            }
        }
        catch (IOException)
        {
        }
        catch (UnauthorizedAccessException)
        {
        }

        return long.MaxValue;
    }

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
