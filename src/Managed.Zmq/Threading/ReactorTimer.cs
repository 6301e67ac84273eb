namespace Managed.Zmq.Threading;

/// <summary>A one-shot timer of an <see cref="IoThread"/>; its callback runs on that thread.</summary>
/// <remarks>
/// A timer holds its callback and state only while it is pending: firing or cancelling drops both
/// at once and takes the timer out of its <see cref="TimerQueue"/>, so a cancelled timer never keeps
/// what it would have called (a closed connection, say) alive until its due time.
/// </remarks>
internal sealed class ReactorTimer
{
    private TimerQueue? _queue;
    private Action<object?>? _callback;
    private object? _state;

    internal ReactorTimer(TimerQueue queue, long dueTicks, long sequence, Action<object?> callback, object? state)
    {
        _queue = queue;
        DueTicks = dueTicks;
        Sequence = sequence;
        _callback = callback;
        _state = state;
    }

    /// <summary>When it fires, in <see cref="Environment.TickCount64"/> milliseconds.</summary>
    public long DueTicks { get; }

    /// <summary>Order of creation: timers due at the same tick fire in the order they were added.</summary>
    internal long Sequence { get; }

    /// <summary>Where it sits in its queue's heap; -1 once it has left the queue.</summary>
    internal int HeapIndex { get; set; } = -1;

    /// <summary>True while it waits to fire: neither fired nor cancelled.</summary>
    public bool IsPending => _callback is not null;

    /// <summary>Cancels it: it leaves its queue and forgets its callback and state. No effect once fired. I/O thread only.</summary>
    public void Cancel()
    {
        _queue?.Remove(this);
        Release();
    }

    /// <summary>Called by the queue when the timer is due: hands over the callback and state, and keeps neither.</summary>
    internal bool TryTakeCallback(out Action<object?> callback, out object? state)
    {
        callback = _callback!;
        state = _state;
        bool pending = callback is not null;
        Release();
        return pending;
    }

    private void Release()
    {
        _queue = null;
        _callback = null;
        _state = null;
    }
}
