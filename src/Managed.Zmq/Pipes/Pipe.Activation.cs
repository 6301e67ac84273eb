using System.Runtime.CompilerServices;

namespace Managed.Zmq.Pipes;

/// <summary>A pipe's place in its reader's fair queue: parked when found empty, queued for activation by the producer's next commit.</summary>
internal abstract partial class Pipe
{
    // ------------------------------------------------------------ fair-queue activation

    /// <summary>The reader holds the pipe among those it reads (<see cref="Patterns.FairQueue"/>'s active ones).</summary>
    private const int InboundActive = 0;

    /// <summary>The reader found the pipe empty and set it aside; the producer's next commit queues it.</summary>
    private const int InboundParked = 1;

    /// <summary>In <see cref="Activations"/>, waiting for the reader to take it back.</summary>
    private const int InboundQueued = 2;

    /// <summary><see cref="InboundActive"/>, <see cref="InboundParked"/> or <see cref="InboundQueued"/>.</summary>
    private int _inboundState;

    /// <summary>The reading socket's queue of pipes to take back (set when a fair queue adopts the pipe).</summary>
    public PipeActivations? Activations { get; set; }

    /// <summary>Link in <see cref="PipeActivations"/>' stack.</summary>
    public Pipe? NextActivated { get; set; }

    /// <summary>The fair queue's bookkeeping: where the pipe is in its array, -1 when in none.</summary>
    public int FairQueueIndex { get; set; } = -1;

    /// <summary>
    /// Producer (engine or inproc peer), after a commit, which is a full fence: queues the pipe for the reader
    /// if it had set it aside as empty. One volatile read when it had not.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void InboundCommitted()
    {
        if (Volatile.Read(ref _inboundState) == InboundParked)
        {
            QueueActivation();
        }
    }

    private void QueueActivation()
    {
        if (Interlocked.CompareExchange(ref _inboundState, InboundQueued, InboundParked) == InboundParked)
        {
            Activations!.Push(this);
        }
    }

    /// <summary>
    /// Reader, having found the pipe empty: parks it (a full fence), then looks again. True when the reader
    /// may set the pipe aside (its producer will queue it on the next commit, or already did); false when
    /// data arrived meanwhile and the pipe stays active.
    /// </summary>
    public bool TryParkInbound()
    {
        if (Interlocked.CompareExchange(ref _inboundState, InboundParked, InboundActive) != InboundActive)
        {
            // Already queued (adopted again before the reader took it back): it comes back through the queue.
            return true;
        }

        return !InboundHasData
            || Interlocked.CompareExchange(ref _inboundState, InboundActive, InboundParked) != InboundParked;
    }

    /// <summary>Reader: the pipe was taken out of <see cref="Activations"/> and is active again.</summary>
    public void InboundReactivated() => Volatile.Write(ref _inboundState, InboundActive);

    /// <summary>Reader, adopting the pipe: active, unless it still waits in the queue (which brings it back).</summary>
    public void InboundAdopted() => Interlocked.CompareExchange(ref _inboundState, InboundActive, InboundParked);
}
