using System.Buffers;
using Managed.Zmq.Pipes;

namespace Managed.Zmq.Inproc;

/// <summary>
/// A pipe carried by inproc: an <see cref="InprocChannel"/> each way, shared with the peer socket's pipe,
/// crossed over. No ZMTP and no engine: the socket threads write and read the channels themselves, and
/// each wakes the other through its socket's <see cref="IPeerSignal"/>.
/// </summary>
internal sealed class InprocPipe : Pipe
{
    /// <summary>First octet of a subscription command's body: subscribe, or cancel.</summary>
    private const byte SubscribeKind = 1;
    private const byte CancelKind = 0;

    /// <summary>First octet of a group command's body (a DISH's JOIN or LEAVE, RFC 48), then the group.</summary>
    private const byte JoinKind = 2;
    private const byte LeaveKind = 3;

    /// <summary>Topics up to this length are framed on the stack.</summary>
    private const int StackTopicLength = 255;

    public InprocPipe(IPipeOwner owner, int sendHwm, int receiveHwm, bool fromConnect, InprocChannel outbound, InprocChannel inbound)
        : base(owner, sendHwm, receiveHwm, fromConnect)
    {
        InprocOutbound = outbound;
        InprocInbound = inbound;
        inbound.Consumer = this;
    }

    /// <summary>The channel to the peer socket (its <see cref="InprocInbound"/>).</summary>
    public InprocChannel InprocOutbound { get; }

    /// <summary>The channel from the peer socket (its <see cref="InprocOutbound"/>).</summary>
    public InprocChannel InprocInbound { get; }

    /// <summary>
    /// The peer socket's signal. There is no engine in between, so a commit wakes the peer's
    /// receiver and a consumed message wakes the peer's sender directly.
    /// </summary>
    public IPeerSignal? PeerSignal { get; set; }

    /// <summary>The peer pipe, so either side can tell the other it is gone.</summary>
    public InprocPipe? Peer { get; set; }

    /// <summary>The endpoint name the pipe was linked through (Unbind and Disconnect find it by this).</summary>
    public string? InprocName { get; set; }

    public override long InboundQueuedMessages => InprocInbound.QueuedMessages;

    public override bool OutboundHasData => InprocOutbound.HasData;

    public override bool InboundHasData => InprocInbound.HasData;

    /// <remarks>
    /// inproc has no batching engine between the sockets: its reader frees room (and wakes a parked
    /// sender) message by message, so its HWM stays exact per message.
    /// </remarks>
    private protected override bool HasRoom() => InprocOutbound.HasRoom(SendHwm);

    /// <remarks>What is in the channel is the peer's to read or discard; only an unfinished message is ours.</remarks>
    public override void ReleasePayloads() => InprocOutbound.DiscardStaged();

    public override void WriteFrame(in OutboundFrame frame)
    {
        if (frame.Payload is { } payload)
        {
            payload.AddReference();
            InprocOutbound.WritePayload(payload, frame.More);
        }
        else
        {
            InprocOutbound.WriteFrame(frame.Bytes, frame.More);
        }

        if (!frame.More)
        {
            // The channel committed the message (a full fence): wake the peer if it waits.
            PeerSignal?.Notify();
        }
    }

    /// <remarks>The command's body is one octet (<see cref="SubscribeKind"/> or <see cref="CancelKind"/>), then the topic.</remarks>
    public override void WriteSubscription(bool subscribe, ReadOnlySpan<byte> topic)
    {
        int length = 1 + topic.Length;
        byte[]? rented = null;
        Span<byte> body = topic.Length <= StackTopicLength ? stackalloc byte[1 + StackTopicLength] : (rented = ArrayPool<byte>.Shared.Rent(length));
        body[0] = subscribe ? SubscribeKind : CancelKind;
        topic.CopyTo(body.Slice(1));
        InprocOutbound.WriteCommand(body[..length]);
        if (rented is not null)
        {
            ArrayPool<byte>.Shared.Return(rented);
        }

        PeerSignal?.Notify();
    }

    /// <remarks>The command's body is one octet (<see cref="JoinKind"/> or <see cref="LeaveKind"/>), then the group (at most 255 bytes).</remarks>
    public override void WriteGroupCommand(bool join, ReadOnlySpan<byte> group)
    {
        Span<byte> body = stackalloc byte[1 + Internal.Tuning.RadioDish.MaxGroupLength];
        body[0] = join ? JoinKind : LeaveKind;
        group.CopyTo(body.Slice(1));
        InprocOutbound.WriteCommand(body[..(1 + group.Length)]);
        PeerSignal?.Notify();
    }

    private protected override bool TryReadGroupCommandBody(ReadOnlySpan<byte> body, out bool join, out ReadOnlySpan<byte> group)
    {
        if (body.IsEmpty || body[0] is not (JoinKind or LeaveKind))
        {
            join = false;
            group = default;
            return false;
        }

        join = body[0] == JoinKind;
        group = body.Slice(1);
        return true;
    }

    private protected override bool TryReadSubscriptionCommand(ReadOnlySpan<byte> body, out bool subscribe, out ReadOnlySpan<byte> topic)
    {
        if (body.IsEmpty || body[0] > SubscribeKind)
        {
            subscribe = false;
            topic = default;
            return false;
        }

        subscribe = body[0] == SubscribeKind;
        topic = body.Slice(1);
        return true;
    }

    public override bool TryPeekFrame(out InboundFrame frame)
    {
        if (!InprocInbound.TryPeek(out var peeked))
        {
            frame = default;
            return false;
        }

        // A large frame's bytes are the sender's Message memory, read in place.
        frame = new InboundFrame(peeked.Body, peeked.Flags);
        return true;
    }

    public override void ConsumeFrame(in InboundFrame frame)
    {
        if (InprocInbound.Consume())
        {
            // The room is the peer's: wake its sender if it waits at the HWM.
            PeerSignal?.Notify();
        }
    }

    public override void DiscardInbound()
    {
        // Our side of the link is going: a message we had begun will never be finished. What we
        // queued stays for the peer to read, as LINGER would deliver it (SocketCore abandons
        // it when no peer ever will).
        InprocOutbound.DiscardStaged();

        // What the peer queued for us and nobody will read, its large payloads released.
        InprocInbound.DiscardAll();
    }
}
