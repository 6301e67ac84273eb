namespace Managed.Zmq.Buffers;

/// <summary>
/// The payloads of a frame queue's external frames, in frame order: one producer, one consumer,
/// and a release from either side when the queue is abandoned.
/// </summary>
/// <remarks>
/// <para>A payload first waits with the producer, as its frame's bytes do, and becomes visible to
/// the consumer when the message is committed; a message cut short (a lost connection) takes its
/// payloads with it, so frames and payloads never fall out of step.</para>
/// <para>A lock around a reused ring and list rather than a
/// ConcurrentQueue, whose full segments are dropped and replaced by ever larger ones (up to 16 MiB
/// on the large-object heap): only frames of 32 KiB and more and zero-copy frames come here, so an
/// uncontended lock per frame is noise beside the bytes it carries, while a queue that allocates
/// as it runs is a collection every few thousand large messages.</para>
/// </remarks>
internal sealed class PayloadQueue
{
    private readonly List<OutboundPayload> _pending = new();

    /// <summary>Committed payloads: a ring of <see cref="_count"/> items from <see cref="_head"/>.</summary>
    private OutboundPayload?[] _ring = new OutboundPayload?[16];
    private int _head;
    private int _count;

    /// <summary>Producer: payloads of the message being written, not yet committed.</summary>
    public int PendingCount { get; private set; }

    /// <summary>
    /// Producer: the payload of an external frame of the message being written. When the frame
    /// ends its message and is committed right after with nothing between that can fail, the
    /// payload goes straight to the consumer's side: one lock for a one-frame message, not two.
    /// </summary>
    public void Add(OutboundPayload payload, bool committedNext)
    {
        lock (_pending)
        {
            if (committedNext && _pending.Count == 0)
            {
                Push(payload);
                return;
            }

            _pending.Add(payload);
            PendingCount = _pending.Count;
        }
    }

    /// <summary>Producer: the message was committed; its payloads become the consumer's.</summary>
    public void Publish()
    {
        lock (_pending)
        {
            foreach (var payload in _pending)
            {
                Push(payload);
            }

            _pending.Clear();
            PendingCount = 0;
        }
    }

    /// <summary>Producer: the message being written was dropped; its payloads are released.</summary>
    public void DiscardPending()
    {
        OutboundPayload[] dropped;
        lock (_pending)
        {
            dropped = [.. _pending];
            _pending.Clear();
            PendingCount = 0;
        }

        foreach (var payload in dropped)
        {
            payload.Release();
        }
    }

    /// <summary>Consumer: the payload of the next committed external frame.</summary>
    public OutboundPayload Peek()
    {
        return PeekAt(0);
    }

    /// <summary>Consumer: takes the payload of the next committed external frame.</summary>
    public OutboundPayload Dequeue()
    {
        lock (_pending)
        {
            return TryPop(out var payload) ? payload! : throw new InvalidOperationException("no payload queued");
        }
    }

    /// <summary>Consumer: takes the payload of the next committed external frame, if one was left.</summary>
    public bool TryDequeue(out OutboundPayload? payload)
    {
        lock (_pending)
        {
            return TryPop(out payload);
        }
    }

    /// <summary>Any side, when nobody will consume the queue any more: every payload, committed or not.</summary>
    public bool TryTakeAny(out OutboundPayload? payload)
    {
        lock (_pending)
        {
            if (TryPop(out payload))
            {
                return true;
            }

            if (_pending.Count > 0)
            {
                payload = _pending[^1];
                _pending.RemoveAt(_pending.Count - 1);
                PendingCount = _pending.Count;
                return true;
            }

            return false;
        }
    }

    /// <summary>Consumer: the payload of the committed external frame <paramref name="index"/> places from the front.</summary>
    public OutboundPayload PeekAt(int index)
    {
        lock (_pending)
        {
            return index < _count ? _ring[(_head + index) & (_ring.Length - 1)]! : throw new InvalidOperationException("no payload queued");
        }
    }

    private void Push(OutboundPayload payload)
    {
        if (_count == _ring.Length)
        {
            var grown = new OutboundPayload?[_ring.Length * 2];
            for (int i = 0; i < _count; i++)
            {
                grown[i] = _ring[(_head + i) & (_ring.Length - 1)];
            }

            _ring = grown;
            _head = 0;
        }

        _ring[(_head + _count) & (_ring.Length - 1)] = payload;
        _count++;
    }

    private bool TryPop(out OutboundPayload? payload)
    {
        if (_count == 0)
        {
            payload = null;
            return false;
        }

        payload = _ring[_head];
        _ring[_head] = null;
        _head = (_head + 1) & (_ring.Length - 1);
        _count--;
        return true;
    }
}
