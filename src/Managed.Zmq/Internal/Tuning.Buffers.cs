namespace Managed.Zmq.Internal;

/// <summary>Tuning, continued: the pools of buffers and segments, and the release of zero-copy content (see Tuning.cs).</summary>
internal static partial class Tuning
{
    /// <summary>Pools and caches of buffers, payloads and guards (Buffers/, MessagePool).</summary>
    internal static class Pools
    {
        /// <summary>The smallest queue segment <see cref="Buffers.SegmentPool"/> hands out: a frame queue's or inproc channel's first.</summary>
        public const int MinSegmentSize = 1024;

        /// <summary>The largest segment size <see cref="Buffers.SegmentPool"/> keeps; the largest a queue keeps as a spare too.</summary>
        public const int MaxPooledSegmentSize = 4 * 1024 * 1024;

        /// <summary>
        /// Bytes of drained queue segments the process keeps for the next fill, over every queue: enough for a few
        /// streams of mid-size frames to fill their queues to the default HWM (1,000 frames of up to 32 KiB) over and
        /// over without allocating; a size nobody uses is given back at the next gen-2 collection.
        /// </summary>
        public const long SegmentPoolBudget = 64L * 1024 * 1024;

        /// <summary>
        /// A size of <see cref="Buffers.SegmentPool"/> not rented for this long gives its arrays back to the GC at the next
        /// gen-2 collection: ArrayPool's own threshold, long enough that a stream pausing between bursts keeps its memory.
        /// </summary>
        public const int SegmentPoolIdleTrimMilliseconds = 60_000;

        /// <summary>Slots a size of <see cref="Buffers.SegmentPool"/> starts with; they double up to its share of the budget.</summary>
        public const int SegmentPoolInitialSlots = 16;

        /// <summary>Capacity of the smallest MessagePool bucket: buckets are powers of two from here.</summary>
        public const int MinBucketSize = 16;

        /// <summary>Capacity of the largest MessagePool bucket; larger rents are not pooled.</summary>
        public const int MaxBucketSize = 4 * 1024 * 1024;

        /// <summary>
        /// Default cap of the shared (level-2) MessagePool buckets up to 512 B. The caps fall as buffers grow, so a
        /// pool that was once full of large messages does not keep megabytes for ever; small buffers are cheap and
        /// the most often rented, so more of them are kept. MessagePool's documentation states these defaults.
        /// </summary>
        public const int SharedBuffersUpTo512B = 1000;

        /// <summary>Default cap of the shared buckets from 1 to 4 KiB (see <see cref="SharedBuffersUpTo512B"/>).</summary>
        public const int SharedBuffersUpTo4KiB = 500;

        /// <summary>Default cap of the shared buckets from 8 to 64 KiB (see <see cref="SharedBuffersUpTo512B"/>).</summary>
        public const int SharedBuffersUpTo64KiB = 250;

        /// <summary>Default cap of the shared buckets from 128 to 512 KiB (see <see cref="SharedBuffersUpTo512B"/>).</summary>
        public const int SharedBuffersUpTo512KiB = 100;

        /// <summary>Default cap of the shared buckets from 1 MiB up (see <see cref="SharedBuffersUpTo512B"/>).</summary>
        public const int SharedBuffersLarger = 50;

        /// <summary>How many buffers each MessagePool bucket keeps per thread, before the shared level.</summary>
        public const int SlotsPerBucket = 8;

        /// <summary>
        /// Payload objects the pool keeps: enough for a send and a receive queue full of large frames at libzmq's
        /// default HWM of 1000 each. When full, a returned payload is left to the GC.
        /// </summary>
        public const int PayloadPoolCapacity = 2048;

        /// <summary>Message guards kept per thread for reuse: enough for the messages a thread has open at once in a send loop.</summary>
        public const int MessageGuardCacheSize = 32;
    }

    /// <summary>When free callbacks of zero-copy messages run (Buffers/PendingReleaseRing, Buffers/DeferredReleases).</summary>
    internal static class Releases
    {
        /// <summary>Pending-release entries per thread; a power of two.</summary>
        public const int RingCapacity = 256;

        /// <summary>
        /// Period of the timer that runs waiting callbacks: a callback of a message that is never released waits
        /// about this long. One millisecond is the finest period the runtime's timers keep.
        /// </summary>
        public const int TickMilliseconds = 1;

        /// <summary>
        /// Empty ticks in a row before the ring's timer stops: steady send-and-dispose traffic leaves every tick
        /// empty, and stopping and restarting each time would cost a process-wide barrier and a lock per tick.
        /// </summary>
        public const int EmptyTicksBeforeStop = 50;

        /// <summary>Callbacks the shared overflow list runs per drain, so one drain never holds a thread-pool thread for long.</summary>
        public const int DeferredBatchSize = 1024;

        /// <summary>
        /// Callbacks the shared overflow list holds: a few batches, so memory stays bounded when senders outrun the
        /// drain; a sender that finds it full waits (or, when it must not block, hands its callback to the thread pool).
        /// </summary>
        public const int DeferredCapacity = DeferredBatchSize * 4;
    }
}
