using Managed.Zmq.Internal;

namespace Managed.Zmq.Buffers;

/// <summary>
/// Recycled <see cref="OutboundPayload"/> objects, so that a large or zero-copy frame costs no
/// managed allocation: every one of them would otherwise leave a small object behind on the heap.
/// </summary>
/// <remarks>
/// A stack under a lock: payloads are rented on a user's thread and come back on an I/O thread,
/// one short critical section each. A lock-free slot array missed about one rent in ten under a
/// deep queue (holes left by concurrent takes), which is an allocation every few messages; a
/// lock-free linked stack would need ABA care for objects that are reused by design. When the
/// stack is full a returned payload is left to the GC, so the pool never holds more than
/// <see cref="Tuning.Pools.PayloadPoolCapacity"/>.
/// </remarks>
internal static class PayloadPool
{
    private static readonly OutboundPayload?[] s_items = new OutboundPayload?[Tuning.Pools.PayloadPoolCapacity];
    private static readonly Lock s_lock = new();
    private static int s_count;

    public static OutboundPayload? TryRent()
    {
        lock (s_lock)
        {
            if (s_count == 0)
            {
                return null;
            }

            var payload = s_items[--s_count];
            s_items[s_count] = null;
            return payload;
        }
    }

    public static void Return(OutboundPayload payload)
    {
        lock (s_lock)
        {
            if (s_count < Tuning.Pools.PayloadPoolCapacity)
            {
                s_items[s_count++] = payload;
            }
        }
    }
}
