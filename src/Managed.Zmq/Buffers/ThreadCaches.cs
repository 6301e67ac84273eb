using System.Runtime.CompilerServices;

namespace Managed.Zmq.Buffers;

/// <summary>
/// Everything a thread keeps for itself on the message hot path (reusable <see cref="MessageGuard"/>s, its
/// level-1 <see cref="MessagePool"/> caches and its deferred zero-copy callbacks), behind one thread-static field.
/// </summary>
/// <remarks>
/// Reading a thread-static field is not free here: the runtime lives in a shared library, so every read calls
/// <c>__tls_get_addr</c> (seen with <c>DOTNET_JitDisasm</c> and perf). A rent, a send and a dispose
/// used to read six of them (pool caches, guard cache, guard count, each on the way in and out), which was half the
/// cost of <c>MessagePool.Rent(64).Dispose()</c>. One holder read once per operation, and passed along, costs one.
/// </remarks>
internal sealed class ThreadCaches
{
    [ThreadStatic]
    private static ThreadCaches? t_current;

    /// <summary>Guards this thread can reuse; the first <see cref="GuardCount"/> slots are filled.</summary>
    public readonly MessageGuard?[] Guards = new MessageGuard?[MessageGuard.CacheSize];

    /// <summary>Number of filled slots in <see cref="Guards"/>.</summary>
    public int GuardCount;

    /// <summary>This thread's level-1 pool caches, indexed by pool id (null where this thread never used that pool).</summary>
    public MessagePoolThreadCache?[] Pools = [];

    /// <summary>Zero-copy callbacks this thread's sends deferred (null until its first small zero-copy send).</summary>
    public Buffers.PendingReleaseRing? ReleaseRing;

    /// <summary>The calling thread's caches.</summary>
    public static ThreadCaches Current
    {
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        get => t_current ?? CreateForCurrentThread();
    }

    /// <summary>The calling thread's caches if it has any yet; for paths that must not create them.</summary>
    public static ThreadCaches? CurrentIfCreated => t_current;

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static ThreadCaches CreateForCurrentThread() => t_current = new ThreadCaches();
}
