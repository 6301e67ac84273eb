using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using System.Runtime.Intrinsics.X86;
using Managed.Zmq.Internal;

namespace Managed.Zmq.Buffers;

/// <summary>
/// Asks the CPU to fetch the memory a queue's producer writes next, or its consumer reads next, so that the access
/// does not wait for a cache miss.
/// </summary>
/// <remarks>
/// <para>A thread that works on many queues in turn waits on a miss per queue and message otherwise: the CPU's own
/// prefetchers follow a few sequential streams, not dozens of interleaved ones (docs/ARCHITECTURE.md, section 2). A PUB
/// writes each message to every subscriber's queue (over tcp, ipc, ws); a fair-queued socket (ROUTER, PULL, SUB)
/// reads one message from each of its busy peers' queues in turn.</para>
/// <para>Neither side fetches memory the other may be using: the producer fetches past what it wrote, where the
/// consumer never reads, and the consumer fetches only what was committed, which the producer no longer writes.
/// Only where .NET offers the instruction (x86); elsewhere this does nothing. Inproc channels do not use it: an
/// inproc PUB to 50 SUBs was slower with it (docs/ARCHITECTURE.md, section 2).</para>
/// </remarks>
internal static class QueuePrefetch
{
    /// <summary>Prefetches <paramref name="buffer"/> one <see cref="Tuning.Pipes.QueuePrefetchDistance"/> past <paramref name="writeOffset"/>.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static void AfterWrite(byte[] buffer, int writeOffset) => Line(buffer, writeOffset + Tuning.Pipes.QueuePrefetchDistance);

    /// <summary>Prefetches the cache line of <paramref name="buffer"/> that holds <paramref name="offset"/>, if it lies inside.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static unsafe void Line(byte[] buffer, int offset)
    {
        if (Sse.IsSupported && (uint)offset < (uint)buffer.Length)
        {
            // A hint, which never faults: were the array moved by the GC meanwhile, only the hint would be lost.
            Sse.Prefetch0(Unsafe.AsPointer(ref Unsafe.Add(ref MemoryMarshal.GetArrayDataReference(buffer), offset)));
        }
    }
}
