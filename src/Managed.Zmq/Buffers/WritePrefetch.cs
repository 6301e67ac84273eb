using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using System.Runtime.Intrinsics.X86;
using Managed.Zmq.Internal;

namespace Managed.Zmq.Buffers;

/// <summary>
/// Asks the CPU to fetch the memory just past a queue's write position, where its next frame goes, so that
/// writing that frame does not wait for a cache miss.
/// </summary>
/// <remarks>
/// A producer that writes each message to many queues in turn (PUB's or RADIO's fan-out over tcp, ipc, ws) otherwise
/// waits on a miss per queue and message: the CPU's own prefetchers follow a few sequential streams, not dozens of
/// interleaved ones (BENCHMARKS.md, fan-out). The consumer never reads past what was committed, so the memory fetched
/// is memory nobody else is using. Only where .NET offers the instruction (x86); elsewhere this does nothing. Inproc
/// channels do not use it: an inproc PUB to 50 SUBs was slower with it (BENCHMARKS.md, fan-out).
/// </remarks>
internal static class WritePrefetch
{
    /// <summary>Prefetches <paramref name="buffer"/> one <see cref="Tuning.Pipes.WritePrefetchDistance"/> past <paramref name="writeOffset"/>.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static unsafe void AfterWrite(byte[] buffer, int writeOffset)
    {
        if (Sse.IsSupported)
        {
            int next = writeOffset + Tuning.Pipes.WritePrefetchDistance;
            if ((uint)next < (uint)buffer.Length)
            {
                // A hint, which never faults: were the array moved by the GC meanwhile, only the hint would be lost.
                Sse.Prefetch0(Unsafe.AsPointer(ref Unsafe.Add(ref MemoryMarshal.GetArrayDataReference(buffer), next)));
            }
        }
    }
}
