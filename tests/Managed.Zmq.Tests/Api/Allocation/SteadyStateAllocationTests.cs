namespace Managed.Zmq.Tests.Api.Allocation;

/// <summary>
/// Runs alone: mid-size frames keep part of their queues' segments in the process-wide segment pool, which tests
/// running alongside would draw on at the same time.
/// </summary>
[CollectionDefinition(Name, DisableParallelization = true)]
public sealed class SteadyStateAllocationCollection
{
    public const string Name = "Steady-state allocation";
}

/// <summary>
/// Guards the promise of docs/ARCHITECTURE.md: after warm-up, the Span, Message and
/// MessagePool send and receive paths allocate nothing per message on the sending and the
/// receiving thread, over tcp, ipc, inproc and ws, for small frames, for mid-size frames that fill
/// the queues with more segments than a queue keeps for itself (4 and 16 KiB at the default HWM:
/// the rest wait in the shared segment pool), and for frames that travel by reference (64 KiB:
/// sent from their own memory, received straight into pooled buffers).
/// </summary>
[Collection(SteadyStateAllocationCollection.Name)]
public sealed unsafe class SteadyStateAllocationTests
{
    private const int Messages = 10_000;

    /// <summary>
    /// An allocation per message would cost at least 24 B a message (an object header), so a total
    /// under 12 B a message proves there is none, not even one every other message; what is
    /// tolerated is one queue segment (64 KiB) the warm-up did not happen to create
    /// (SteadyStateRun holds the queue full during warm-up so that this is rare).
    /// </summary>
    private const long NothingPerMessage = Messages * 12L;

    /// <summary>
    /// <see cref="MessagePool.Rent(int)"/> returns a new Message every time (a Message that
    /// gave its buffer back must never affect a later rental, so Message objects are not recycled):
    /// that object, and nothing else, is what a rent-and-send costs the managed heap.
    /// </summary>
    private const long OneMessageObjectPerMessage = Messages * 96L;

    /// <summary>Messages a run sends: the warm-up and every measured window.</summary>
    private const int SentInAll = (1 + SteadyStateRun.Windows) * Messages;

    private static void AssertAtMost(long allocated, long limit, string side)
        => Assert.True(allocated < limit, $"{side} thread allocated {allocated} B over {Messages} messages");

    [Theory]
    [TransportCases(Transport.Tcp, Transport.Ipc, Transport.Inproc, Transport.Ws, With = [64, 4096, 16 * 1024, 64 * 1024])]
    public void SpanSendAndRecv_SteadyState_AllocatesNothingPerMessage(Transport transport, int size)
    {
        using var run = new SteadyStateRun(transport);
        var payload = new byte[size];
        var buffer = new byte[size];

        run.Measure(Messages, size, () => run.Push.Send(payload), () => run.Pull.Recv(buffer));

        Assert.Equal(0, run.WrongSizes);
        AssertAtMost(run.SendAllocated, NothingPerMessage, "sending");
        AssertAtMost(run.ReceiveAllocated, NothingPerMessage, "receiving");
    }

    [Theory]
    [TransportCases(Transport.Tcp, Transport.Ipc, Transport.Inproc, Transport.Ws, With = [64, 4096, 16 * 1024, 64 * 1024])]
    public void MessageSendAndRecv_SteadyState_AllocatesNothingPerMessage(Transport transport, int size)
    {
        using var run = new SteadyStateRun(transport);

        // The caller reuses one Message each side: after a send it is empty and can be rebuilt.
        using var outgoing = new Message(size);
        using var incoming = new Message();
        run.Measure(
            Messages,
            size,
            () =>
            {
                outgoing.Rebuild(size);
                run.Push.Send(outgoing);
            },
            () => run.Pull.Recv(incoming));

        Assert.Equal(0, run.WrongSizes);
        AssertAtMost(run.SendAllocated, NothingPerMessage, "sending");
        AssertAtMost(run.ReceiveAllocated, NothingPerMessage, "receiving");
    }

    [Theory]
    [TransportCases(Transport.Tcp, Transport.Ipc, Transport.Inproc, Transport.Ws, With = [64, 4096, 16 * 1024, 64 * 1024])]
    public void PooledSendAndRecv_SteadyState_AllocatesOnlyTheRentedMessage(Transport transport, int size)
    {
        var pool = new MessagePool();
        using var run = new SteadyStateRun(transport);

        // The receiver keeps one rented Message and receives into its pooled buffer.
        using var incoming = pool.Rent(size);
        run.Measure(
            Messages,
            size,
            () =>
            {
                using var outgoing = pool.Rent(size);
                run.Push.Send(outgoing);
            },
            () => run.Pull.Recv(incoming, size));

        Assert.Equal(0, run.WrongSizes);
        AssertAtMost(run.SendAllocated, OneMessageObjectPerMessage, "sending");
        AssertAtMost(run.ReceiveAllocated, NothingPerMessage, "receiving");
    }

    [Theory]
    [TransportCases(Transport.Tcp, Transport.Ipc, Transport.Inproc, Transport.Ws, With = [64, 4096, 16 * 1024, 64 * 1024])]
    public void PooledRebuildSendAndRecv_SteadyState_AllocatesNothingPerMessage(Transport transport, int size)
    {
        var pool = new MessagePool();
        using var run = new SteadyStateRun(transport);

        // One Message rebuilt from the pool for every send (Message.Rebuild(MessagePool, int)): no Message object per
        // send either, unlike Rent.
        using var outgoing = new Message();
        using var incoming = pool.Rent(size);
        run.Measure(
            Messages,
            size,
            () =>
            {
                outgoing.Rebuild(pool, size);
                run.Push.Send(outgoing);
            },
            () => run.Pull.Recv(incoming, size));

        Assert.Equal(0, run.WrongSizes);
        AssertAtMost(run.SendAllocated, NothingPerMessage, "sending");
        AssertAtMost(run.ReceiveAllocated, NothingPerMessage, "receiving");
    }

    [Theory]
    [TransportCases(Transport.Tcp, Transport.Ipc, Transport.Inproc, Transport.Ws, With = [64, 4096, 16 * 1024, 64 * 1024])]
    public void ZeroCopySendAndRecv_SteadyState_AllocatesOnlyTheCallersMessage(Transport transport, int size)
    {
        using var run = new SteadyStateRun(transport);

        // Every message lends the same read-only native bytes; the callback only counts (one delegate, made once).
        var shared = (nint)System.Runtime.InteropServices.NativeMemory.Alloc((nuint)size);
        int callbacks = 0;
        bool allReleased = false;
        try
        {
            Action<nint> countRelease = _ => Interlocked.Increment(ref callbacks);
            using var incoming = new Message();
            run.Measure(
                Messages,
                size,
                () =>
                {
                    using var outgoing = new Message(shared, size, countRelease);
                    run.Push.Send(outgoing);
                },
                () => run.Pull.Recv(incoming));

            Assert.Equal(0, run.WrongSizes);
            AssertAtMost(run.SendAllocated, OneMessageObjectPerMessage, "sending");
            AssertAtMost(run.ReceiveAllocated, NothingPerMessage, "receiving");
        }
        finally
        {
            // The shared bytes are freed only once no transport can read them any more.
            run.Dispose();
            allReleased = SpinWait.SpinUntil(() => Volatile.Read(ref callbacks) == SentInAll, TimeSpan.FromSeconds(10));
            if (allReleased)
            {
                System.Runtime.InteropServices.NativeMemory.Free((void*)shared);
            }
        }

        Assert.True(allReleased, $"{callbacks} of {SentInAll} free callbacks ran");
    }
}
