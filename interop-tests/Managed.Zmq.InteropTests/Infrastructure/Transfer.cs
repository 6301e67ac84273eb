using System.Buffers.Binary;

namespace Managed.Zmq.InteropTests.Infrastructure;

/// <summary>Scenario building blocks shared by the pattern tests.</summary>
internal static class Transfer
{
    /// <summary>Frame sizes around the ZMTP short/long frame boundary (255 short, 256 long) and the 16-bit boundary.</summary>
    public static readonly int[] BoundarySizes = [0, 1, 254, 255, 256, 257, 65535, 65536];

    public const int MiB = 1 << 20;

    public const int StreamLength = 10_000;

    /// <summary>A multipart message with empty frames at the start, middle and end.</summary>
    public static byte[][] MultipartWithEmptyFrames() =>
        [[], Bytes.Of("first"), [], [], Bytes.Pattern(255, 2), Bytes.Pattern(256, 3), []];

    /// <summary>Sends <paramref name="sent"/> and asserts that exactly <paramref name="expected"/> (default: the same) arrives.</summary>
    public static void Deliver(IEnd from, IEnd to, byte[][] sent, byte[][]? expected = null)
    {
        from.SendMessage(sent);
        Bytes.Equal(expected ?? sent, to.RecvMessage(), $"{from.Name} → {to.Name}");
    }

    /// <summary>The i-th message of a stream: its index, then a body whose size sweeps 0–299 (crossing 255/256).</summary>
    public static byte[] StreamFrame(int i)
    {
        var frame = new byte[4 + i % 300];
        BinaryPrimitives.WriteInt32BigEndian(frame, i);
        frame.AsSpan(4).Fill((byte)i);
        return frame;
    }

    /// <summary>
    /// Streams <paramref name="count"/> messages from a separate thread and checks, on this thread,
    /// that all arrive complete and in order. <paramref name="expect"/> gives the i-th message as the
    /// receiver sees it (default: as sent), e.g. with a ROUTER's routing id frame in front.
    /// </summary>
    public static void Stream(IEnd from, IEnd to, int count = StreamLength,
        Func<int, byte[][]>? make = null, Func<int, byte[][]>? expect = null)
    {
        make ??= i => [StreamFrame(i)];
        expect ??= make;
        var sender = Deadline.Start(() =>
        {
            for (var i = 0; i < count; i++)
                from.SendMessage(make(i));
        });

        for (var i = 0; i < count; i++)
        {
            byte[][] received;
            try
            {
                received = to.RecvMessage();
            }
            catch (Exception e) when (sender.IsFaulted)
            {
                throw new AggregateException($"{from.Name} failed while streaming to {to.Name}.", sender.Exception!, e);
            }
            catch (Exception e)
            {
                throw new InvalidOperationException($"{to.Name} stopped receiving at message {i} of {count}.", e);
            }

            Bytes.Equal(expect(i), received, $"{from.Name} → {to.Name}, message {i} of {count}");
        }

        sender.GetAwaiter().GetResult();
    }

    /// <summary>
    /// Slow-joiner handling without sleeping: publishes <paramref name="probe"/> again and again until the
    /// subscriber receives one, which proves the subscription has reached the publisher.
    /// </summary>
    public static void WaitForSubscription(IEnd publisher, IEnd subscriber, byte[] probe)
    {
        Deadline.RetryUntil(() =>
        {
            publisher.SendMessage(probe);
            var got = subscriber.TryRecvMessage(Timeouts.Probe);
            if (got is null)
                return false;
            Bytes.Equal([probe], got, $"first message {publisher.Name} → {subscriber.Name}");
            return true;
        }, $"{subscriber.Name} to receive {Bytes.Text(probe)} from {publisher.Name}");
    }

    /// <summary>Receives the next message whose first frame is not <paramref name="skip"/> (leftover sync probes).</summary>
    public static byte[][] RecvSkipping(IEnd end, byte[] skip)
    {
        while (true)
        {
            var message = end.RecvMessage();
            if (!message[0].AsSpan().SequenceEqual(skip))
                return message;
        }
    }

    /// <summary>
    /// ROUTER_MANDATORY makes a send to a peer not yet known fail with EHOSTUNREACH; retry until the
    /// handshake has told the ROUTER the routing id (test_issue_566's approach).
    /// </summary>
    public static void SendWhenRoutable(IEnd router, params byte[][] message)
    {
        Deadline.RetryUntil(() =>
        {
            if (router.TrySendMessage(message))
                return true;
            Thread.Yield();
            return false;
        }, $"{router.Name} to learn routing id {Bytes.Text(message[0])}");
    }
}

/// <summary>Options for streams through sockets that drop at the high-water mark (ROUTER, PUB).</summary>
internal static class Unlimited
{
    public static void Hwm(IEnd end)
    {
        end.SetOption(Native.LibZmq.ZMQ_SNDHWM, 0);
        end.SetOption(Native.LibZmq.ZMQ_RCVHWM, 0);
    }
}
