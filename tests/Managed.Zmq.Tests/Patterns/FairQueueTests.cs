using System.Buffers.Binary;
using Managed.Zmq.Patterns;
using Managed.Zmq.Wire;
using Managed.Zmq.Inproc;
using Managed.Zmq.Pipes;
using Managed.Zmq.Tests.Support;

namespace Managed.Zmq.Tests.Patterns;

/// <summary>
/// The fair queue over real pipes, fed as the engine (tcp, ipc) or an inproc peer feeds them: round robin
/// among the pipes with data, pipes found empty set aside and brought back by their producer's next commit,
/// so a receive looks at the active pipes only, however many idle ones the socket has.
/// </summary>
public sealed class FairQueueTests
{
    /// <summary>How long a test may wait for a stress run to finish (a deadline, not a measurement).</summary>
    private const int StressDeadlineMs = 60_000;

    private readonly FakePipeOwner _core = new();
    private readonly FakePipeOwner _peerCore = new();

    [Fact]
    public void TryPeek_SeveralPipesWithData_ServesThemInTurn()
    {
        var queue = new FairQueue();
        var pipes = Enumerable.Range(0, 3).Select(_ => NewEnginePipe()).ToArray();
        foreach (var pipe in pipes)
        {
            queue.Add(pipe);
        }

        for (int round = 0; round < 2; round++)
        {
            for (int p = 0; p < pipes.Length; p++)
            {
                Deliver(pipes[p], [(byte)(p * 10 + round)]);
            }
        }

        var order = ReadAll(queue).Select(m => m[0][0]).ToArray();
        Assert.Equal(new byte[] { 0, 10, 20, 1, 11, 21 }, order);
    }

    [Fact]
    public void TryPeek_MultipartMessage_FramesNeverInterleaved()
    {
        var queue = new FairQueue();
        var first = NewEnginePipe();
        var second = NewEnginePipe();
        queue.Add(first);
        queue.Add(second);
        Deliver(first, [1], [2], [3]);
        Deliver(second, [9]);
        Deliver(first, [4]);

        var messages = ReadAll(queue);
        Assert.Equal(3, messages.Count);
        Assert.Equal(new byte[] { 1, 2, 3 }, messages[0].Select(f => f[0]).ToArray());
        Assert.Equal([9], messages[1][0]);
        Assert.Equal([4], messages[2][0]);
    }

    [Fact]
    public void TryPeek_EnginePipeEmptiedThenRefilled_IsServedAgain()
    {
        // Two pipes: the first one found empty is set aside, the last active one stays.
        var queue = new FairQueue();
        var pipe = NewEnginePipe();
        queue.Add(pipe);
        queue.Add(NewEnginePipe());
        Assert.False(queue.HasMessage);
        Assert.Equal(1, queue.ActiveCount);

        Deliver(pipe, [7]);
        Assert.Equal([7], ReadAll(queue).Single()[0]);
        Assert.Equal(1, queue.ActiveCount);
        Assert.Equal(1, queue.ActivationsTaken);

        Deliver(pipe, [8]);
        Assert.Equal([8], ReadAll(queue).Single()[0]);
    }

    [Fact]
    public void TryPeek_InprocPipeEmptiedThenRefilled_IsServedAgain()
    {
        var queue = new FairQueue();
        var (reader, writer) = NewInprocPair();
        queue.Add(reader);
        queue.Add(NewInprocPair().Reader);
        Assert.False(queue.HasMessage);
        Assert.Equal(1, queue.ActiveCount);

        writer.WriteFrame(new OutboundFrame([5], more: true));
        writer.WriteFrame(new OutboundFrame([6], more: false));
        Assert.Equal(new byte[] { 5, 6 }, ReadAll(queue).Single().Select(f => f[0]).ToArray());
        Assert.Equal(1, queue.ActivationsTaken);

        writer.WriteFrame(new OutboundFrame([7], more: false));
        Assert.Equal([7], ReadAll(queue).Single()[0]);
    }

    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    public void TryPeek_LastActivePipeFoundEmpty_StaysActiveAndIsNeverQueuedBack(bool inproc)
    {
        // One busy peer whose reader keeps up: set aside at every message, its producer would queue it back at every
        // message. It stays in the round robin instead, and every message is still served.
        const int rounds = 100;
        var queue = new FairQueue();
        Action<byte> send;
        if (inproc)
        {
            var (reader, writer) = NewInprocPair();
            queue.Add(reader);
            send = b => writer.WriteFrame(new OutboundFrame([b], more: false));
        }
        else
        {
            var pipe = NewEnginePipe();
            queue.Add(pipe);
            send = b => Deliver(pipe, [b]);
        }

        for (int i = 0; i < rounds; i++)
        {
            Assert.False(queue.HasMessage);
            send((byte)i);
            Assert.Equal([(byte)i], ReadAll(queue).Single()[0]);
        }

        Assert.Equal(1, queue.ActiveCount);
        Assert.Equal(0, queue.ActivationsTaken);
    }

    [Fact]
    public void TryPeek_ManyIdlePipesOneActive_ExaminesOnlyTheActiveOnes()
    {
        const int idle = 1_000;
        var queue = new FairQueue();
        for (int i = 0; i < idle; i++)
        {
            queue.Add(NewEnginePipe());
        }

        var active = NewEnginePipe();
        queue.Add(active);

        // The first peek finds every pipe empty and sets all but the last one looked at aside.
        Assert.False(queue.HasMessage);
        Assert.Equal(1, queue.ActiveCount);

        long before = queue.PipesExamined;
        const int rounds = 200;
        for (int i = 0; i < rounds; i++)
        {
            Deliver(active, [(byte)i]);
            Assert.Equal([(byte)i], ReadAll(queue).Single()[0]);
        }

        // Per round: the active pipe with its message, then found empty (and one more peek at most).
        Assert.True(queue.PipesExamined - before <= rounds * 3, $"examined {queue.PipesExamined - before} pipes in {rounds} receives");
        Assert.Equal(idle + 1, queue.Count);
    }

    [Fact]
    public void Remove_ParkedAndActivePipes_RestStillServed()
    {
        var queue = new FairQueue();
        var pipes = Enumerable.Range(0, 5).Select(_ => NewEnginePipe()).ToArray();
        foreach (var pipe in pipes)
        {
            queue.Add(pipe);
        }

        Assert.False(queue.HasMessage);
        Deliver(pipes[1], [1]);
        Deliver(pipes[3], [3]);
        queue.Remove(pipes[0]);
        queue.Remove(pipes[3]);
        Deliver(pipes[4], [4]);

        var got = ReadAll(queue).Select(m => m[0][0]).Order().ToArray();
        Assert.Equal(new byte[] { 1, 4 }, got);
        Assert.Equal(3, queue.Count);

        // A pipe removed while queued for activation and added again is served once.
        Deliver(pipes[2], [2]);
        queue.Remove(pipes[2]);
        queue.Add(pipes[2]);
        Assert.Equal([2], ReadAll(queue).Single()[0]);
    }

    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    public void TryPeek_WritersOnOtherThreadsInBursts_NoMessageLostDuplicatedOrReordered(bool inproc)
    {
        const int writers = 4;
        const int pipesPerWriter = 16;
        const int bursts = 300;
        var queue = new FairQueue();
        var readers = new Pipe[writers * pipesPerWriter];
        var sources = new Action<int, bool>[readers.Length];
        for (int i = 0; i < readers.Length; i++)
        {
            if (inproc)
            {
                var (reader, writer) = NewInprocPair();
                readers[i] = reader;
                sources[i] = (sequence, last) =>
                {
                    Span<byte> body = stackalloc byte[4];
                    BinaryPrimitives.WriteInt32LittleEndian(body, sequence);
                    writer.WriteFrame(new OutboundFrame(body, more: true));
                    writer.WriteFrame(new OutboundFrame(body, more: false));
                };
            }
            else
            {
                var reader = NewEnginePipe();
                readers[i] = reader;
                sources[i] = (sequence, last) =>
                {
                    var body = new byte[4];
                    BinaryPrimitives.WriteInt32LittleEndian(body, sequence);
                    Deliver(reader, body, body);
                };
            }

            queue.Add(readers[i]);
        }

        int expectedPerPipe = 0;
        var burstSizes = new int[bursts];
        for (int b = 0; b < bursts; b++)
        {
            burstSizes[b] = 1 + (b % 7);
            expectedPerPipe += burstSizes[b];
        }

        using var cancel = new CancellationTokenSource(StressDeadlineMs);
        var threads = Enumerable.Range(0, writers).Select(w => new Thread(() =>
        {
            int sequence = 0;
            foreach (int size in burstSizes)
            {
                for (int p = 0; p < pipesPerWriter; p++)
                {
                    int index = w * pipesPerWriter + p;
                    for (int m = 0; m < size; m++)
                    {
                        sources[index](sequence + m, m == size - 1);
                    }
                }

                sequence += size;

                // Wait until the reader has emptied this writer's pipes, so every burst starts on parked pipes.
                for (int p = 0; p < pipesPerWriter; p++)
                {
                    var spinner = default(SpinWait);
                    while (readers[w * pipesPerWriter + p].InboundQueuedMessages != 0 && !cancel.IsCancellationRequested)
                    {
                        spinner.SpinOnce();
                    }
                }
            }
        }) { IsBackground = true }).ToArray();
        foreach (var thread in threads)
        {
            thread.Start();
        }

        var next = new int[readers.Length];
        int total = 0;
        int expectedTotal = expectedPerPipe * readers.Length;
        var idle = default(SpinWait);
        while (total < expectedTotal)
        {
            Assert.False(cancel.IsCancellationRequested, $"received {total} of {expectedTotal}: a pipe with data was never served again");
            if (!queue.TryPeek(out var pipe, out var frame))
            {
                idle.SpinOnce();
                continue;
            }

            Assert.True(frame.More);
            int first = BinaryPrimitives.ReadInt32LittleEndian(frame.Body);
            queue.Consume(pipe, frame);
            Assert.True(queue.TryPeek(out var same, out var second));
            Assert.Same(pipe, same);
            Assert.False(second.More);
            Assert.Equal(first, BinaryPrimitives.ReadInt32LittleEndian(second.Body));
            queue.Consume(pipe, second);

            int index = Array.IndexOf(readers, pipe);
            Assert.Equal(next[index], first);
            next[index]++;
            total++;
        }

        foreach (var thread in threads)
        {
            Assert.True(thread.Join(StressDeadlineMs));
        }

        Assert.All(next, n => Assert.Equal(expectedPerPipe, n));
        Assert.False(queue.HasMessage);
    }

    [Fact]
    public void TryPeek_SubscriptionCommandBetweenMessages_IsSkipped()
    {
        var queue = new FairQueue();
        var (reader, writer) = NewInprocPair();
        queue.Add(reader);
        writer.WriteFrame(new OutboundFrame([1], more: false));
        writer.WriteSubscription(subscribe: true, "t"u8);
        writer.WriteFrame(new OutboundFrame([2], more: false));

        Assert.Equal([[1], [2]], ReadAll(queue).Select(m => m[0]));
    }

    [Fact]
    public void TryPeek_SurfaceSubscriptions_ReturnsTheCommandInOrder()
    {
        var queue = new FairQueue(surfaceSubscriptions: true);
        var (reader, writer) = NewInprocPair();
        queue.Add(reader);
        writer.WriteFrame(new OutboundFrame([1], more: false));
        writer.WriteSubscription(subscribe: false, "t"u8);

        Assert.True(queue.TryPeek(out var pipe, out var message));
        Assert.False(message.IsCommand);
        queue.Consume(pipe, message);
        Assert.True(queue.TryPeek(out pipe, out var command));
        Assert.True(command.IsCommand);
        Assert.True(pipe.TryReadSubscription(command, out bool subscribe, out var topic));
        Assert.False(subscribe);
        Assert.Equal("t"u8.ToArray(), topic.ToArray());
        queue.Consume(pipe, command);
        Assert.False(queue.HasMessage);
    }

    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    public void TryPeek_Conflate_DeliversOnlyTheNewestMessage(bool inproc)
    {
        var queue = new FairQueue { Conflate = true };
        if (inproc)
        {
            var (reader, writer) = NewInprocPair();
            queue.Add(reader);
            for (byte i = 1; i <= 3; i++)
            {
                writer.WriteFrame(new OutboundFrame([i], more: false));
            }
        }
        else
        {
            var pipe = NewEnginePipe();
            queue.Add(pipe);
            for (byte i = 1; i <= 3; i++)
            {
                Deliver(pipe, [i]);
            }
        }

        Assert.Equal([3], ReadAll(queue).Single()[0]);
    }

    [Fact]
    public void Remove_PipeMidMessage_NextPeekServesAnotherPipe()
    {
        var queue = new FairQueue();
        var first = NewEnginePipe();
        var second = NewEnginePipe();
        queue.Add(first);
        queue.Add(second);
        Deliver(first, [1], [2]);
        Deliver(second, [9]);
        Assert.True(queue.TryPeek(out var pipe, out var frame));
        Assert.Same(first, pipe);
        queue.Consume(pipe, frame);

        queue.Remove(first);

        Assert.Equal([9], ReadAll(queue).Single()[0]);
        Assert.Equal(1, queue.Count);
    }

    private StreamPipe NewEnginePipe() => new(_core, sendHwm: 0, receiveHwm: 0, fromConnect: false);

    private (InprocPipe Reader, InprocPipe Writer) NewInprocPair()
    {
        var toReader = new InprocChannel();
        var toWriter = new InprocChannel();
        var reader = new InprocPipe(_core, sendHwm: 0, receiveHwm: 0, fromConnect: false, outbound: toWriter, inbound: toReader);
        var writer = new InprocPipe(_peerCore, sendHwm: 0, receiveHwm: 0, fromConnect: true, outbound: toReader, inbound: toWriter);
        reader.Peer = writer;
        writer.Peer = reader;
        return (reader, writer);
    }

    /// <summary>What the engine's read loop does: frames encoded into the inbound queue, the message committed whole.</summary>
    private static void Deliver(StreamPipe pipe, params byte[][] frames)
    {
        var inbound = pipe.Inbound;
        for (int i = 0; i < frames.Length; i++)
        {
            var frame = frames[i];
            var span = inbound.GetSpan(QueuedFrame.GetLength(frame.Length));
            inbound.Advance(QueuedFrame.Write(span, frame, more: i < frames.Length - 1));
        }

        inbound.Commit(1);
    }

    private static List<List<byte[]>> ReadAll(FairQueue queue)
    {
        var messages = new List<List<byte[]>>();
        var current = new List<byte[]>();
        while (queue.TryPeek(out var pipe, out var frame))
        {
            current.Add(frame.Body.ToArray());
            bool more = frame.More;
            queue.Consume(pipe, frame);
            if (!more)
            {
                messages.Add(current);
                current = [];
            }
        }

        Assert.Empty(current);
        return messages;
    }
}
