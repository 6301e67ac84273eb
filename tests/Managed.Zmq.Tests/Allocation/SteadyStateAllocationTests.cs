namespace Managed.Zmq.Tests.Allocation;

/// <summary>
/// Guards the promise of ARCHITECTURE.md: after warm-up, the Span and Message send and receive
/// paths allocate nothing per message on the sending and the receiving thread, over every transport.
/// </summary>
public sealed class SteadyStateAllocationTests
{
    private const int Messages = 50_000;

    /// <summary>Messages the sender queues before the receiver starts: just under inproc's capacity (SNDHWM + RCVHWM = 2000).</summary>
    private const int QueueFill = 1950;

    /// <summary>
    /// Any allocation per message would cost at least 24 B a message (an object header), so a total
    /// under 5 B a message proves there is none; what is tolerated is a few 64 KiB queue segments
    /// added when a loaded machine lets the consumer fall further behind than during warm-up.
    /// </summary>
    private static void AssertNothingPerMessage(long allocated, string side)
        => Assert.True(allocated < Messages * 5L, $"{side} thread allocated {allocated} B over {Messages} messages");

    public static TheoryData<string> Endpoints => new() { "tcp://127.0.0.1:*", "ipc://*", $"inproc://alloc-{Guid.NewGuid():N}" };

    [Theory]
    [MemberData(nameof(Endpoints))]
    public void SpanSendAndRecv_SteadyState_AllocatesNothingPerMessage(string endpoint)
    {
        using var context = new Context();
        using var pull = new Socket(context, SocketType.Pull);
        using var push = new Socket(context, SocketType.Push);
        pull.SetOption(SocketOption.Linger, 0);
        push.SetOption(SocketOption.Linger, 0);
        pull.SetOption(SocketOption.Rcvtimeo, 10_000);
        push.SetOption(SocketOption.Sndtimeo, 10_000);
        pull.Bind(endpoint);
        push.Connect(pull.GetOptionString(SocketOption.Last_Endpoint));

        long sendAllocated = 0;
        using var queueFilled = new ManualResetEventSlim();
        var sender = new Thread(() =>
        {
            var payload = new byte[64];
            for (int i = 0; i < Messages; i++)
            {
                push.Send(payload);
                if (i == QueueFill)
                {
                    queueFilled.Set();
                }
            }

            long before = GC.GetAllocatedBytesForCurrentThread();
            for (int i = 0; i < Messages; i++)
            {
                push.Send(payload);
            }

            sendAllocated = GC.GetAllocatedBytesForCurrentThread() - before;
        });
        sender.Start();

        // Warm-up fills the queue to its HWM once, so every segment it can ever need exists before measuring.
        Assert.True(queueFilled.Wait(TimeSpan.FromSeconds(30)));
        var buffer = new byte[64];
        for (int i = 0; i < Messages; i++)
        {
            Assert.Equal(64, pull.Recv(buffer));
        }

        long receiveBefore = GC.GetAllocatedBytesForCurrentThread();
        for (int i = 0; i < Messages; i++)
        {
            pull.Recv(buffer);
        }

        long receiveAllocated = GC.GetAllocatedBytesForCurrentThread() - receiveBefore;
        Assert.True(sender.Join(TimeSpan.FromSeconds(30)));

        AssertNothingPerMessage(sendAllocated, "sending");
        AssertNothingPerMessage(receiveAllocated, "receiving");
    }

    [Theory]
    [MemberData(nameof(Endpoints))]
    public void MessageSendAndRecv_SteadyState_AllocatesNothingPerMessage(string endpoint)
    {
        using var context = new Context();
        using var pull = new Socket(context, SocketType.Pull);
        using var push = new Socket(context, SocketType.Push);
        pull.SetOption(SocketOption.Linger, 0);
        push.SetOption(SocketOption.Linger, 0);
        pull.SetOption(SocketOption.Rcvtimeo, 10_000);
        push.SetOption(SocketOption.Sndtimeo, 10_000);
        pull.Bind(endpoint);
        push.Connect(pull.GetOptionString(SocketOption.Last_Endpoint));

        long sendAllocated = 0;
        using var queueFilled = new ManualResetEventSlim();
        var sender = new Thread(() =>
        {
            // The caller reuses one Message: after a send it is empty and can be rebuilt (API §4.2).
            using var message = new Message(64);
            for (int i = 0; i < Messages; i++)
            {
                message.Rebuild(64);
                push.Send(message);
                if (i == QueueFill)
                {
                    queueFilled.Set();
                }
            }

            long before = GC.GetAllocatedBytesForCurrentThread();
            for (int i = 0; i < Messages; i++)
            {
                message.Rebuild(64);
                push.Send(message);
            }

            sendAllocated = GC.GetAllocatedBytesForCurrentThread() - before;
        });
        sender.Start();

        Assert.True(queueFilled.Wait(TimeSpan.FromSeconds(30)));
        using var received = new Message();
        for (int i = 0; i < Messages; i++)
        {
            pull.Recv(received);
        }

        int wrongSizes = 0;
        long receiveBefore = GC.GetAllocatedBytesForCurrentThread();
        for (int i = 0; i < Messages; i++)
        {
            // No Assert inside the measured loop: the assertion library allocates.
            wrongSizes += pull.Recv(received) == 64 ? 0 : 1;
        }

        long receiveAllocated = GC.GetAllocatedBytesForCurrentThread() - receiveBefore;
        Assert.Equal(0, wrongSizes);
        Assert.True(sender.Join(TimeSpan.FromSeconds(30)));

        AssertNothingPerMessage(sendAllocated, "sending");
        AssertNothingPerMessage(receiveAllocated, "receiving");
    }
}
