namespace Managed.Zmq.Internal;

/// <summary>
/// Every policy value of the library in one place: thresholds, buffer and batch sizes, spin counts, timer
/// granularities, limits. Grouped by the part of the library that applies them, as Kestrel's
/// SocketTransportOptions and System.IO.Pipelines' PipeOptions hold theirs; code refers to these names, never
/// to a literal.
/// </summary>
/// <remarks>
/// Not here: protocol constants, which the RFCs or libzmq's wire format fix (frame header sizes, the 255-octet
/// routing id, CURVE box sizes); those stay with their codecs under Wire/ and Security/. Nor libzmq's option
/// defaults, which live in the option table. A value here can change without any peer noticing: these trade
/// latency, throughput and memory against each other, and several were set by measurement (the spin counts,
/// the zero-copy threshold); docs/ARCHITECTURE.md section 7 lists the groups.
/// </remarks>
internal static partial class Tuning
{
    /// <summary>How a user thread waits in a blocking Send, Recv or Poll (Sockets/SpinThenPark).</summary>
    internal static class Blocking
    {
        /// <summary>
        /// Rounds of spinning before parking when a reply is due (the socket's last completed operation was a
        /// send): the answer comes within a round trip, and parking and being woken costs more than that on a
        /// small machine. <c>SpinWait</c> pauses in the early rounds and yields the CPU in the later ones.
        /// </summary>
        public const int ReplySpins = 40;

        /// <summary>
        /// Rounds of spinning before parking in a stream (the last operation was a receive) or at the send HWM:
        /// short pauses only, no yields. The peer is the bottleneck there, and on a machine with few cores a
        /// waiter that yields or spins long takes the CPU the peer (or our own I/O thread) needs. libzmq does not
        /// spin at all: its blocking calls go straight to poll on the mailbox descriptor.
        /// </summary>
        public const int StreamSpins = 10;

        /// <summary>
        /// Longest a Recv waits in the kernel on its one connection's OS socket (the read turn, docs/ARCHITECTURE.md)
        /// on a thread whose wake-up channel could not be made (Threading/InterruptibleWait), before it gives the turn
        /// back and parks as any wait does: news that no read brings (a shutdown, a second peer) reaches it no later.
        /// The reactor's own quiet spell (<see cref="Reactor.ParkDelayMilliseconds"/>). A thread with its channel waits on
        /// the turn until the reply, news or the deadline, since news interrupts that wait.
        /// </summary>
        public const int ReadTurnMicroseconds = Reactor.ParkDelayMilliseconds * 1000;
    }

    /// <summary>
    /// How an I/O thread's reactor splits its sockets between its own Select set ("hot": busy connections,
    /// served inline with no thread hop) and the runtime's socket engine ("parked": idle connections, which then
    /// cost nothing per wake-up), and how it idles.
    /// </summary>
    internal static class Reactor
    {
        /// <summary>
        /// Milliseconds a socket may wait for input in the Select set before it is parked. A connection with
        /// traffic at least this often never leaves the Select set, so it keeps the inline path; one that is
        /// quieter pays one thread-pool hop on its next input, which is small beside a gap this long. Shorter
        /// keeps the Select set smaller under many moderately quiet connections; longer keeps more of them on the
        /// inline path. Heartbeats (seconds apart) park in between.
        /// </summary>
        public const int ParkDelayMilliseconds = 20;

        /// <summary>
        /// How long after it stopped watching a read turn the I/O thread looks at it again (input came while the
        /// socket's thread had borrowed it). A turn left away between two Recvs then goes back to the read loop, so a
        /// peer's PING or the end of the stream is held back at most this long while the application does not receive:
        /// a libzmq peer whose HEARTBEAT_TIMEOUT is shorter would drop the connection. One still borrowed is watched
        /// again, so a long wait on the turn costs one look. A request-reply peer slower than this costs the I/O thread
        /// two wake-ups per round trip on each side (this look, then the input it watches again).
        /// </summary>
        public const int LentTurnCheckMilliseconds = ParkDelayMilliseconds;

        /// <summary>
        /// Quiet readers are parked only while more than this many wait in Select. A park's wake-up comes through
        /// the thread pool, so an application that blocks thread-pool threads would delay it; below this count a
        /// Select over every socket costs next to nothing, and a process with a handful of connections keeps
        /// depending on nothing but its I/O threads. The cap (<see cref="MaxSelectSet"/>) still parks.
        /// </summary>
        public const int ParkAboveReaders = 16;

        /// <summary>
        /// The least a Select waits for the next park deadline: parking is batched, so a reactor with many quiet
        /// sockets that drift towards their deadlines wakes a bounded number of times per
        /// <see cref="ParkDelayMilliseconds"/>, not once per socket.
        /// </summary>
        public const int ParkCheckMinimumMilliseconds = 5;

        /// <summary>
        /// The most sockets one Select watches (read and write waits together, plus listeners). Past it the
        /// longest-waiting readers are parked at once. This bounds the cost of a wake-up however many connections
        /// are busy, and keeps far below the 65,536 sockets Select refuses.
        /// </summary>
        public const int MaxSelectSet = 1024;

        /// <summary>
        /// When more sockets wait for writability than <see cref="MaxSelectSet"/> (writes cannot be parked),
        /// Select watches them in turns and wakes at least this often to rotate, so none waits for long behind
        /// the others.
        /// </summary>
        public const int WriteRotationMilliseconds = 1;

        /// <summary>
        /// Idle polls of the work queues before an I/O thread blocks in Select, each <see cref="IdleSpinCycles"/>
        /// pause instructions: a couple of microseconds. More costs latency between processes on small machines,
        /// where a spinning I/O thread takes the core the other side needs. libzmq's I/O threads do not spin.
        /// </summary>
        public const int IdleSpinIterations = 4;

        /// <summary>Pause instructions per idle poll (<see cref="IdleSpinIterations"/>).</summary>
        public const int IdleSpinCycles = 10;

        /// <summary>
        /// Posted work items an I/O thread runs per turn before it looks at its sockets and timers again: a flood of
        /// posts (connections attaching, writes handed over) cannot keep it from serving I/O for long.
        /// </summary>
        public const int WorkItemsPerTurn = 1024;

        /// <summary>First size of a reactor's timer heap; it doubles as timers are added.</summary>
        public const int TimerHeapInitialCapacity = 16;

        /// <summary>The timer heap shrinks by half when no more than one in this many of its slots is in use (after a burst of timers).</summary>
        public const int TimerHeapShrinkBelowOneIn = 4;
    }

    /// <summary>Per-connection buffers and batches of the ZMTP engine (Engine/ZmtpConnection).</summary>
    internal static class Engine
    {
        /// <summary>
        /// Least free space asked of the inbound queue before each receive, and where an idle or request-reply
        /// connection stays: many small frames per system call (libzmq reads up to its in_batch_size, 8 KiB, per
        /// call), little memory per connection.
        /// </summary>
        public const int MinReceiveSpace = 16 * 1024;

        /// <summary>
        /// Most free space asked for before a receive: what a busy stream grows to (the receive space doubles
        /// while receives come back full). With what a partial frame carries over it still fits one
        /// <see cref="Pipes.LargeSegmentSize"/> segment.
        /// </summary>
        public const int MaxReceiveSpace = 192 * 1024;

        /// <summary>
        /// Most the receive after a large frame takes into the queue: room for the small frames and the header
        /// that usually come next, little of a large body to copy out again. Also the room behind every pool
        /// buffer of a large frame's size (Buffers/FrameHeadroom), into which the frame's last receive runs on.
        /// </summary>
        public const int ReadAfterLargeFrame = 1024;

        /// <summary>
        /// Most bytes of large messages published before the receiving thread is told. Waking a parked thread
        /// costs more than copying a large frame, so while the next frame is already waiting in the kernel the
        /// wake-up is held for it; this bounds the delay to a few frames' copies.
        /// </summary>
        public const int AnnounceAfterBytes = 256 * 1024;

        /// <summary>
        /// Largest queue a user thread's direct write (the socket writing to the OS socket itself while the write
        /// loop is parked) takes on; more is the write loop's. A reply is usually small.
        /// </summary>
        public const int DirectWriteLimit = 16 * 1024;

        /// <summary>
        /// ZMTP 1.0 peers: where translated frames are gathered before a send, many small messages per system
        /// call. The same size a ZMTP 3.x send carries at most per batch.
        /// </summary>
        public const int Zmtp10SendBuffer = 64 * 1024;

        /// <summary>ZMTP 1.0 peers: where received octets land before translation.</summary>
        public const int Zmtp10ReceiveBuffer = 64 * 1024;

        /// <summary>ZMTP 1.0 peers: from this many body octets still to come, a receive goes straight into the body's place, not through the buffer.</summary>
        public const int Zmtp10DirectBody = 4 * 1024;

        /// <summary>
        /// Largest frame accepted during a handshake (a command, or an old peer's identity), below MAXMSGSIZE when
        /// that is set: handshake commands are small (RFC 23, 25, 27), so anything huge is hostile, and the
        /// connection is refused before it can make us buffer it.
        /// </summary>
        public const int MaxHandshakeFrame = 1 << 20;

        /// <summary>
        /// Shortest heartbeat timer period: a Heartbeat_Ivl or a peer's TTL below it is checked this often, not more,
        /// so a tiny value cannot turn the timer into a busy loop on the I/O thread.
        /// </summary>
        public const int MinHeartbeatTimerMilliseconds = 10;

        /// <summary>
        /// Liveness checks per peer TTL (RFC 37): the connection is checked this many times within a TTL, so a silent
        /// peer is dropped at most a quarter of a TTL late.
        /// </summary>
        public const int HeartbeatChecksPerTtl = 4;

        /// <summary>
        /// Room for the heartbeat commands the engine queues itself between messages (PING and PONG, RFC 37): a PONG
        /// carries at most 16 octets of context, so this holds several while the write loop catches up.
        /// </summary>
        public const int ControlCapacity = 256;
    }

    /// <summary>Where a frame's size decides how it travels: by copy or by reference.</summary>
    internal static class Frames
    {
        /// <summary>
        /// The large-frame threshold, one value for both directions: from this size a Message is sent from its own
        /// memory rather than copied into the queue, and a received frame goes to a pooled buffer of its own.
        /// Below it, copying costs less than what a reference costs (a release callback, a buffer of its own and,
        /// for tcp and ipc, a second piece of memory for the write loop to send).
        /// </summary>
        public const int LargeFrame = 32 * 1024;

        /// <summary>
        /// Zero-copy caller memory has no headroom, so a frame sent from it by reference costs the write loop a
        /// second system call for the header. Below this size each tcp or ipc pipe copies the body into a pooled
        /// buffer with headroom instead (one send), made inside Send, so the free callback is due as soon as Send
        /// returns; from it the frame goes out from the caller's memory. Over inproc a large frame always travels
        /// by reference (no header). Set at <see cref="LargeFrame"/>, below which every frame is copied into the
        /// queue anyway, so nothing more is copied. At most <see cref="Pools.MaxBucketSize"/>.
        /// </summary>
        public const int CopyCallerMemoryBelow = LargeFrame;

        /// <summary>
        /// Largest buffer a Message owns that comes from the library's own pool rather than the native allocator
        /// (Buffers/OwnedBuffers.cs): every size a pool holds, as for the engine's other private pools (large span
        /// sends, large received frames). A small one saves a native allocation and free per Message; a large one
        /// also the page faults of memory the native allocator returns to the system on free and maps afresh on the
        /// next allocation, which in some processes struck every message (docs/ARCHITECTURE.md section 4).
        /// </summary>
        public const int PooledOwnedUpTo = Pools.MaxBucketSize;

        /// <summary>
        /// What the pool of <see cref="PooledOwnedUpTo"/> keeps idle in its shared level per size, at most: its caps
        /// are the default ones, lowered for large sizes to this many bytes' worth (at least two buffers), so a burst
        /// of large Messages does not leave hundreds of megabytes in it. A stream cycles through a few buffers.
        /// </summary>
        public const int OwnedPoolBytesPerSize = 16 * 1024 * 1024;

        /// <summary>
        /// Largest owned buffer a Message keeps for reuse once its content is released. Keeping it makes
        /// send-then-receive loops allocation-free; the limit stops an emptied message from pinning a large block.
        /// </summary>
        public const int MessageRetainedCapacity = 64 * 1024;

        /// <summary>Texts whose UTF-8 form fits this many bytes are encoded on the stack by Send(string) and SendAsync (no buffer).</summary>
        public const int TextStackLimit = 512;
    }

    /// <summary>RADIO and DISH (RFC 48) and their udp:// transport: limits libzmq 4.3.4 sets, which interop needs us to share.</summary>
    internal static class RadioDish
    {
        /// <summary>
        /// The longest group, in bytes: libzmq 4.3.4's ZMQ_GROUP_MAX_LENGTH (255, up from 15 in 4.2) and RFC 48's
        /// bound. It also fits the one length octet of a udp datagram; a longer group is refused with EINVAL.
        /// </summary>
        public const int MaxGroupLength = 255;

        /// <summary>
        /// The largest udp datagram sent or received (length octet, group and body): libzmq 4.3.4's MAX_UDP_MSG.
        /// A larger message is not sent over udp (libzmq would overrun its buffer); a larger datagram is cut to
        /// this, as libzmq reads no more of it.
        /// </summary>
        public const int MaxDatagramSize = 8192;
    }

    /// <summary>The metrics' memory (Diagnostics/ZmqMetrics, docs/observability.md).</summary>
    internal static class Metrics
    {
        /// <summary>
        /// Pairs of socket type and endpoint whose closed sockets' counts the process keeps apart, each its own
        /// series; the ones retired longest ago are folded into one overflow series per socket type. docs/observability.md ("How many
        /// series") says why this many.
        /// </summary>
        public const int RetiredSeries = 1000;

        /// <summary>
        /// Endpoints whose gone pipes' counts one open socket keeps apart: a socket that connects to ever-new
        /// endpoints folds the oldest into its overflow. Lower than <see cref="RetiredSeries"/>, since every open
        /// socket keeps its own.
        /// </summary>
        public const int RetiredSeriesPerSocket = 100;
    }
}
