using Managed.Zmq.Buffers;
using Managed.Zmq.Wire;

namespace Managed.Zmq.Pipes;

/// <summary>A frame queue's large payloads, queued by reference beside their headers, and its statistics.</summary>
internal sealed partial class FrameQueue
{
    // ---------------------------------------------------------------- payloads

    /// <summary>Large payloads queued by reference, in frame order (see <see cref="QueuedFrame"/>).</summary>
    private PayloadQueue? _payloads;

    /// <summary>Producer: queues the bytes of the external frame being written.</summary>
    /// <remarks><paramref name="committedNext"/>: the frame ends its message and the producer commits it right away.</remarks>
    public void EnqueuePayload(OutboundPayload payload, bool committedNext)
    {
        if (_payloads is null)
        {
            Interlocked.CompareExchange(ref _payloads, new(), null);
        }

        _payloads!.Add(payload, committedNext);
        _enqueuedPayloadBytes += payload.Length;
    }

    /// <summary>Consumer: the payload of the next external frame.</summary>
    public OutboundPayload PeekPayload() => Volatile.Read(ref _payloads)!.Peek();

    /// <summary>Consumer: takes the payload of the next external frame.</summary>
    public OutboundPayload TakePayload()
    {
        var payload = Volatile.Read(ref _payloads)!.Dequeue();
        _takenPayloadBytes += payload.Length;
        return payload;
    }

    /// <summary>Releases every payload still queued (nobody will consume them). Idempotent, any side.</summary>
    public void ReleasePayloads()
    {
        var payloads = Volatile.Read(ref _payloads);
        if (payloads is null)
        {
            return;
        }

        while (payloads.TryTakeAny(out var payload))
        {
            payload!.Release();
        }
    }

    // ---------------------------------------------------------------- statistics
    // Read by Socket.GetPeers and the metrics from another thread, racily: each is written by one side
    // only, as a plain 64-bit store (atomic on the 64-bit platforms .NET 10 runs on), so a reader sees a
    // value at most one batch old, never a torn one. Sums of two of them are approximate for that reason.

    /// <summary>Producer only: bytes of the large frames queued by reference (their headers are in the segments).</summary>
    private long _enqueuedPayloadBytes;

    /// <summary>Consumer only: bytes of the large frames taken by reference.</summary>
    private long _takenPayloadBytes;

    /// <summary>Octets published so far, frame headers included (approximate while the producer moves).</summary>
    public long CommittedBytes => Volatile.Read(ref _committed) + Volatile.Read(ref _enqueuedPayloadBytes);

    /// <summary>Octets consumed so far, frame headers included (approximate while the consumer moves).</summary>
    public long ConsumedBytes => Volatile.Read(ref _readPosition) + Volatile.Read(ref _takenPayloadBytes);

    /// <summary>Messages taken by the consumer so far.</summary>
    public long ConsumedMessages => Volatile.Read(ref _consumedMessages);

    /// <summary>Octets published and not yet consumed (approximate, never negative).</summary>
    public long QueuedBytes => Math.Max(0, CommittedBytes - ConsumedBytes);

    /// <summary>Consumer: releases the payloads of the external frames in <paramref name="frames"/>, which are being dropped.</summary>
    private void ReleaseExternalPayloads(ReadOnlySpan<byte> frames)
    {
        if (Volatile.Read(ref _payloads) is not { } payloads)
        {
            return;
        }

        foreach (var frame in new QueuedFrames(frames))
        {
            if (frame.IsExternal && payloads.TryDequeue(out var payload))
            {
                payload!.Release();
            }
        }
    }
}
