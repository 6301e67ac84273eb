using Managed.Zmq.Buffers;
using Managed.Zmq.Sockets;
using Managed.Zmq.Internal;

namespace Managed.Zmq.Pipes;

/// <summary>
/// The link between a socket and one peer, as patterns see it: frames in, frames out, the peer's
/// routing id and HWMs (RFC 28 §The DEALER Socket Type, its general behavior: one double queue per peer). How the frames travel
/// is the carrier's: <see cref="StreamPipe"/> (tcp, ipc: a frame queue each way, served by a
/// connection engine) or <see cref="Inproc.InprocPipe"/> (a channel each way, shared with the peer socket).
/// </summary>
/// <remarks>
/// <para>The socket (user thread) writes outbound frames and reads inbound ones; the engine or the
/// inproc peer is the other side of each. A pipe made by <c>Connect</c> outlives its connections, so
/// messages queue while the peer is away (Immediate = 0); a pipe made by an accepted connection dies
/// with it.</para>
/// <para>A receive peeks a frame (<see cref="TryPeekFrame"/>), hands it to a sink where it lies, then
/// consumes it (<see cref="ConsumeFrame"/>): one copy, straight to its destination.</para>
/// </remarks>
internal abstract partial class Pipe
{
    /// <summary>Low-water mark as a fraction of the HWM: a paused reader resumes below it.</summary>
    private protected const int LowWaterDivisor = Tuning.Pipes.LowWaterDivisor;

    private protected Pipe(IPipeOwner owner, int sendHwm, int receiveHwm, bool fromConnect)
    {
        Socket = owner;
        SendHwm = sendHwm;
        ReceiveHwm = receiveHwm;
        FromConnect = fromConnect;
    }

    /// <summary>The socket the pipe belongs to.</summary>
    public IPipeOwner Socket { get; }

    /// <summary>Whole messages queued inbound, not yet received.</summary>
    public abstract long InboundQueuedMessages { get; }

    /// <summary>True while anything sent is still queued outbound.</summary>
    public abstract bool OutboundHasData { get; }

    /// <summary>True while anything is queued inbound.</summary>
    public abstract bool InboundHasData { get; }

    /// <summary>Outbound limit in messages; for inproc the sender's SNDHWM plus the receiver's RCVHWM (set when linked).</summary>
    public int SendHwm { get; set; }

    public int ReceiveHwm { get; }

    /// <summary>The peer closed: deliver what is queued, accept nothing more.</summary>
    public bool PeerGone { get; set; }

    /// <summary>True for a pipe created by Connect (it survives reconnects).</summary>
    public bool FromConnect { get; }

    /// <summary>The peer's routing id as a ROUTER knows it (announced or generated).</summary>
    public byte[] RoutingId { get; set; } = [];

    /// <summary>The <c>Identity</c> the peer announced in its last handshake (empty when none).</summary>
    public byte[] PeerIdentity { get; set; } = [];

    /// <summary>
    /// A connect pipe under Immediate: it serves one connection and leaves the socket when that
    /// connection is lost, so nothing is queued for a peer that is not there; the next connection
    /// gets a new pipe (docs/libzmq-behaviour.md L15).
    /// </summary>
    public bool EndsWithConnection { get; init; }

    /// <summary>
    /// A RADIO's udp pipe: every message goes to it whatever its group, since a udp peer sends no JOIN and the DISH
    /// at the other end filters (libzmq's RADIO does the same with its udp pipes).
    /// </summary>
    public bool TakesEveryGroup { get; set; }

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

    /// <summary>Per-pipe state a pattern keeps (subscriptions, REP envelope bookkeeping...).</summary>
    public object? PatternState { get; set; }

    /// <summary>The connection engine serving the pipe now (tcp, ipc); null for inproc and while disconnected.</summary>
    public IPipeEngine? Engine => Volatile.Read(ref _engine);

    private protected IPipeEngine? _engine;

    /// <summary>
    /// The metadata of the connection now serving this pipe (tcp, ipc; null for inproc, which has none in
    /// libzmq either). Set by the engine when a handshake completes, before the pipe is announced.
    /// </summary>
    public Wire.PeerMetadata? Metadata { get; set; }

    /// <summary>
    /// The connection now serving this pipe, as <see cref="Managed.Zmq.Socket.GetPeers"/> shows it: set by the engine
    /// before it publishes itself (tcp, ipc), by the link for inproc. Kept after the connection ends;
    /// whether one is up is the engine's (or inproc peer's) presence.
    /// </summary>
    public PeerConnection? Connection
    {
        get => Volatile.Read(ref _connection);
        set => Volatile.Write(ref _connection, value);
    }

    private PeerConnection? _connection;

    // ------------------------------------------------------------ socket side (user thread)

    /// <summary>True when a new message fits under the send HWM (counted in messages, libzmq style).</summary>
    public bool CanWrite => !IsTerminated && !PeerGone && HasRoom();

    /// <summary>The carrier's HWM check (see <see cref="CanWrite"/>).</summary>
    private protected abstract bool HasRoom();

    /// <summary>Writes one message frame; the last frame of a message publishes it.</summary>
    /// <remarks>A frame with a payload travels by reference where the carrier can take it; the pipe takes its own reference.</remarks>
    public abstract void WriteFrame(in OutboundFrame frame);

    /// <summary>
    /// Queues a subscription change (SUBSCRIBE or CANCEL) for the peer, in order with the messages and
    /// outside the HWM, in the form its carrier needs.
    /// </summary>
    public abstract void WriteSubscription(bool subscribe, ReadOnlySpan<byte> topic);

    /// <summary>
    /// Queues a group membership change (a DISH's JOIN or LEAVE, RFC 48) for the peer RADIO, in order with the
    /// messages and outside the HWM, in the form its carrier needs.
    /// </summary>
    public abstract void WriteGroupCommand(bool join, ReadOnlySpan<byte> group);

    /// <summary>When nothing will consume the outbound queue any more: releases payloads still waiting.</summary>
    public abstract void ReleasePayloads();

    /// <summary>Peeks the next inbound frame; false when nothing is queued.</summary>
    public abstract bool TryPeekFrame(out InboundFrame frame);

    /// <summary>Consumes the frame returned by <see cref="TryPeekFrame"/>.</summary>
    public abstract void ConsumeFrame(in InboundFrame frame);

    /// <summary>
    /// After a message: asks the CPU to fetch what this pipe holds next, for a reader that takes a message from other
    /// pipes before it comes back to this one (a fair queue, see <see cref="Buffers.QueuePrefetch"/>). Carriers without
    /// a use for it do nothing.
    /// </summary>
    public virtual void PrefetchNextRead()
    {
    }

    /// <summary>Drops every queued inbound message (the socket is closing or the pipe is dropped).</summary>
    public abstract void DiscardInbound();

    /// <summary>
    /// Gives the pooled buffer of the large frame just peeked (<paramref name="body"/>) to the caller (see
    /// <see cref="InboundFrame.TakePayload"/>). Only carriers that hand out such frames override it.
    /// </summary>
    internal virtual OutboundPayload? TakePeekedPayload(ReadOnlySpan<byte> body, int bucket) => null;

    /// <summary>
    /// Recognises a subscription change from a subscriber (XPUB, PUB): a SUBSCRIBE or CANCEL command in the
    /// carrier's form, or a one-frame message that starts with 0x01 or 0x00, which every carrier accepts
    /// (RFC 29 §The XSUB Socket Type; docs/libzmq-behaviour.md L12).
    /// </summary>
    public bool TryReadSubscription(in InboundFrame frame, out bool subscribe, out ReadOnlySpan<byte> topic)
    {
        if (frame.IsCommand)
        {
            return TryReadSubscriptionCommand(frame.Body, out subscribe, out topic);
        }

        var body = frame.Body;
        if (frame.More || body.IsEmpty || body[0] > 1)
        {
            subscribe = false;
            topic = default;
            return false;
        }

        subscribe = body[0] == 1;
        topic = body.Slice(1);
        return true;
    }

    /// <summary>Recognises a DISH's JOIN or LEAVE (RADIO): a command in the carrier's form (RFC 37 §The Radio-Dish Pattern).</summary>
    public bool TryReadGroupCommand(in InboundFrame frame, out bool join, out ReadOnlySpan<byte> group)
    {
        if (frame.IsCommand)
        {
            return TryReadGroupCommandBody(frame.Body, out join, out group);
        }

        join = false;
        group = default;
        return false;
    }

    /// <summary>Recognises the body of a command frame as a JOIN or LEAVE, in the carrier's form.</summary>
    private protected abstract bool TryReadGroupCommandBody(ReadOnlySpan<byte> body, out bool join, out ReadOnlySpan<byte> group);

    /// <summary>Recognises the body of a command frame as a SUBSCRIBE or CANCEL, in the carrier's form.</summary>
    private protected abstract bool TryReadSubscriptionCommand(ReadOnlySpan<byte> body, out bool subscribe, out ReadOnlySpan<byte> topic);
}
