using System.Diagnostics;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using Managed.Zmq.Wire;
using Managed.Zmq.Buffers;
using Managed.Zmq.Inproc;
using Managed.Zmq.Sockets;

namespace Managed.Zmq.Pipes;

/// <summary>
/// The link between a socket and one peer: an outbound and an inbound <see cref="FrameQueue"/>,
/// the peer's routing id and HWMs (RFC 28 §General behavior: one double queue per peer).
/// </summary>
/// <remarks>
/// <para>The socket (user thread) is the producer of <see cref="Outbound"/> and the consumer of
/// <see cref="Inbound"/>; the connection engine currently serving the pipe (I/O thread) is the
/// other side of each. A pipe made by <c>Connect</c> outlives its connections, so messages queue
/// while the peer is away (Immediate = 0); a pipe made by an accepted connection dies with it.</para>
/// <para>Patterns see only this type's socket-side members.</para>
/// </remarks>
internal sealed partial class Pipe
{
    /// <summary>Low-water mark as a fraction of the HWM: a paused reader resumes below it.</summary>
    private const int LowWaterDivisor = 2;

    private readonly SocketCore _socket;

    /// <summary>The frame last returned by <see cref="TryPeekFrame"/> has its bytes outside the queue (a large message).</summary>
    private bool _peekedExternal;

    /// <summary>The peeked external frame's buffer was taken by a Message (<see cref="TakePeekedPayload"/>).</summary>
    private bool _peekedPayloadTaken;

    /// <summary>Socket side: the queue reached the send HWM and has not yet drained to the resume level.</summary>
    private bool _sendHeld;

    /// <summary>Who has the write side of the connection: <see cref="WriterRunning"/>, <see cref="WriterParked"/> or <see cref="WriterDirect"/>.</summary>
    private int _writerState;

    /// <summary>The engine's write loop is running (or about to): it alone writes to the OS socket.</summary>
    private const int WriterRunning = 0;

    /// <summary>The write loop is parked waiting for data; whoever moves the state on next has the write side.</summary>
    private const int WriterParked = 1;

    /// <summary>The socket thread is writing to the OS socket itself; the write loop waits for it to hand back.</summary>
    private const int WriterDirect = 2;

    /// <summary>1 while the engine's read loop is paused at the receive HWM.</summary>
    private int _readerPaused;

    private IPipeEngine? _engine;

    /// <summary>A pipe served by a connection engine (tcp, ipc): ZMTP-encoded frame queues both ways.</summary>
    public Pipe(SocketCore socket, int sendHwm, int receiveHwm, bool fromConnect)
    {
        _socket = socket;
        SendHwm = sendHwm;
        ReceiveHwm = receiveHwm;
        FromConnect = fromConnect;
        _outbound = new FrameQueue();
        _inbound = new FrameQueue { Consumer = this };
    }

    /// <summary>An inproc pipe: a channel each way, shared with the peer socket's pipe, crossed over.</summary>
    public Pipe(SocketCore socket, int sendHwm, int receiveHwm, bool fromConnect, InprocChannel outbound, InprocChannel inbound)
    {
        _socket = socket;
        SendHwm = sendHwm;
        ReceiveHwm = receiveHwm;
        FromConnect = fromConnect;
        InprocOutbound = outbound;
        InprocInbound = inbound;
        inbound.Consumer = this;
    }

    private readonly FrameQueue? _outbound;
    private readonly FrameQueue? _inbound;

    /// <summary>Engine pipes: what the socket sends, for the write loop.</summary>
    public FrameQueue Outbound => _outbound ?? throw new InvalidOperationException("an inproc pipe has no frame queue");

    /// <summary>Engine pipes: what the read loop decoded, for the socket.</summary>
    public FrameQueue Inbound => _inbound ?? throw new InvalidOperationException("an inproc pipe has no frame queue");

    /// <summary>inproc pipes: the channel to the peer socket (its <see cref="InprocInbound"/>).</summary>
    public InprocChannel? InprocOutbound { get; }

    /// <summary>inproc pipes: the channel from the peer socket (its <see cref="InprocOutbound"/>).</summary>
    public InprocChannel? InprocInbound { get; }

    /// <summary>Whole messages queued inbound, not yet received.</summary>
    public long InboundQueuedMessages => InprocInbound?.QueuedMessages ?? _inbound!.QueuedMessages;

    /// <summary>True while anything sent is still queued outbound.</summary>
    public bool OutboundHasData => InprocOutbound?.HasData ?? _outbound!.HasData;

    /// <summary>True while anything is queued inbound.</summary>
    public bool InboundHasData => InprocInbound?.HasData ?? _inbound!.HasData;

    /// <summary>Outbound limit in messages; for inproc the sender's SNDHWM plus the receiver's RCVHWM (set when linked).</summary>
    public int SendHwm { get; set; }

    /// <summary>
    /// inproc: the peer socket's signal. There is no engine in between, so a commit wakes the peer's
    /// receiver and a consumed message wakes the peer's sender directly.
    /// </summary>
    public SocketSignal? PeerSignal { get; set; }

    /// <summary>inproc: the peer pipe, so either side can tell the other it is gone.</summary>
    public Pipe? Peer { get; set; }

    /// <summary>inproc: the endpoint name the pipe was linked through (Unbind and Disconnect find it by this).</summary>
    public string? InprocName { get; set; }

    /// <summary>The peer closed: deliver what is queued, accept nothing more.</summary>
    public bool PeerGone { get; set; }

    public int ReceiveHwm { get; }

    /// <summary>True for a pipe created by Connect (it survives reconnects).</summary>
    public bool FromConnect { get; }

    /// <summary>The peer's routing id as a ROUTER knows it (announced or generated).</summary>
    public byte[] RoutingId { get; set; } = [];

    /// <summary>Peer's ZMTP minor version (0 or 1); decides the subscription form (RFC 37 §Publish-Subscribe).</summary>
    public byte PeerMinorVersion { get; set; } = 1;

    /// <summary>The <c>Identity</c> the peer announced in its last handshake (empty when none).</summary>
    public byte[] PeerIdentity { get; set; } = [];

    /// <summary>
    /// A connect pipe under Immediate: it serves one connection and leaves the socket when that
    /// connection is lost, so nothing is queued for a peer that is not there; the next connection
    /// gets a new pipe (docs/libzmq-behaviour.md L15).
    /// </summary>
    public bool EndsWithConnection { get; init; }

    /// <summary>True once a handshake completed over this pipe at least once.</summary>
    public bool HasBeenConnected { get; set; }

    /// <summary>The endpoint the pipe came through, as bound or connected (the metrics' endpoint tag).</summary>
    public string Endpoint { get; set; } = string.Empty;

    /// <summary>
    /// Messages the pattern dropped because this pipe was at its HWM (PUB, XPUB, ROUTER without Router_Mandatory).
    /// A plain field: written by the socket thread on the drop path, read racily by the metrics.
    /// </summary>
    public long MessagesDroppedAtHwm;

    /// <summary>Set by the socket when the pipe is gone (peer left, Disconnect, close).</summary>
    public bool IsTerminated { get; set; }

    /// <summary>Scratch for patterns: true while a multipart message is half sent on this pipe.</summary>
    public bool SendInProgress { get; set; }

    /// <summary>True after the writer consumed part of a message whose rest is still queued (see <see cref="FrameQueue"/>).</summary>
    public bool OutboundMidMessage { get; set; }

    /// <summary>Per-pipe state a pattern keeps (subscriptions, REP envelope bookkeeping...).</summary>
    public object? PatternState { get; set; }

    public SocketCore Socket => _socket;

    // ------------------------------------------------------------ socket side (user thread)

    /// <summary>True when a new message fits under the send HWM (counted in messages, libzmq style).</summary>
    /// <remarks>
    /// Over tcp and ipc, once the queue reached the HWM it counts as full until it has drained to
    /// <see cref="ResumeLevel"/>, as a libzmq pipe stays inactive until its reader reports a batch
    /// of reads. So a blocked send, DontWait and POLLOUT all agree with when a parked sender is
    /// woken (<see cref="OutboundAtLowWater"/>).
    /// </remarks>
    public bool CanWrite
    {
        get
        {
            if (IsTerminated || PeerGone)
            {
                return false;
            }

            if (InprocOutbound is { } channel)
            {
                // inproc has no batching engine between the sockets: its reader frees room (and
                // wakes a parked sender) message by message, so its HWM stays exact per message.
                return channel.HasRoom(SendHwm);
            }

            if (SendHwm <= 0)
            {
                return true;
            }

            long queued = _outbound!.QueuedMessages;
            if (_sendHeld)
            {
                if (queued > ResumeLevel(SendHwm))
                {
                    return false;
                }

                _sendHeld = false;
                return true;
            }

            if (queued < SendHwm)
            {
                return true;
            }

            _sendHeld = true;
            return false;
        }
    }

    /// <summary>
    /// Where a sender held at <paramref name="hwm"/> may go on: libzmq's low-water mark, the HWM less
    /// half of it (or less 1024 above 2048), never less than one message of room.
    /// </summary>
    internal static long ResumeLevel(int hwm) => hwm - (hwm > 2048 ? 1024 : (hwm + 1) / 2);

    /// <summary>
    /// Engine, after consuming outbound messages: whether a sender held at the HWM may go on, so is
    /// worth waking. Only at the resume level (see <see cref="CanWrite"/>), so a sender at the HWM
    /// wakes once per half HWM of messages rather than once per message (64 KiB tcp, where the
    /// writer frees one message per write: 0.58x libzmq with a wake-up each, 0.98x without).
    /// </summary>
    public bool OutboundAtLowWater => SendHwm <= 0 || Outbound.QueuedMessages <= ResumeLevel(SendHwm);

    /// <summary>Engine: the payload of the next external outbound frame, left queued until it went out.</summary>
    public OutboundPayload PeekPayload() => Outbound.PeekPayload();

    /// <summary>Engine: takes the payload of the next external outbound frame.</summary>
    public OutboundPayload TakePayload() => Outbound.TakePayload();

    /// <summary>When nothing will consume the outbound queue any more: releases payloads still waiting.</summary>
    public void ReleasePayloads()
    {
        if (InprocOutbound is { } channel)
        {
            // What is in the channel is the peer's to read or discard; only an unfinished message is ours.
            channel.DiscardStaged();
            return;
        }

        _outbound!.ReleasePayloads();
    }

    /// <summary>Encodes one message frame into the outbound queue; the last frame publishes the message.</summary>
    public void WriteFrame(ReadOnlySpan<byte> data, bool more)
    {
        if (_socket.PendingPayload is { } payload && payload.Length == data.Length
            && System.Runtime.CompilerServices.Unsafe.AreSame(
                ref System.Runtime.InteropServices.MemoryMarshal.GetReference(data),
                ref System.Runtime.InteropServices.MemoryMarshal.GetReference(payload.Span)))
        {
            WriteExternalFrame(payload, more);
            return;
        }

        if (InprocOutbound is { } channel)
        {
            channel.WriteFrame(data, more);
            if (!more)
            {
                Publish(1);
            }

            return;
        }

        int headerLength = ZmtpFrame.GetHeaderLength(data.Length);
        var span = Outbound.GetSpan(headerLength + data.Length);
        ZmtpFrame.WriteHeader(span, data.Length, more ? ZmtpFrameFlags.More : ZmtpFrameFlags.None);
        data.CopyTo(span.Slice(headerLength));
        Outbound.Advance(headerLength + data.Length);
        if (!more)
        {
            Publish(1);
        }
    }

    /// <summary>Queues only the header of a large frame; its bytes go to the wire from where they lie.</summary>
    private void WriteExternalFrame(OutboundPayload payload, bool more)
    {
        if (InprocOutbound is { } channel)
        {
            payload.AddReference();
            channel.WritePayload(payload, more);
            if (!more)
            {
                Publish(1);
            }

            return;
        }

        int headerLength = ZmtpFrame.GetHeaderLength(payload.Length);
        var span = Outbound.GetSpan(headerLength);
        ZmtpFrame.WriteHeader(span, payload.Length, more ? ZmtpFrameFlags.More : ZmtpFrameFlags.None);
        span[0] |= QueuedFrame.ExternalMarker;
        if (!payload.HasHeadroom && payload.Length < FrameHeadroom.CopyCallerMemoryBelow)
        {
            // Caller memory: a copy with headroom leaves in one send (see CopyCallerMemoryBelow); this connection
            // then holds no reference to the caller's memory, whose callback runs once Send let go of it.
            Outbound.EnqueuePayload(HeadroomCopy.Create(payload.Span), committedNext: !more);
        }
        else
        {
            payload.AddReference();
            Outbound.EnqueuePayload(payload, committedNext: !more);
        }

        Outbound.Advance(headerLength);
        if (!more)
        {
            Publish(1);
        }
    }

    /// <summary>Writes an already-encoded command frame (SUBSCRIBE, CANCEL) and publishes it.</summary>
    public void WriteRaw(ReadOnlySpan<byte> encodedFrame, bool countsAsMessage)
    {
        if (InprocOutbound is { } channel)
        {
            // No ZMTP over inproc: the command's body and its flags travel as they are.
            ZmtpFrame.TryReadHeader(encodedFrame, out var header);
            var body = encodedFrame.Slice(header.HeaderLength, (int)header.BodyLength);
            if (countsAsMessage)
            {
                channel.WriteFrame(body, more: false);
            }
            else
            {
                channel.WriteCommand(body);
            }

            Publish(countsAsMessage ? 1 : 0);
            return;
        }

        var span = Outbound.GetSpan(encodedFrame.Length);
        encodedFrame.CopyTo(span);
        Outbound.Advance(encodedFrame.Length);
        Publish(countsAsMessage ? 1 : 0);
    }

    /// <summary>
    /// Commits what was written and tells the consumer: the inproc peer's socket directly, or the
    /// engine's write loop if it is parked. The commit is a full fence, which the wake-up check needs.
    /// </summary>
    private void Publish(int messages)
    {
        if (InprocOutbound is not null)
        {
            // The channel committed the message (a full fence): wake the peer if it waits.
            PeerSignal?.Notify();
            return;
        }

        _outbound!.Commit(messages);
        WakeWriter();
    }

    /// <summary>
    /// The metadata of the connection now serving this pipe (tcp, ipc; null for inproc, which has none in
    /// libzmq either). Set by the engine when a handshake completes, before the pipe is announced.
    /// </summary>
    public Security.PeerMetadata? Metadata { get; set; }

    /// <summary>
    /// The connection now serving this pipe, as <see cref="Socket.GetPeers"/> shows it: set by the engine before
    /// <see cref="SetEngine"/> publishes it (tcp, ipc), by the link for inproc. Kept after the connection ends;
    /// whether one is up is the engine's (or inproc peer's) presence.
    /// </summary>
    public PeerConnection? Connection
    {
        get => Volatile.Read(ref _connection);
        set => Volatile.Write(ref _connection, value);
    }

    private PeerConnection? _connection;

    /// <summary>
    /// Peeks the next inbound frame; false when nothing is queued. Leaves in
    /// <see cref="SocketCore.PeekedMetadata"/> the metadata of the frame peeked (null when none), which the
    /// sink attaches to the Message it fills: one reference store, no allocation.
    /// </summary>
    public bool TryPeekFrame(out ZmtpFrameHeader header, out ReadOnlySpan<byte> body)
    {
        _socket.PeekedMetadata = null;
        if (InprocInbound is { } channel)
        {
            if (!channel.TryPeek(out var frame))
            {
                header = default;
                body = default;
                return false;
            }

            header = new ZmtpFrameHeader(frame.Flags, frame.Length, ZmtpFrame.GetHeaderLength(frame.Length));
            body = frame.Body;
            return true;
        }

        var span = Inbound.Peek();
        if (span.IsEmpty)
        {
            header = default;
            body = default;
            return false;
        }

        var status = ZmtpFrame.TryReadHeader(span, out header);
        Debug.Assert(status == ZmtpStatus.Done, "the engine commits whole frames only");
        _socket.PeekedMetadata = Metadata;

        // inproc: a large frame's bytes are the sender's Message memory, read in place.
        _peekedExternal = (span[0] & QueuedFrame.ExternalMarker) != 0;
        if (_peekedExternal)
        {
            body = Inbound.PeekPayload().Span;
            _socket.ExternalFramePipe = this;
            return true;
        }

        body = span.Slice(header.HeaderLength, (int)header.BodyLength);
        return true;
    }

    /// <summary>
    /// Gives the pooled buffer of the large frame just peeked (<paramref name="body"/>) to the caller, which then
    /// owns it: consuming the frame no longer releases it. Null unless <paramref name="body"/> is exactly that
    /// buffer and, when <paramref name="bucket"/> is not -1, the buffer is from that pool bucket.
    /// </summary>
    public OutboundPayload? TakePeekedPayload(ReadOnlySpan<byte> body, int bucket)
    {
        if (!_peekedExternal || _peekedPayloadTaken)
        {
            return null;
        }

        var payload = Inbound.PeekPayload();
        var bytes = payload.Span;
        if (bytes.Length != body.Length || !Unsafe.AreSame(ref MemoryMarshal.GetReference(bytes), ref MemoryMarshal.GetReference(body))
            || !payload.IsSolePooledBuffer || (bucket != -1 && payload.PooledBucket != bucket))
        {
            return null;
        }

        _peekedPayloadTaken = true;
        return payload;
    }

    /// <summary>Consumes the frame returned by <see cref="TryPeekFrame"/>.</summary>
    public void ConsumeFrame(in ZmtpFrameHeader header)
    {
        if (InprocInbound is { } channel)
        {
            if (channel.Consume())
            {
                // The room is the peer's: wake its sender if it waits at the HWM.
                PeerSignal?.Notify();
            }

            return;
        }

        if (_peekedExternal)
        {
            _peekedExternal = false;
            Inbound.Consume(header.HeaderLength);
            var payload = Inbound.TakePayload();
            if (_peekedPayloadTaken)
            {
                // A Message owns the buffer now (TakePeekedPayload).
                _peekedPayloadTaken = false;
            }
            else
            {
                payload.Release();
            }
        }
        else
        {
            Inbound.Consume(header.HeaderLength + (int)header.BodyLength);
        }

        // A command left in the queue (a subscription, between messages) was counted as a message by the engine.
        if (header.IsCommand || !header.More)
        {
            Inbound.MessagesConsumed(1);
            if (Volatile.Read(ref _readerPaused) != 0 && Inbound.QueuedMessages <= ReceiveHwm / LowWaterDivisor
                && Interlocked.Exchange(ref _readerPaused, 0) != 0)
            {
                _engine?.WakeReader();
            }
        }
    }

    /// <summary>Drops every queued inbound message (the socket is closing or the pipe is dropped).</summary>
    public void DiscardInbound()
    {
        if (InprocInbound is { } channel)
        {
            // Our side of the link is going: a message we had begun will never be finished. What we
            // queued stays for the peer to read, as LINGER would deliver it (SocketCore abandons
            // it when no peer ever will).
            InprocOutbound!.DiscardStaged();

            // What the peer queued for us and nobody will read, its large payloads released.
            channel.DiscardAll();
            return;
        }

        if (IsTerminated)
        {
            // Large payloads nobody will send any more: release them (zero-copy callbacks run now).
            ReleasePayloads();
        }

        // A frame peeked but never delivered (a poll, a routing-id peek) goes with the rest: no
        // later receive may ask this pipe for its buffer (TakePeekedPayload).
        _peekedExternal = false;
        _peekedPayloadTaken = false;
        Inbound.ConsumeAll();
        if (Interlocked.Exchange(ref _readerPaused, 0) != 0)
        {
            _engine?.WakeReader();
        }
    }
}
