using System.Runtime.InteropServices;
using Managed.Zmq.Buffers;
using Managed.Zmq.Options;
using Managed.Zmq.Security.Zap;

namespace Managed.Zmq.Scale;

/// <summary>glibc's malloc, as the scale server sees it: what it holds in use and free (<c>mallinfo2</c>).</summary>
internal static partial class NativeHeap
{
    [StructLayout(LayoutKind.Sequential)]
    private struct MallInfo2
    {
        public nuint Arena, Ordblks, Smblks, Hblks, Hblkhd, Usmblks, Fsmblks, Uordblks, Fordblks, Keepcost;
    }

    [LibraryImport("libc")]
    private static partial MallInfo2 mallinfo2();

    [LibraryImport("libc")]
    private static partial int malloc_trim(nuint pad);

    /// <summary>Bytes malloc has handed out and not had back, and bytes it holds free (all arenas, plus mmapped blocks in use).</summary>
    public static (long InUse, long Free) Usage()
    {
        var info = mallinfo2();
        return ((long)(info.Uordblks + info.Hblkhd), (long)info.Fordblks);
    }

    /// <summary>Returns malloc's free pages to the OS.</summary>
    public static void Trim() => malloc_trim(0);
}
