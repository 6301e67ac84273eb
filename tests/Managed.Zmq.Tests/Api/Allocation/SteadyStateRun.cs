using Managed.Zmq.Tests.Support;

namespace Managed.Zmq.Tests.Api.Allocation;

/// <summary>
/// One PUSH→PULL stream measured for managed allocation on both threads: a warm-up that holds the
/// queues full (so every queue segment and pooled buffer that the stream can ever need exists),
/// then <see cref="Windows"/> windows of the same number of messages, each counted with
/// <see cref="GC.GetAllocatedBytesForCurrentThread"/> on the sending and on the receiving thread;
/// a side's figure is its smallest window.
/// </summary>
/// <remarks>
/// The frame queue's working set is set by the HWM, but how much of it a warm-up creates depends on
/// how full the queue is each time the writer starts a new segment. A warm-up that merely filled
/// the queue once sometimes made two or three 64 KiB segments where a measured run on a loaded
/// machine then needed four, and failed the per-message bound with a one-time cost. So for its
/// first <see cref="PacedMessages"/> messages the receiver waits until the sender has a whole
/// <see cref="QueueCapacity"/> queued ahead of it: every segment change then happens with the
/// queue full, which is the worst case.
/// <para>Mid-size frames (4 to 16 KiB) fill a queue with more segments than it keeps for itself; the
/// rest wait in the process-wide segment pool, which the tests running alongside use too, so a
/// window may still meet a new peak of segments in use at once and allocate a few of them. That is
/// growth, not a cost per message: an allocation per message shows in every window, a one-time one
/// in one. Hence the smallest of two windows.</para>
/// </remarks>
internal sealed class SteadyStateRun : IDisposable
{
    /// <summary>Messages the sender queues before the receiver starts over inproc: just under its capacity (SNDHWM + RCVHWM = 2000).</summary>
    private const int InprocQueueFill = 1950;

    /// <summary>
    /// The same over tcp and ipc. A sender parked at its HWM is woken only once its queue has
    /// drained to the low-water mark (SNDHWM / 2, as libzmq does), so what is sure to be in flight
    /// while nobody receives is RCVHWM + SNDHWM / 2 plus the socket buffers, not the whole 2000.
    /// </summary>
    private const int StreamQueueFill = 1450;

    /// <summary>inproc's capacity, SNDHWM + RCVHWM; tcp and ipc hold more (socket buffers).</summary>
    private const int QueueCapacity = 2000;

    /// <summary>Warm-up messages received with the queue held full: enough for four segment changes at 64 B.</summary>
    private const int PacedMessages = 2 * QueueCapacity;

    /// <summary>Measured windows per side; the smallest counts.</summary>
    public const int Windows = 2;

    /// <summary>How long one paced receive waits for the sender to get a whole capacity ahead.</summary>
    private static readonly TimeSpan PaceWait = TimeSpan.FromMilliseconds(5);

    private readonly PushPullPair _pair;
    private readonly int _queueFill;

    public SteadyStateRun(Transport transport)
    {
        _queueFill = transport == Transport.Inproc ? InprocQueueFill : StreamQueueFill;
        _pair = new PushPullPair(transport, "alloc");
    }

    public Socket Pull => _pair.Pull;

    public Socket Push => _pair.Push;

    /// <summary>Bytes allocated by the sending thread over the measured messages (its smallest window).</summary>
    public long SendAllocated { get; private set; }

    /// <summary>Bytes allocated by the receiving thread over the measured messages (its smallest window).</summary>
    public long ReceiveAllocated { get; private set; }

    /// <summary>Receives whose size was not the one sent (counted, not asserted, inside the loop: assertions allocate).</summary>
    public int WrongSizes { get; private set; }

    /// <summary>
    /// Runs <paramref name="messages"/> warm-up and then <see cref="Windows"/> windows of
    /// <paramref name="messages"/> measured messages; <paramref name="send"/> sends one, <paramref name="receive"/> receives one and
    /// returns its size, which must be <paramref name="size"/>.
    /// </summary>
    public void Measure(int messages, int size, Action send, Func<int> receive)
    {
        using var queueFilled = new ManualResetEventSlim();
        Exception? senderFailure = null;
        int warmUpSent = 0;
        var sender = new Thread(() =>
        {
            try
            {
                for (int i = 0; i < messages; i++)
                {
                    send();
                    Volatile.Write(ref warmUpSent, i + 1);
                    if (i == Math.Min(_queueFill, messages - 1))
                    {
                        queueFilled.Set();
                    }
                }

                long smallest = long.MaxValue;
                for (int window = 0; window < Windows; window++)
                {
                    long before = GC.GetAllocatedBytesForCurrentThread();
                    for (int i = 0; i < messages; i++)
                    {
                        send();
                    }

                    smallest = Math.Min(smallest, GC.GetAllocatedBytesForCurrentThread() - before);
                }

                SendAllocated = smallest;
            }
            catch (Exception e)
            {
                senderFailure = e;
                queueFilled.Set();
            }
        });
        sender.Start();

        Assert.True(queueFilled.Wait(TimeSpan.FromSeconds(30)), "the sender never filled the queue");
        int wrongSizes = 0;
        bool pacing = true;
        for (int i = 0; i < messages && senderFailure is null; i++)
        {
            if (pacing && i < PacedMessages)
            {
                // A transport that cannot hold a whole capacity ahead (large frames over tcp or ipc)
                // times out once and is not paced further: its queue is already as full as it gets.
                int target = Math.Min(messages, i + QueueCapacity);
                pacing = SpinWait.SpinUntil(() => Volatile.Read(ref warmUpSent) >= target || senderFailure is not null, PaceWait);
            }

            wrongSizes += receive() == size ? 0 : 1;
        }

        long smallestReceive = long.MaxValue;
        for (int window = 0; window < Windows; window++)
        {
            long receiveBefore = GC.GetAllocatedBytesForCurrentThread();
            for (int i = 0; i < messages && senderFailure is null; i++)
            {
                wrongSizes += receive() == size ? 0 : 1;
            }

            smallestReceive = Math.Min(smallestReceive, GC.GetAllocatedBytesForCurrentThread() - receiveBefore);
        }

        ReceiveAllocated = smallestReceive;
        WrongSizes = wrongSizes;
        Assert.True(sender.Join(TimeSpan.FromSeconds(30)), "the sender did not finish");
        Assert.Null(senderFailure);
    }

    public void Dispose() => _pair.Dispose();
}
