using System.Runtime.CompilerServices;
using Managed.Zmq.Core;
using Managed.Zmq.Wire;

namespace Managed.Zmq.Engine;

internal sealed partial class ZmtpConnection
{
    /// <summary>External payloads up to this size are copied into one send with their neighbours.</summary>
    private const int CoalescedPayloadLimit = 32 * 1024;

    /// <summary>How many external frames one gathered send takes at most (the payloads are peeked in one go).</summary>
    private const int MaxCoalescedPayloads = 256;

    /// <summary>The payloads of the gathered send, peeked from the queue under one lock.</summary>
    private OutboundPayload?[]? _coalescedPayloads;

    /// <summary>Where small external frames and their neighbours are gathered for one send.</summary>
    private byte[]? _coalesceBuffer;

    /// <summary>True when the external frame at the start of the batch is small enough to gather.</summary>
    private static bool IsSmallExternal(Pipe pipe) => pipe.PeekPayload().Length <= CoalescedPayloadLimit;

    /// <summary>
    /// Sends the small external frame at the start of <paramref name="batch"/> and whatever follows
    /// it that fits in one buffer, copying each payload next to its header, then releases those
    /// payloads here on the I/O thread. Small zero-copy messages thus go out many to a system call,
    /// and their free callbacks run after their bytes left, never inside the sender's Send.
    /// </summary>
    [AsyncMethodBuilder(typeof(PoolingAsyncValueTaskMethodBuilder))]
    private async ValueTask SendCoalescedAsync(Pipe pipe, ReadOnlyMemory<byte> batch)
    {
        var buffer = _coalesceBuffer ??= new byte[FrameQueue.MaxSegmentSize];
        var peeked = _coalescedPayloads ??= new OutboundPayload?[MaxCoalescedPayloads];
        int available = pipe.Outbound.PeekPayloads(peeked);
        int filled = 0;
        int consumed = 0;
        int payloads = 0;
        int messages = 0;
        bool endsMidMessage = pipe.OutboundMidMessage;
        var frames = batch.Span;
        while (consumed < frames.Length)
        {
            int queued = QueuedFrame.Read(frames[consumed..], out var header, out bool external);
            int wireLength = header.HeaderLength + (int)header.BodyLength;
            if (buffer.Length - filled < wireLength
                || (external && (header.BodyLength > CoalescedPayloadLimit || payloads == available)))
            {
                break;
            }

            frames.Slice(consumed, external ? header.HeaderLength : wireLength).CopyTo(buffer.AsSpan(filled));
            if (external)
            {
                buffer[filled] &= unchecked((byte)~QueuedFrame.ExternalMarker);
                peeked[payloads]!.Span.CopyTo(buffer.AsSpan(filled + header.HeaderLength));
                payloads++;
            }

            filled += wireLength;
            consumed += queued;
            endsMidMessage = header.More;
            if (!header.More && !header.IsCommand)
            {
                messages++;
            }
        }

        await SendFramesAsync(buffer.AsMemory(0, filled)).ConfigureAwait(true);
        pipe.Outbound.DropPayloads(payloads);
        for (int i = 0; i < payloads; i++)
        {
            peeked[i]!.Release();
            peeked[i] = null;
        }

        peeked.AsSpan(payloads, available - payloads).Clear();

        pipe.Outbound.Consume(consumed);
        pipe.OutboundMidMessage = endsMidMessage;
        if (messages > 0)
        {
            pipe.Outbound.MessagesConsumed(messages);
            _socket.Signal.Notify();
        }
    }
}
