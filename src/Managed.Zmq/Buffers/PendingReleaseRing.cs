using Managed.Zmq.Options;
using Managed.Zmq.Security.Zap;
using Managed.Zmq.Internal;

namespace Managed.Zmq.Buffers;

/// <summary>
/// The zero-copy free callbacks one thread's sends have deferred, each waiting for its message to be released on
/// that thread, where it then runs; a timer runs those whose messages never are.
/// </summary>
/// <remarks>
/// <para>A small zero-copy frame is copied at Send, so its memory is free once Send returns, but the callback must
/// not run inside Send. Nearly always the caller releases the message right after sending it (Dispose,
/// Rebuild, a receive into it), on the same thread: the callback runs there, and the memory goes back to the
/// allocator on the thread that took it. The shared <see cref="DeferredReleases"/> list did this with two
/// lock passes per message and a list the I/O threads drained after every write; that bookkeeping cost more
/// than a small zero-copy send can save over a copying one, as measured.</para>
/// <para>So each thread owns a ring. Adding an entry takes plain stores only: the ring belongs to the thread.
/// Taking one back costs one compare-and-swap, because the timer may be taking the same entry: whoever moves the
/// slot from Pending to Claimed runs the callback, so it runs exactly once. The timer ticks every millisecond
/// while entries may be waiting (and for <see cref="Tuning.Releases.EmptyTicksBeforeStop"/> ticks after) and runs every entry it finds; a callback of a message that is never released
/// therefore waits about a millisecond, as before. When the ring is full, its oldest waiting entry moves to the
/// shared list, which is bounded and drains on its own, so memory never grows with unreleased messages.</para>
/// <para>Tickets are per ring and start at a distinct base for each ring. A message released on another thread
/// than the one that sent it looks in that thread's ring, finds no entry with its ticket, and leaves its callback
/// to the timer. Were a ticket ever to match by wrap-around, the entry run early would still be one whose bytes
/// were copied already, and still run once.</para>
/// </remarks>
internal sealed class PendingReleaseRing
{
    internal const int Capacity = Tuning.Releases.RingCapacity;

    private const int Free = 0;
    private const int Pending = 1;
    private const int Claimed = 2;

    private static readonly object s_lock = new();
    private static readonly Timer s_timer = CreateTimer();
    private static PendingReleaseRing[] s_rings = [];
    private static int s_nextBase;
    private static int s_armed;
    private static int s_ticking;
    private static int s_emptyTicks;

    private readonly Slot[] _slots = new Slot[Capacity];
    private readonly Thread _owner;

    /// <summary>The ticket of the next entry. Only the owner thread reads or writes it.</summary>
    private int _nextTicket;

    private PendingReleaseRing()
    {
        _owner = Thread.CurrentThread;

        // Distinct ranges per ring keep one thread's tickets from matching another's (see remarks).
        _nextTicket = Interlocked.Add(ref s_nextBase, 1 << 22);
    }

    /// <summary>
    /// Defers <paramref name="callback"/>(<paramref name="data"/>) in the calling thread's ring, created on first use;
    /// for a send that must not run the callback itself. Returns the ticket a release on this thread takes back.
    /// </summary>
    public static int DeferOnCurrentThread(Action<nint> callback, nint data, bool mayWait)
    {
        var caches = Buffers.ThreadCaches.Current;
        var ring = caches.ReleaseRing ??= CreateForCurrentThread();
        return ring.Add(callback, data, mayWait);
    }

    /// <summary>A ring for the calling thread, registered with the timer.</summary>
    public static PendingReleaseRing CreateForCurrentThread()
    {
        var ring = new PendingReleaseRing();
        lock (s_lock)
        {
            s_rings = [.. s_rings, ring];
        }

        return ring;
    }

    /// <summary>
    /// Defers <paramref name="callback"/>(<paramref name="data"/>); only on the thread that owns this ring, inside a
    /// send. Returns the ticket that <see cref="RunNowIfPending"/> takes.
    /// </summary>
    /// <param name="callback">The zero-copy message's free callback.</param>
    /// <param name="data">Its argument: the message's memory.</param>
    /// <param name="mayWait">Whether the caller may block (a blocking send) should the ring's oldest entry have to move
    /// to the shared list while that is full.</param>
    public int Add(Action<nint> callback, nint data, bool mayWait)
    {
        int ticket = _nextTicket;
        ref Slot slot = ref _slots[ticket & (Capacity - 1)];
        Action<nint>? oldest = null;
        nint oldestData = 0;
        if (Volatile.Read(ref slot.State) != Free)
        {
            TakeOldest(ref slot, out oldest, out oldestData);
        }

        slot.Callback = callback;
        slot.Data = data;
        slot.Ticket = ticket;

        // Publishes the fields above to the timer, which claims only Pending slots.
        Volatile.Write(ref slot.State, Pending);
        _nextTicket = ticket + 1;
        if (Volatile.Read(ref s_armed) == 0)
        {
            Arm();
        }

        if (oldest is not null)
        {
            // Only now that this ring is consistent again: the shared list may run the callback right here (a drain
            // thread whose callbacks send), and that callback may add to this ring.
            DeferredReleases.Add(oldest, oldestData, mayWait);
        }

        return ticket;
    }

    /// <summary>
    /// Runs the callback deferred under <paramref name="ticket"/> on this thread, unless the timer took it first;
    /// only on the thread that owns this ring. Either way it runs exactly once.
    /// </summary>
    public void RunNowIfPending(int ticket)
    {
        ref Slot slot = ref _slots[ticket & (Capacity - 1)];
        if (slot.Ticket == ticket && TryClaim(ref slot, out var callback, out nint data))
        {
            DeferredReleases.RunOne(callback, data);
        }
    }

    /// <summary>Runs every callback that waits in any ring now; the timer's work, callable by tests.</summary>
    /// <returns>Whether any callback waited.</returns>
    internal static bool RunAllPending()
    {
        bool found = false;
        bool deadOwners = false;
        foreach (var ring in Volatile.Read(ref s_rings))
        {
            found |= ring.RunPending();
            deadOwners |= !ring._owner.IsAlive;
        }

        if (deadOwners)
        {
            found |= RemoveDeadRings();
        }

        return found;
    }

    /// <summary>Forgets the rings of threads that have ended, after running what they still hold.</summary>
    /// <returns>Whether any callback waited.</returns>
    private static bool RemoveDeadRings()
    {
        // A ring's owner may have added entries after the scan above and then ended: scan each dead ring once more,
        // now that nothing can add to it, before letting it go.
        var dead = Array.FindAll(Volatile.Read(ref s_rings), ring => !ring._owner.IsAlive);
        bool found = false;
        foreach (var ring in dead)
        {
            found |= ring.RunPending();
        }

        lock (s_lock)
        {
            s_rings = Array.FindAll(s_rings, ring => Array.IndexOf(dead, ring) < 0);
        }

        return found;
    }

    /// <summary>Tests: whether the timer still looks at <paramref name="ring"/>.</summary>
    internal static bool IsRegistered(PendingReleaseRing ring) => Array.IndexOf(Volatile.Read(ref s_rings), ring) >= 0;

    /// <summary>
    /// The slot the owner is about to reuse is not free. Pending: the oldest entry's message has not been released
    /// and the timer has not run yet; it comes out, for the shared list. Claimed: the timer is copying the entry
    /// out, which takes a few instructions.
    /// </summary>
    private static void TakeOldest(ref Slot slot, out Action<nint>? callback, out nint data)
    {
        if (TryClaim(ref slot, out var claimed, out data))
        {
            callback = claimed;
            return;
        }

        callback = null;
        var spinner = default(SpinWait);
        while (Volatile.Read(ref slot.State) != Free)
        {
            spinner.SpinOnce();
        }
    }

    private static bool TryClaim(ref Slot slot, out Action<nint> callback, out nint data)
    {
        if (Interlocked.CompareExchange(ref slot.State, Claimed, Pending) != Pending)
        {
            callback = null!;
            data = 0;
            return false;
        }

        callback = slot.Callback!;
        data = slot.Data;
        slot.Callback = null;
        Volatile.Write(ref slot.State, Free);
        return true;
    }

    private static void Arm()
    {
        lock (s_lock)
        {
            if (s_armed == 0)
            {
                s_armed = 1;
                s_timer.Change(Tuning.Releases.TickMilliseconds, Tuning.Releases.TickMilliseconds);
            }
        }
    }

    private static Timer CreateTimer()
    {
        // The timer outlives whichever caller first sends: it must not capture that caller's ExecutionContext.
        using (ExecutionContext.SuppressFlow())
        {
            return new Timer(static _ => OnTick(), null, Timeout.Infinite, Timeout.Infinite);
        }
    }

    private static void OnTick()
    {
        if (Interlocked.Exchange(ref s_ticking, 1) != 0)
        {
            // The previous tick is still running callbacks.
            return;
        }

        try
        {
            if (RunAllPending())
            {
                s_emptyTicks = 0;
                return;
            }

            if (++s_emptyTicks < Tuning.Releases.EmptyTicksBeforeStop)
            {
                return;
            }

            s_emptyTicks = 0;

            // Nothing waited: stop ticking. An owner that added an entry just now may have read s_armed as 1 before
            // this write reached it; the process-wide barrier makes every such entry visible to the scan below, and
            // an owner that reads s_armed after the barrier sees 0 and arms again.
            lock (s_lock)
            {
                s_armed = 0;
                s_timer.Change(Timeout.Infinite, Timeout.Infinite);
            }

            Interlocked.MemoryBarrierProcessWide();
            if (RunAllPending())
            {
                Arm();
            }
        }
        finally
        {
            Volatile.Write(ref s_ticking, 0);
        }
    }

    /// <summary>Runs this ring's waiting callbacks; true if there were any.</summary>
    private bool RunPending()
    {
        bool found = false;
        for (int i = 0; i < _slots.Length; i++)
        {
            ref Slot slot = ref _slots[i];
            if (Volatile.Read(ref slot.State) == Pending && TryClaim(ref slot, out var callback, out nint data))
            {
                found = true;
                DeferredReleases.RunOne(callback, data);
            }
        }

        return found;
    }

    private struct Slot
    {
        public int State;
        public int Ticket;
        public Action<nint>? Callback;
        public nint Data;
    }
}
