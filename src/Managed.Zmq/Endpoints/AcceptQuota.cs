namespace Managed.Zmq.Endpoints;

/// <summary>
/// One socket's count of the connections its listeners accepted and that are still open (Max_Connections), shared
/// by all its listeners, and the listeners that stopped accepting because the count reached the cap.
/// </summary>
/// <remarks>
/// Listeners take a slot on their I/O thread before each accept; a connection gives its slot back when it ends,
/// on its own I/O thread, which may be another one. A release wakes the waiting listeners through their own
/// I/O threads' queues, so pausing and resuming are driven by events, never by a timer.
/// </remarks>
internal sealed class AcceptQuota
{
    private readonly List<Listener> _waiting = [];
    private int _open;

    /// <summary>Listeners in <see cref="_waiting"/>: lets a release skip the lock when nobody waits (almost always).</summary>
    private int _waitingCount;

    /// <summary>Accepted connections open now (test hook and diagnostics).</summary>
    public int Open => Volatile.Read(ref _open);

    /// <summary>Takes a slot when fewer than <paramref name="cap"/> are taken; a negative cap means no cap.</summary>
    public bool TryAcquire(int cap)
    {
        while (true)
        {
            int open = Volatile.Read(ref _open);
            if (cap >= 0 && open >= cap)
            {
                return false;
            }

            if (Interlocked.CompareExchange(ref _open, open + 1, open) == open)
            {
                return true;
            }
        }
    }

    /// <summary>Gives a slot back (exactly once per successful <see cref="TryAcquire"/>) and wakes waiting listeners.</summary>
    public void Release()
    {
        // Interlocked is a full fence: the read of _waitingCount below cannot move before the decrement.
        Interlocked.Decrement(ref _open);
        WakeWaiting();
    }

    /// <summary>Lets every waiting listener try again: a slot freed, or the cap was raised.</summary>
    public void WakeWaiting()
    {
        if (Volatile.Read(ref _waitingCount) == 0)
        {
            return;
        }

        Listener[] woken;
        lock (_waiting)
        {
            woken = [.. _waiting];
            _waiting.Clear();
            Volatile.Write(ref _waitingCount, 0);
        }

        foreach (var listener in woken)
        {
            listener.OnSlotFreed();
        }
    }

    /// <summary>
    /// Registers <paramref name="listener"/> to be woken by the next release. Returns false when a slot freed in
    /// the meantime (the release found nobody to wake): the listener should try again now instead of waiting.
    /// </summary>
    public bool Wait(Listener listener, int cap)
    {
        lock (_waiting)
        {
            if (!_waiting.Contains(listener))
            {
                _waiting.Add(listener);
            }

            Volatile.Write(ref _waitingCount, _waiting.Count);
        }

        // Pairs with the fence in Release: either it sees us waiting, or we see its decrement here.
        Interlocked.MemoryBarrier();
        if (cap < 0 || Volatile.Read(ref _open) < cap)
        {
            Forget(listener);
            return false;
        }

        return true;
    }

    /// <summary>A stopped listener waits no more (and is not kept alive by the socket).</summary>
    public void Forget(Listener listener)
    {
        lock (_waiting)
        {
            _waiting.Remove(listener);
            Volatile.Write(ref _waitingCount, _waiting.Count);
        }
    }
}
