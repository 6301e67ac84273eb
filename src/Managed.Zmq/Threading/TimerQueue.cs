using System.Diagnostics;
using Managed.Zmq.Internal;

namespace Managed.Zmq.Threading;

/// <summary>
/// The pending timers of one <see cref="IoThread"/>, earliest first: a binary min-heap in which each
/// timer knows its own index, so a cancelled timer leaves at once (O(log n)) instead of waiting for
/// its due time. Only pending timers are ever held, so the queue is as large as what is still to
/// fire, however many timers are added and cancelled. I/O thread only.
/// </summary>
/// <remarks>
/// Each handshake and each connection's heartbeat has a timer that is usually cancelled long before
/// it is due (the handshake interval is 30 s by default, a peer's TTL up to 6553.5 s, RFC 37): a
/// queue that kept cancelled entries would keep every closed connection alive that long.
/// Adding costs nothing beyond the timer object, except when the heap array grows.
/// </remarks>
internal sealed class TimerQueue
{
    internal const int InitialCapacity = Tuning.Reactor.TimerHeapInitialCapacity;

    private ReactorTimer[] _heap = [];
    private int _count;
    private long _nextSequence;

    /// <summary>Pending timers.</summary>
    public int Count => _count;

    /// <summary>The heap array's length (tests check it stays bounded).</summary>
    internal int Capacity => _heap.Length;

    /// <summary>Adds a timer due at <paramref name="dueTicks"/> (<see cref="Environment.TickCount64"/> milliseconds).</summary>
    public ReactorTimer Add(long dueTicks, Action<object?> callback, object? state)
    {
        ArgumentNullException.ThrowIfNull(callback);
        var timer = new ReactorTimer(this, dueTicks, _nextSequence++, callback, state);
        if (_count == _heap.Length)
        {
            Array.Resize(ref _heap, Math.Max(InitialCapacity, _heap.Length * 2));
        }

        _heap[_count] = timer;
        timer.HeapIndex = _count;
        _count++;
        SiftUp(_count - 1);
        return timer;
    }

    /// <summary>The due time of the earliest timer; false when none is pending.</summary>
    public bool TryPeekDue(out long dueTicks)
    {
        if (_count == 0)
        {
            dueTicks = 0;
            return false;
        }

        dueTicks = _heap[0].DueTicks;
        return true;
    }

    /// <summary>Removes the earliest timer if it is due at <paramref name="nowTicks"/>; null otherwise.</summary>
    public ReactorTimer? TryDequeueDue(long nowTicks)
    {
        if (_count == 0 || _heap[0].DueTicks > nowTicks)
        {
            return null;
        }

        var timer = _heap[0];
        RemoveAt(0);
        return timer;
    }

    /// <summary>Takes <paramref name="timer"/> out of the heap; nothing when it is no longer in it. Called by <see cref="ReactorTimer.Cancel"/>.</summary>
    internal void Remove(ReactorTimer timer)
    {
        int index = timer.HeapIndex;
        if (index < 0 || index >= _count || _heap[index] != timer)
        {
            return;
        }

        RemoveAt(index);
    }

    private void RemoveAt(int index)
    {
        var removed = _heap[index];
        removed.HeapIndex = -1;
        _count--;
        if (index != _count)
        {
            var last = _heap[_count];
            _heap[index] = last;
            last.HeapIndex = index;
            if (index > 0 && Earlier(last, _heap[(index - 1) / 2]))
            {
                SiftUp(index);
            }
            else
            {
                SiftDown(index);
            }
        }

        _heap[_count] = null!;
        if (_heap.Length > InitialCapacity && _count <= _heap.Length / Tuning.Reactor.TimerHeapShrinkBelowOneIn)
        {
            Array.Resize(ref _heap, Math.Max(InitialCapacity, _heap.Length / 2));
        }
    }

    private void SiftUp(int index)
    {
        var timer = _heap[index];
        while (index > 0)
        {
            int parent = (index - 1) / 2;
            if (!Earlier(timer, _heap[parent]))
            {
                break;
            }

            Place(_heap[parent], index);
            index = parent;
        }

        Place(timer, index);
    }

    private void SiftDown(int index)
    {
        var timer = _heap[index];
        while (true)
        {
            int child = (2 * index) + 1;
            if (child >= _count)
            {
                break;
            }

            if (child + 1 < _count && Earlier(_heap[child + 1], _heap[child]))
            {
                child++;
            }

            if (!Earlier(_heap[child], timer))
            {
                break;
            }

            Place(_heap[child], index);
            index = child;
        }

        Place(timer, index);
    }

    private void Place(ReactorTimer timer, int index)
    {
        _heap[index] = timer;
        timer.HeapIndex = index;
    }

    /// <summary>Due first; at the same tick, added first.</summary>
    private static bool Earlier(ReactorTimer a, ReactorTimer b)
    {
        Debug.Assert(a != b, "A timer is compared with others only.");
        return a.DueTicks < b.DueTicks || (a.DueTicks == b.DueTicks && a.Sequence < b.Sequence);
    }
}
