namespace Managed.Zmq.Internal;

/// <summary>Tuning, continued: accepting connections, sockets, and the queues between sockets and connections (see Tuning.cs).</summary>
internal static partial class Tuning
{
    /// <summary>Listeners under load: accept retries, the descriptor reserve, the connection cap (Endpoints/).</summary>
    internal static class Accept
    {
        /// <summary>First wait before accepting again after the process ran out of descriptors or memory (EMFILE, ENFILE, ENOBUFS, ENOMEM).</summary>
        public const int RetryInitialMilliseconds = 10;

        /// <summary>
        /// The longest such wait: how late, at most, the listener notices that descriptors are free again. Each
        /// retry costs one failing accept, so this also bounds what an exhausted process spends on it.
        /// </summary>
        public const int RetryMaximumMilliseconds = 500;

        /// <summary>
        /// Descriptors held in reserve and given back when a listener runs out: starting a thread takes a few
        /// descriptors for a moment, so this covers several at once while costing nothing that matters beside any
        /// realistic descriptor limit.
        /// </summary>
        public const int DescriptorReserveSize = 16;

        /// <summary>
        /// Descriptors an accept leaves free at least: the runtime may need one at any moment, and the reserve is
        /// only given back once an accept fails, too late for a thread that needed one just before.
        /// </summary>
        public const int DescriptorHeadroom = 16;

        /// <summary>
        /// Max_Connections by default: far above what one socket of an ordinary application accepts, and above the
        /// descriptor limits most processes run with, so it never bothers normal use; yet it bounds what a flood of
        /// connections can make one socket hold (each accepted connection keeps buffers and a handshake in flight).
        /// libzmq has no cap (-1 here).
        /// </summary>
        public const int DefaultMaxConnections = 100_000;

        /// <summary>Use_Fd: how long a listener's stop waits for the I/O thread to let go of the caller's socket (it normally takes one wake-up).</summary>
        public const int CallerSocketReleaseMilliseconds = 5_000;
    }

    /// <summary>Socket-level housekeeping: proxies, lingering connections.</summary>
    internal static class Sockets
    {
        /// <summary>
        /// Messages a proxy moves per direction before it looks at the other direction and the control socket: a
        /// busy direction cannot starve the other, and a TERMINATE is seen within one burst.
        /// </summary>
        public const int ProxyBurstSize = 1000;

        /// <summary>A context prunes its list of lingering connections from this many entries on, then whenever the list has doubled since.</summary>
        public const int LingeringPruneMinimum = 64;
    }

    /// <summary>
    /// Queues between a socket and its connections (Pipes/, Inproc/) and the patterns' own tables (Patterns/).
    /// The values those folders define as their own constants, gathered here to be switched to.
    /// </summary>
    internal static class Pipes
    {
        /// <summary>A frame queue's first segment: an idle pipe costs little.</summary>
        public const int InitialSegmentSize = 1024;

        /// <summary>Segments double up to this size while a pipe stays busy; the same size a send batch carries at most.</summary>
        public const int MaxSegmentSize = 64 * 1024;

        /// <summary>
        /// The one size of segment for requests above <see cref="MaxSegmentSize"/> (a busy connection's large
        /// receives) up to this size: one size, so that spares always fit the next request and a stream of them
        /// allocates nothing (the segment pool would round each odd size up to the next power of two anyway).
        /// </summary>
        public const int LargeSegmentSize = 256 * 1024;

        /// <summary>Largest segment kept as a spare: big enough for large messages to cycle without allocating, small enough not to hoard memory.</summary>
        public const int MaxSpareSegmentSize = 4 * 1024 * 1024;

        /// <summary>
        /// How much drained memory a frame queue keeps for reuse. Large messages each take a segment of their own
        /// and up to HWM of them can be in flight, so a handful of spares is not enough for them to cycle; this is
        /// (and is released as soon as the queue is dropped).
        /// </summary>
        public const long SpareBudget = 8 * 1024 * 1024;

        /// <summary>
        /// Drained segments a frame queue keeps without their buffers (which went back to the segment pool), so that
        /// refilling beyond <see cref="SpareBudget"/> allocates no segment objects: 512 covers a queue full of frames
        /// just under the large-frame size at the default HWM (two to a 64 KiB segment), at a few dozen bytes each.
        /// </summary>
        public const int BareSegmentsKept = 512;

        /// <summary>
        /// How far past its position a queue's producer (after each small frame) or a fair-queued consumer (after each
        /// message, when other peers' queues come before this one's next turn) has the CPU fetch the queue's memory
        /// (<see cref="Managed.Zmq.Buffers.QueuePrefetch"/>): one cache line.
        /// </summary>
        public const int QueuePrefetchDistance = 64;

        /// <summary>
        /// A connection that stopped reading because its inbound queue reached the receive HWM reads again once
        /// the queue is down to HWM / this: half, so a reader that drains steadily restarts it once per half HWM,
        /// not once per message.
        /// </summary>
        public const int LowWaterDivisor = 2;

        /// <summary>
        /// A sender held at its send HWM may go on once the queue is this many messages below the HWM, or half the
        /// HWM for an HWM up to twice this: libzmq's low-water mark (its pipes' max_wm_delta), which the pipes'
        /// ResumeLevel follows.
        /// </summary>
        public const int SendLowWaterMaxDelta = 1024;

        /// <summary>An inproc channel's first chunk: an idle pair of inproc sockets costs little.</summary>
        public const int InprocInitialChunkSize = 1024;

        /// <summary>Inproc chunks double up to this size while the channel stays busy.</summary>
        public const int InprocMaxChunkSize = 64 * 1024;

        /// <summary>Drained inproc chunks kept for the sender's next ones; more go back to the shared pool.</summary>
        public const int InprocMaxSpareChunks = 8;

        /// <summary>Inproc chunks above this size (a single large frame) are not kept as spares.</summary>
        public const int InprocMaxSpareChunkSize = 4 * 1024 * 1024;

        /// <summary>A fair queue's first array of pipes; it doubles as peers attach.</summary>
        public const int FairQueueInitialCapacity = 4;

        /// <summary>
        /// Upstream frames (subscriptions, cancels, XPUB messages) a publisher applies before each send, at most.
        /// A peer that sends a burst of a million subscriptions then delays each send by one bounded batch instead
        /// of stalling the application until the burst is applied; the burst is applied over the following sends,
        /// as libzmq applies one pipe's worth at a time.
        /// </summary>
        public const int SubscriptionFramesPerSend = 1024;

        /// <summary>A subscription trie node's first children array; it doubles as children are added (most nodes have one or two).</summary>
        public const int TrieInitialChildren = 2;

        /// <summary>The first stack of a trie walk (nodes deep); it doubles when a deeper trie needs it.</summary>
        public const int TrieInitialWalkDepth = 16;

        /// <summary>The first key buffer of a trie walk (bytes); it doubles when a longer key needs it.</summary>
        public const int TrieInitialWalkKeyLength = 256;

        /// <summary>A trie walk stack deeper than this is dropped after the walk rather than kept.</summary>
        public const int TrieRetainedWalkDepth = 4096;

        /// <summary>A trie walk key buffer longer than this is dropped after the walk rather than kept.</summary>
        public const int TrieRetainedWalkKeyLength = 64 * 1024;

        /// <summary>
        /// Trie labels up to this long are stored in the node itself rather than in an array of their own, which
        /// saves an object (header and length) per node; most labels are a few bytes.
        /// </summary>
        public const int TrieInlineLabelBytes = 15;
    }
}
